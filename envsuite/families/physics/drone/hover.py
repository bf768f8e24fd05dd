"""DroneHover-v0: fly to a point and hold it, as gym-pybullet-drones' HoverAviary."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from envsuite.arguments import point_in, real_in
from envsuite.families.physics.drone.actions import Guidance
from envsuite.families.physics.drone.arguments import episode_length
from envsuite.families.physics.drone.drone_env import CRASH_PENALTY, DroneEnv, State, StepOutcome
from envsuite.families.physics.drone.dynamics import validate_frequencies
from envsuite.families.physics.drone.observations import DEFAULT_IMAGE_SIZE

#: Rate at which the per-step reward falls with distance (1/m).
REWARD_SHARPNESS = 4.0
#: Lowest start altitude (m).
MIN_START_HEIGHT = 0.3
#: Largest ``start_spread`` (m).
MAX_START_SPREAD = 1.0
#: Largest ``success_radius`` (m): the flight box's size.
MAX_SUCCESS_RADIUS = 4.0

# The per-step reward's pieces, bound once (the step is the hot path).
_MINUS_SHARPNESS = -REWARD_SHARPNESS
_dist, _exp = math.dist, math.exp


class DroneHoverEnv(DroneEnv):
    """Hover a quadcopter at a target point.

    Description:
        A quadcopter (Crazyflie 2.x in X or + configuration, or a 5-inch racer; see
        :mod:`~envsuite.families.physics.drone.models`) starts at rest near the target,
        offset by up to ``start_spread`` metres on each axis (never below 0.3 m) with a
        random heading, and must fly to the target and stay there. PyBullet physics at
        ``physics_freq``, one action per ``1 / ctrl_freq`` seconds. With ``one_d_rpm``
        actions the drone cannot move sideways, so it starts on the target's vertical.
        Optional domain randomisation (mass, inertia, kf, km, motor lag) and wind, both
        drawn from the env's seeded generator.

    Observation:
        ``observation_type="kin"``: the 16 kinematic values (position, quaternion, roll /
        pitch / yaw, velocity, angular velocity), then the target minus the position (3),
        then the last ``action_buffer`` actions. ``"rgb"``: the onboard camera image
        ``(height, width, 3)``; ``"kin_rgb"``: a Dict of both.

    Action:
        ``Box(-1, 1)`` of the ``action_type``: ``rpm`` (4, default), ``one_d_rpm`` (1),
        ``pid`` (3), ``vel`` (4) or ``ctbr`` (4); see
        :mod:`~envsuite.families.physics.drone.actions`. A malformed action (wrong shape or
        type, NaN) stops the motors for that control step, costs 1 reward and sets
        ``info["parse_error"]``.

    Reward:
        ``exp(−4·d)`` per step, ``d`` the distance to the target (m); −10 on the step of a
        crash. ``info["distance"]`` holds ``d``.

    Termination:
        Terminates when the drone crashes (touches the ground, tilts past 75°, or leaves
        ``|x|, |y| ≤ 2 m, z ≤ 2.5 m``). Truncates after ``episode_len_sec``; then
        ``info["success"]`` is True when the drone has been within ``success_radius`` of
        the target for the last ``hold_sec`` seconds. The last info also holds ``score``
        (the mean per-step reward over the whole episode length, in [0, 1]),
        ``final_distance`` and ``crash`` (the reason, or None).

    Arguments:
        drone_model: ``"cf2x"``, ``"cf2p"`` or ``"racer"``.
        physics: ``"pyb"``, ``"dyn"``, ``"pyb_gnd"``, ``"pyb_drag"``, ``"pyb_dw"``,
            ``"pyb_gnd_drag_dw"`` (or another engine + effects combination).
        physics_freq: Physics steps per second (a multiple of ``ctrl_freq``).
        ctrl_freq: Actions per second.
        action_type: ``"rpm"``, ``"one_d_rpm"``, ``"pid"``, ``"vel"`` or ``"ctbr"``.
        observation_type: ``"kin"``, ``"rgb"`` or ``"kin_rgb"``.
        action_buffer: Number of past actions appended to ``kin`` observations, an int
            in [0, 100].
        image_size: Onboard camera ``(width, height)``, ints in [8, 1024].
        episode_len_sec: Episode length, in [1 / ctrl_freq, 3600] s.
        target: The point to hover at (m): three numbers with ``|x|, |y| ≤ 2`` and
            ``0.3 ≤ z ≤ 2.5``.
        start_spread: Largest start offset from the target per axis, in [0, 1] m.
        success_radius: Distance counted as on target, in (0, 4] m.
        hold_sec: How long the drone must stay on target at the end, in
            (0, ``episode_len_sec``] s.
        domain_randomization: None/False, True (default spreads) or a mapping of
            ``mass``, ``inertia``, ``kf``, ``km`` (relative spreads in [0, 1)),
            ``motor_lag`` (in [0, 1] s).
        wind: None/False, True (default wind) or a mapping of ``max_speed`` (in
            [0, 30] m/s), ``gust_std`` (in [0, 10] m/s) and ``gust_time`` (in (0, 60] s).
        render_mode: ``"rgb_array"`` (a chase camera) or None.

    Version history:
        v0: Initial version.
    """

    task_size = 3
    record_curves = ("distance",)
    record_metrics = ("final_distance",)

    def __init__(
        self,
        drone_model: str = "cf2x",
        physics: str = "pyb",
        physics_freq: int = 240,
        ctrl_freq: int = 30,
        action_type: str = "rpm",
        observation_type: str = "kin",
        action_buffer: int = 0,
        image_size: Sequence[int] = DEFAULT_IMAGE_SIZE,
        episode_len_sec: float = 8.0,
        target: Sequence[float] = (0.0, 0.0, 1.0),
        start_spread: float = 0.5,
        success_radius: float = 0.05,
        hold_sec: float = 1.0,
        domain_randomization: Any = None,
        wind: Any = None,
        render_mode: str | None = None,
    ) -> None:
        # The task's arguments first: a refused env opens no PyBullet world.
        validate_frequencies(physics_freq, ctrl_freq)
        length = episode_length(episode_len_sec, int(ctrl_freq))
        low = (-self.half_width, -self.half_width, MIN_START_HEIGHT)
        high = (self.half_width, self.half_width, self.ceiling)
        tx, ty, tz = point_in("target", target, low, high)
        spread = real_in("start_spread", start_spread, 0.0, MAX_START_SPREAD, unit="m")
        radius = real_in(
            "success_radius", success_radius, 0.0, MAX_SUCCESS_RADIUS, low_open=True, unit="m"
        )
        hold = real_in(
            "hold_sec", hold_sec, 0.0, length, low_open=True, unit="s (at most episode_len_sec)"
        )
        super().__init__(
            drone_model=drone_model,
            physics=physics,
            physics_freq=physics_freq,
            ctrl_freq=ctrl_freq,
            action_type=action_type,
            observation_type=observation_type,
            action_buffer=action_buffer,
            image_size=image_size,
            episode_len_sec=episode_len_sec,
            domain_randomization=domain_randomization,
            wind=wind,
            render_mode=render_mode,
        )
        self.target = (tx, ty, tz)
        self.start_spread = spread
        self.success_radius = radius
        self.hold_steps = max(1, round(hold * self.ctrl_freq))
        self.start_yaw = 0.0
        self.on_target_streak = 0
        self.reward_sum = 0.0

    def task_reset(self) -> tuple[Sequence[float], float]:
        """Start near the target with a random heading."""
        # One draw for the offset and the heading (resets are frequent, draws are not free).
        ux, uy, uz, uyaw = self.np_random.random(4).tolist()
        spread = self.start_spread
        dx, dy, dz = spread * (2.0 * ux - 1.0), spread * (2.0 * uy - 1.0), spread * (2.0 * uz - 1.0)
        if self.actions.kind == "one_d_rpm":
            dx = dy = 0.0
        tx, ty, tz = self.target
        position = (tx + dx, ty + dy, max(tz + dz, MIN_START_HEIGHT))
        self.start_yaw = math.pi * (2.0 * uyaw - 1.0)
        self.on_target_streak = 0
        self.reward_sum = 0.0
        return position, self.start_yaw

    def task_info(self) -> dict[str, Any]:
        """The target and the starting distance."""
        return {"target": list(self.target)}

    def task_features(self, state: State) -> Sequence[float]:
        """Target minus position."""
        x, y, z = state[0]
        tx, ty, tz = self.target
        return (tx - x, ty - y, tz - z)

    def task_step(self, state: State) -> StepOutcome:
        """Reward by distance; crash, or truncate at the time limit."""
        position = state[0]
        distance = _dist(self.target, position)
        info: dict[str, Any] = {"distance": distance}
        self.crash = crash = self._crash_rule.reason(position, state[1])  # self.crashed, inlined
        if crash is not None:
            info.update(self._final(distance, success=False))
            return CRASH_PENALTY, True, False, info
        reward = _exp(_MINUS_SHARPNESS * distance)  # exp(-4 d), the same float
        self.reward_sum += reward
        self.on_target_streak = self.on_target_streak + 1 if distance <= self.success_radius else 0
        if self.steps >= self.episode_steps:
            info.update(self._final(distance, success=self.on_target_streak >= self.hold_steps))
            return reward, False, True, info
        return reward, False, False, info

    def _final(self, distance: float, success: bool) -> dict[str, Any]:
        return {
            "success": bool(success),
            "score": min(max(self.reward_sum / self.episode_steps, 0.0), 1.0),
            "final_distance": distance,
            "crash": self.crash,
        }

    def guidance(self, drone: int = 0) -> Guidance:
        """Hold the target, keeping the starting heading."""
        return Guidance(self.target, yaw=self.start_yaw)
