"""The least a Gymnasium env pushing ArmPush's cube can cost: the ``floor`` loop.

:class:`FloorArm` is the raw loop of :func:`~envsuite.bench.arm.raw_episode` turned into a
``gymnasium.Env`` and nothing more. ``step`` maps the action to MuJoCo's inputs as
ArmPush-v0 does (the hand target moves by ``action[:3] * action_scale``, kept in the
target box; the mocap hand sits ``WRIST_TO_TCP`` above it; the grip command sets the
finger control), so it feeds ``mj_step`` the very inputs the raw loop replays and reaches
the env's final state bit for bit, without recording them first. Then it returns what the
API requires: an observation array, a float reward, the two flags and a small info dict.
No wrapper, no action check (the action must be a float array inside [-1, 1]), no clip of
the observation into its bounds.

It also runs ``mj_kinematics`` after ``mj_step``, as the env and the raw loop do.
``mj_step`` leaves the positions it derives (body and site frames) one substep behind the
state it reaches: the cube's position is in ``qpos``, but the hand's (the TCP site's
``site_xpos``) is not. An
env that observes the hand, or rewards the hand's distance to the cube as ArmPush does,
must bring them to the state reached; an env of this task without that step would
observe a stale hand. The observation holds ArmPush's 26 numbers (TCP position and
velocity, gripper gap, cube pose and velocities, cube relative to the TCP, goal) in one
float32 array and the reward is ArmPush's dense reward, both computed as the env computes
them, so they equal the env's to the bit (the env's clip never bites in this episode).

The ``arm-step`` row times it beside ArmPush-v0 and the raw loop: ``floor / raw`` is what
the Gymnasium API adds to the raw loop (both make the same engine calls), the part of
envsuite's ratio that no env of this interface can remove. ``envsuite bench --rows
arm-step``, five runs on a 2-core x86_64 machine at load average 1.2 (2026-11-29, the
raw loop making the env's ``mj_kinematics`` call too), best rounds: ``floor_vs_raw_best``
1.02-1.03, ``envsuite_vs_floor_best`` 1.02-1.03, envsuite over raw 1.05-1.06x.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import gymnasium
import mujoco
import numpy as np

from envsuite.bench.arm import FRAME_SKIP
from envsuite.families.physics.arm import model, observation
from envsuite.families.physics.arm.base_env import (
    GOAL_MOCAP,
    HALF_GRIPPER_SPAN,
    HAND_MOCAP,
    TCP_SITE,
    new_model,
)
from envsuite.families.physics.arm.push import PushTask
from envsuite.families.physics.arm.task import SHAPING_SCALE

#: ArmPush-v0's defaults: metres per unit of action, steps before truncation.
ACTION_SCALE = 0.02
STEP_LIMIT = 200

_TASK = PushTask()
_LOW, _HIGH = observation.bounds(goal_observable=True)
#: Packs the 26 observation numbers as native float32 in one call.
_ROW = struct.Struct(f"={observation.SIZE}f")
_FINGER = model.FINGER_QPOS.start


class FloorArm(gymnasium.Env[np.ndarray, np.ndarray]):
    """ArmPush's task as the leanest ``gymnasium.Env``: the raw loop behind the API.

    Attributes:
        model: The arm's ``MjModel`` (a fresh copy, as the env's).
        data: Its ``MjData``, the state the steps advance.
    """

    observation_space = gymnasium.spaces.Box(_LOW, _HIGH)
    action_space = gymnasium.spaces.Box(-1.0, 1.0, (4,), np.float32)

    def __init__(self) -> None:
        self.model = new_model()
        self.data = mujoco.MjData(self.model)
        self._hand = self.data.mocap_pos[HAND_MOCAP]
        self._ctrl = self.data.ctrl
        self._tcp = self.data.site_xpos[TCP_SITE]
        self._qpos = self.data.qpos
        self._cube_qvel = self.data.qvel[model.CUBE_LINVEL.start : model.CUBE_ANGVEL.stop]
        self._target = list(model.HOME_TCP)
        self._previous = list(model.HOME_TCP)
        self._goal = [0.0, 0.0, 0.0]
        self._steps = 0
        self._dt = self.model.opt.timestep * FRAME_SKIP

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Seed the env's generator and lay out the cube and goal as ArmPush does."""
        super().reset(seed=seed)
        cube_xy, goal = _TASK.sample(self.np_random)
        m, d = self.model, self.data
        mujoco.mj_resetDataKeyframe(m, d, 0)
        d.qpos[0:2] = cube_xy
        d.mocap_pos[GOAL_MOCAP] = goal
        x, y, z = self._target = list(model.HOME_TCP)
        self._hand[:] = (x, y, z + model.WRIST_TO_TCP)
        mujoco.mj_forward(m, d)
        self._goal = goal.tolist()
        self._previous = self._tcp.tolist()
        self._steps = 0
        observation_, _, _, _, info = self._observe()
        return observation_, info

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The raw loop's work for one action, observed and returned as the API requires."""
        a0, a1, a2, a3 = action.tolist()
        (x, y, z), (lx, ly, lz), (hx, hy, hz) = self._target, model.TCP_LOW, model.TCP_HIGH
        x, y, z = x + a0 * ACTION_SCALE, y + a1 * ACTION_SCALE, z + a2 * ACTION_SCALE
        x = lx if lx > x else x
        y = ly if ly > y else y
        z = lz if lz > z else z
        x = hx if hx < x else x
        y = hy if hy < y else y
        z = hz if hz < z else z
        self._target = [x, y, z]
        hand = self._hand
        hand[0], hand[1], hand[2] = x, y, z + model.WRIST_TO_TCP
        self._ctrl[0] = model.FINGER_LIMIT_MARGIN + HALF_GRIPPER_SPAN * (1.0 - a3)
        mujoco.mj_step(self.model, self.data, FRAME_SKIP)
        mujoco.mj_kinematics(self.model, self.data)  # the hand at the state reached
        self._steps += 1
        return self._observe()

    def _observe(self) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        tx, ty, tz = tcp = self._tcp.tolist()
        px, py, pz = self._previous
        self._previous = tcp
        q = self._qpos.tolist()
        cx, cy, cz = q[0], q[1], q[2]
        gx, gy, gz = self._goal
        dt = self._dt
        row = _ROW.pack(
            tx, ty, tz, (tx - px) / dt, (ty - py) / dt, (tz - pz) / dt, q[_FINGER] + q[_FINGER + 1],
            cx, cy, cz, q[3], q[4], q[5], q[6], *self._cube_qvel.tolist(),
            cx - tx, cy - ty, cz - tz, gx, gy, gz,
        )  # fmt: skip
        # PushTask.evaluate's arithmetic, in its order (so the reward has the env's bits).
        dx, dy, dz = cx - gx, cy - gy, cz - gz
        goal_distance = math.sqrt(dx * dx + dy * dy + dz * dz)
        success = goal_distance < _TASK.success_distance
        if success:
            reward = 1.0
        else:
            dx, dy, dz = tx - cx, ty - cy, tz - cz
            near_cube = SHAPING_SCALE / (SHAPING_SCALE + math.sqrt(dx * dx + dy * dy + dz * dz))
            near_goal = SHAPING_SCALE / (SHAPING_SCALE + goal_distance)
            reward = _TASK.tcp_cube_weight * near_cube + _TASK.goal_weight * near_goal
        observation_ = np.frombuffer(bytearray(row), np.float32)
        return observation_, reward, False, self._steps >= STEP_LIMIT, {"success": success}
