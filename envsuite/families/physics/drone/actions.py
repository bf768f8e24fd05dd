"""Action types of the drone envs, and the oracle's way of expressing itself in each.

Every action is a ``Box(-1, 1, (n,), float32)`` per drone; values outside [-1, 1] are clipped.

=============  ==  =========================================================================
type           n   meaning
=============  ==  =========================================================================
``rpm``        4   motor speeds: -1 is 0 RPM, 0 is hover RPM, 1 is the maximum (linear in
                   between), as gym-pybullet-drones' ``_normalizedActionToRPM``.
``one_d_rpm``  1   the same speed, so mapped, on all four motors.
``pid``        3   a position set-point ``PID_STEP`` (0.5 m) · a from the current position,
                   tracked by envsuite's geometric controller.
``vel``        4   a velocity set-point: direction a[:3] (normalised) times speed
                   |a[3]| · the model's speed limit, tracked by the geometric controller.
``ctbr``       4   collective thrust (-1: none, 1: the maximum) and body rates (roll, pitch,
                   yaw; ±1 is the model's rate limit), tracked by a body-rate loop run at the
                   physics rate.
=============  ==  =========================================================================

The ``pid`` and ``vel`` set-points are tracked by the controller once per control step (as
gym-pybullet-drones runs its PID), using the model's nominal constants.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import is_numeric_data
from envsuite.env_base import InvalidAction
from envsuite.families.physics.drone.control import GeometricController, RateController
from envsuite.families.physics.drone.dynamics import FlightState, OnboardLoop
from envsuite.families.physics.drone.models import QuadModel
from envsuite.families.physics.drone.rotations import rotation_matrix
from envsuite.families.physics.drone.vector_math import norm3

ACTION_TYPES = ("rpm", "one_d_rpm", "pid", "vel", "ctbr")
ACTION_SIZES = {"rpm": 4, "one_d_rpm": 1, "pid": 3, "vel": 4, "ctbr": 4}
#: Metres a full ``pid`` action moves the set-point from the current position.
PID_STEP = 0.5
#: Gain from position error to the oracle's velocity command (1/s), ``vel`` actions.
ORACLE_VELOCITY_GAIN = 1.5

WRONG_SHAPE = "expected {size} numbers (shape ({size},)) for a {kind!r} action, got shape {shape}"
NOT_NUMBERS = "expected an array of {size} numbers for a {kind!r} action, got {what}"
NOT_FINITE = "the action holds NaN or infinite values"

# The action space's array type and dtype: the fast path of parse tests them by identity.
_NDARRAY = np.ndarray
_FLOAT32 = np.dtype(np.float32)

#: A drone state as plain sequences: position, quaternion, velocity, angular velocity.
StateTuple = tuple[Sequence[float], Sequence[float], Sequence[float], Sequence[float]]


@dataclasses.dataclass(frozen=True)
class Guidance:
    """Where a task wants a drone to be now: the oracle's target.

    Attributes:
        position: Target position (m).
        velocity: Target velocity (m/s).
        yaw: Target heading (rad).
        acceleration: Target acceleration (m/s²), a feed-forward term.
    """

    position: tuple[float, float, float]
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)
    yaw: float = 0.0
    acceleration: tuple[float, float, float] = (0.0, 0.0, 0.0)


def validate_action_type(action_type: Any) -> str:
    """Return ``action_type`` or raise ValueError."""
    if action_type not in ACTION_TYPES:
        raise ValueError(f"action_type must be one of {ACTION_TYPES}, got {action_type!r}")
    return str(action_type)


class ActionMapper:
    """Turns actions of one type into motor commands for N drones.

    Args:
        action_type: One of :data:`ACTION_TYPES`.
        model: The airframe.
        ctrl_freq: Control frequency (Hz).
        count: Number of drones.
    """

    def __init__(self, action_type: str, model: QuadModel, ctrl_freq: int, count: int) -> None:
        self.kind = validate_action_type(action_type)
        self.model = model
        self.size = ACTION_SIZES[self.kind]
        self.shape = (self.size,)
        self.space = spaces.Box(-1.0, 1.0, self.shape, np.float32)
        self.hover = model.hover_rpm
        self.above = model.max_rpm - model.hover_rpm
        # Worked out once: the model's derived constants are properties computed per read.
        self._max_thrust = model.max_thrust
        self._max_body_rate = model.max_body_rate
        # Set-point controllers, one per drone, for the actions that track a set point.
        self.controllers = [
            GeometricController(model, 1.0 / ctrl_freq)
            for _ in range(count if self.kind in ("pid", "vel") else 0)
        ]
        self.rate_loop = RateController(model)
        self.count = count

    @property
    def needs_state(self) -> bool:
        """Whether commands depend on the drones' state."""
        return self.kind in ("pid", "vel")

    def reset(self) -> None:
        """Clear the set-point controllers' integrators."""
        for controller in self.controllers:
            controller.reset()

    # -- parsing -----------------------------------------------------------------------
    def parse(self, action: Any) -> list[float]:
        """Validate one drone's action and return it clipped to [-1, 1] as floats.

        Raises:
            InvalidAction: not ``size`` finite numbers.
        """
        if (
            type(action) is _NDARRAY
            and (action.dtype is _FLOAT32 or action.dtype.kind == "f")
            and action.shape == self.shape
        ):
            values = action.tolist()
            if len(values) == 4:
                # The common case: a chained comparison is False for NaN and infinities.
                a0, a1, a2, a3 = values
                if (
                    -1.0 <= a0 <= 1.0
                    and -1.0 <= a1 <= 1.0
                    and -1.0 <= a2 <= 1.0
                    and -1.0 <= a3 <= 1.0
                ):
                    return values
            else:
                # Checked in C: a finite sum means no NaN or infinity (huge finite values
                # that overflow it only take the loop below), and then min and max are
                # well defined.
                total = sum(values)
                if total - total == 0.0 and min(values) >= -1.0 and max(values) <= 1.0:
                    return values
        else:
            not_numbers = NOT_NUMBERS.format(
                size=self.size, kind=self.kind, what=type(action).__name__
            )
            # Only plain numbers reach numpy (see is_numeric_data): no text, no mappings, no
            # objects of the agent's whose methods numpy would run.
            if not is_numeric_data(action) or np.ma.is_masked(action):
                raise InvalidAction(not_numbers)
            array = np.asarray(action)
            # Real numbers only: no strings parsed as numbers, no booleans, no complex
            # values whose imaginary part would be dropped, no objects.
            if array.dtype.kind not in "fiu":
                raise InvalidAction(
                    f"{not_numbers} (elements of dtype {array.dtype}; real numbers expected)"
                )
            if array.shape != self.shape:
                raise InvalidAction(
                    WRONG_SHAPE.format(size=self.size, kind=self.kind, shape=array.shape)
                )
            values = array.astype(np.float64).tolist()
        clipped = []
        for value in values:
            if not -math.inf < value < math.inf:
                raise InvalidAction(NOT_FINITE)
            clipped.append(-1.0 if value < -1.0 else 1.0 if value > 1.0 else float(value))
        return clipped

    def rpm_of(self, value: float) -> float:
        """Motor speed of a normalised ``rpm`` action value."""
        return (value + 1.0) * self.hover if value <= 0.0 else self.hover + self.above * value

    def normalised_of(self, rpm: float) -> float:
        """Inverse of :meth:`rpm_of`, clipped to [-1, 1]."""
        if rpm <= self.hover:
            return max(rpm / self.hover - 1.0, -1.0)
        return min((rpm - self.hover) / self.above, 1.0)

    # -- commands ----------------------------------------------------------------------
    def command(
        self, actions: Sequence[list[float] | None], state: FlightState | None
    ) -> tuple[np.ndarray | None, OnboardLoop | None]:
        """Motor commands for every drone.

        A ``None`` action (malformed, or a crashed drone) stops that drone's motors.

        Returns:
            RPM commands ``(N, 4)`` held over the control step, or an onboard loop (CTBR).
        """
        kind = self.kind
        if kind == "ctbr":
            return None, self._rate_loop(actions)
        rpm = np.zeros((self.count, 4))
        for drone, values in enumerate(actions):
            if values is None:
                continue
            if kind == "rpm":
                rpm[drone] = [self.rpm_of(v) for v in values]
            elif kind == "one_d_rpm":
                rpm[drone] = self.rpm_of(values[0])
            else:
                assert state is not None
                rpm[drone] = self._tracked(drone, values, state)
        return rpm, None

    def _tracked(self, drone: int, values: list[float], state: FlightState) -> np.ndarray:
        position = state.position[drone]
        if self.kind == "pid":
            target = position + PID_STEP * np.asarray(values)
            velocity = np.zeros(3)
        else:
            direction = np.asarray(values[:3])
            norm = norm3(direction)
            unit = direction / norm if norm > 1e-9 else np.zeros(3)
            velocity = unit * abs(values[3]) * self.model.speed_limit
            target = position
        return self.controllers[drone].compute(
            position,
            state.quaternion[drone],
            state.velocity[drone],
            state.angular_velocity[drone],
            target,
            velocity,
            target_yaw=_yaw(state.quaternion[drone]),
        )

    def ctbr_targets(self, values: Sequence[float]) -> tuple[float, tuple[float, float, float]]:
        """Collective thrust (N) and desired body rates (rad/s) of a ``ctbr`` action."""
        roll_pitch, yaw = self._max_body_rate
        thrust = 0.5 * (values[0] + 1.0) * self._max_thrust
        return thrust, (values[1] * roll_pitch, values[2] * roll_pitch, values[3] * yaw)

    def _rate_loop(self, actions: Sequence[list[float] | None]) -> OnboardLoop:
        thrust = np.zeros(self.count)
        rates = np.zeros((self.count, 3))
        active = np.zeros(self.count, dtype=bool)
        for drone, values in enumerate(actions):
            if values is not None:
                active[drone] = True
                thrust[drone], rates[drone] = self.ctbr_targets(values)
        loop = self.rate_loop

        def onboard(state: FlightState) -> np.ndarray:
            rotations = rotation_matrix(state.quaternion)
            body_rates = np.einsum("nji,nj->ni", rotations, state.angular_velocity)
            rpm = loop.motor_speeds(thrust, body_rates, rates)
            return np.where(active[:, None], rpm, 0.0)

        return onboard

    # -- the oracle's side -------------------------------------------------------------
    def oracle_action(
        self, controller: GeometricController, state: StateTuple, guidance: Guidance
    ) -> np.ndarray:
        """The action of this type that steers a drone in ``state`` towards ``guidance``."""
        position, quaternion, velocity, angular = (np.asarray(v, dtype=np.float64) for v in state)
        target = np.asarray(guidance.position, dtype=np.float64)
        target_velocity = np.asarray(guidance.velocity, dtype=np.float64)
        target_acceleration = np.asarray(guidance.acceleration, dtype=np.float64)
        kind = self.kind
        if kind == "pid":
            # The set-point controller has no velocity feed-forward: lead the target by the
            # lag its velocity gain causes.
            gains = controller.gains
            lead = target_velocity * np.asarray(gains.velocity) / np.asarray(gains.position)
            action = np.clip((target + lead - position) / PID_STEP, -1.0, 1.0)
        elif kind == "vel":
            wanted = target_velocity + ORACLE_VELOCITY_GAIN * (target - position)
            speed = norm3(wanted)
            limit = self.model.speed_limit
            action = np.zeros(4)
            if speed > 1e-9:
                action[:3] = wanted / speed
                action[3] = min(speed / limit, 1.0)
        elif kind == "ctbr":
            thrust, rates = controller.compute_ctbr(
                position,
                quaternion,
                velocity,
                target,
                target_velocity,
                guidance.yaw,
                target_acceleration,
            )
            rate_limit = np.array([self.model.max_body_rate[0]] * 2 + [self.model.max_body_rate[1]])
            action = np.concatenate(
                [[2.0 * thrust / self.model.max_thrust - 1.0], np.asarray(rates) / rate_limit]
            )
        else:
            if kind == "one_d_rpm":
                # Only thrust: aim straight up or down so that no tilt is asked for.
                target = np.array([position[0], position[1], target[2]])
                target_velocity = np.array([0.0, 0.0, target_velocity[2]])
                target_acceleration = np.array([0.0, 0.0, target_acceleration[2]])
            rpm = controller.compute(
                position,
                quaternion,
                velocity,
                angular,
                target,
                target_velocity,
                guidance.yaw,
                target_acceleration,
            )
            if kind == "one_d_rpm":
                rpm = np.array([math.sqrt(float(np.mean(rpm * rpm)))])
            action = np.array([self.normalised_of(float(r)) for r in rpm])
        return np.clip(action, -1.0, 1.0).astype(np.float32)


def _yaw(quaternion: Sequence[float]) -> float:
    x, y, z, w = (float(v) for v in quaternion)
    return math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
