"""The least a Gymnasium env flying DroneHover's physics can cost: the ``floor`` loop.

:class:`FloorHover` is :class:`~envsuite.bench.drone.RawHover`'s loop turned into a
``gymnasium.Env`` and nothing more: ``step`` takes the action array, does the raw loop's
physics for it, and returns what the API requires (an observation array, a float reward,
the two flags and an info dict); ``reset`` seeds through ``gymnasium.Env.reset`` and places
the drone as the raw loop does. No wrapper, no action check, no observation beyond the
state PyBullet returns. The ``drone-hover`` row times it beside DroneHover-v0 and the raw
loop (all three fly the same trajectory): ``floor / raw`` is what the Gymnasium API alone
adds to the raw loop, the part of envsuite's ratio no env of this interface can remove.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import gymnasium
import numpy as np
import pybullet as p

from envsuite.bench.drone import CF, RawHover
from envsuite.families.physics.drone.crashes import CRASH_TILT
from envsuite.families.physics.drone.rotations import quaternion_from_yaw

#: Observation: position, quaternion, linear and angular velocity, the last action (17).
OBSERVATION_SIZE = 17
#: Packs the observation as native float32 in one call (numpy's rounding, as DroneHover).
_ROW = struct.Struct(f"={OBSERVATION_SIZE}f")
_FLOAT32 = np.dtype(np.float32)


class FloorHover(gymnasium.Env[np.ndarray, np.ndarray]):
    """DroneHover's task as the leanest ``gymnasium.Env``: the raw loop behind the API."""

    observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (OBSERVATION_SIZE,), np.float32)
    action_space = gymnasium.spaces.Box(-1.0, 1.0, (4,), np.float32)

    def __init__(self) -> None:
        self._raw = RawHover(reference_style=False)
        self._mix = CF.mixer().tolist()
        self._steps = 0
        # The raw loop's constants, worked out once as it does (the model's are properties).
        self._hover, self._above = CF.hover_rpm, CF.max_rpm - CF.hover_rpm
        self._floor, self._cos_tilt = 0.5 * CF.collision_height + 0.01, math.cos(CRASH_TILT)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Seed the env's generator and place the drone at a drawn start pose."""
        super().reset(seed=seed)
        ux, uy, uz, uyaw = self.np_random.random(4).tolist()
        position = [0.5 * (2.0 * ux - 1.0), 0.5 * (2.0 * uy - 1.0)]
        position.append(max(1.0 + 0.5 * (2.0 * uz - 1.0), 0.3))
        quaternion = quaternion_from_yaw(math.pi * (2.0 * uyaw - 1.0))
        raw = self._raw
        p.restoreState(raw.saved, physicsClientId=raw.client)
        p.resetBasePositionAndOrientation(raw.body, position, quaternion, raw.client)
        p.resetBaseVelocity(raw.body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], raw.client)
        self._steps = 0
        # The start state, as DroneHover observes it (at rest, no action yet).
        start = _ROW.pack(*position, *quaternion, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return np.frombuffer(bytearray(start), _FLOAT32), {}

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The raw loop's work for one action, returned as the API requires."""
        a0, a1, a2, a3 = action.tolist()
        hover, above = self._hover, self._above
        r0 = (a0 + 1.0) * hover if a0 <= 0.0 else hover + above * a0
        r1 = (a1 + 1.0) * hover if a1 <= 0.0 else hover + above * a1
        r2 = (a2 + 1.0) * hover if a2 <= 0.0 else hover + above * a2
        r3 = (a3 + 1.0) * hover if a3 <= 0.0 else hover + above * a3
        w0, w1, w2, w3 = r0 * r0, r1 * r1, r2 * r2, r3 * r3
        m, raw = self._mix, self._raw
        body, client, frame = raw.body, raw.client, p.LINK_FRAME
        thrust = [0.0, 0.0, m[0][0] * w0 + m[0][1] * w1 + m[0][2] * w2 + m[0][3] * w3]
        moment = [
            m[1][0] * w0 + m[1][1] * w1 + m[1][2] * w2 + m[1][3] * w3,
            m[2][0] * w0 + m[2][1] * w1 + m[2][2] * w2 + m[2][3] * w3,
            m[3][0] * w0 + m[3][1] * w1 + m[3][2] * w2 + m[3][3] * w3,
        ]
        origin = [0.0, 0.0, 0.0]
        for _ in range(8):
            p.applyExternalForce(body, -1, thrust, origin, frame, client)
            p.applyExternalTorque(body, -1, moment, frame, client)
            p.stepSimulation(client)
        self._steps += 1
        position, quaternion = p.getBasePositionAndOrientation(body, client)
        linear, angular = p.getBaseVelocity(body, client)
        x, y, z = position
        qx, qy = quaternion[0], quaternion[1]
        crashed = (
            z < self._floor
            or 1.0 - 2.0 * (qx * qx + qy * qy) < self._cos_tilt
            or abs(x) > 2.0
            or abs(y) > 2.0
            or z > 2.5
        )
        # Finite values (a crash ends the episode long before float32 overflows).
        row = _ROW.pack(*position, *quaternion, *linear, *angular, a0, a1, a2, a3)
        observation = np.frombuffer(bytearray(row), _FLOAT32)
        distance = math.sqrt(x * x + y * y + (z - 1.0) * (z - 1.0))
        return observation, -distance, crashed, self._steps >= 240, {"distance": distance}
