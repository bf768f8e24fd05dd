"""DroneWaypoints-v0: track a minimum-jerk reference trajectory through random waypoints."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.arguments import integer_in, real_in
from envsuite.families.physics.drone.actions import Guidance
from envsuite.families.physics.drone.drone_env import CRASH_PENALTY, DroneEnv, State, StepOutcome
from envsuite.families.physics.drone.models import get_model
from envsuite.families.physics.drone.observations import DEFAULT_IMAGE_SIZE
from envsuite.families.physics.drone.trajectories import MinimumJerkPath, random_waypoints
from envsuite.families.physics.drone.vector_math import distance3

#: Rate at which the per-step reward falls with the tracking error (1/m).
REWARD_SHARPNESS = 4.0
#: How far ahead the oracle takes the reference acceleration (s): about the lag of the
#: controller's attitude loop.
ACCELERATION_LEAD = 0.15
#: Time the episode runs on after the reference's last hold (s).
SETTLE_TIME = 0.5
#: Placeholder length handed to the base class; each episode sets its own.
_LONGEST_EPISODE_SEC = 3600.0
#: Most waypoints per episode.
MAX_WAYPOINTS = 20
#: Bounds of ``speed`` (m/s): slower references would take hours.
MIN_SPEED, MAX_SPEED = 0.05, 20.0
#: Longest ``hold_sec`` (s).
MAX_HOLD_SEC = 10.0
#: Largest ``waypoint_radius`` and ``max_mean_error`` (m): the flight box's size.
MAX_RADIUS = 4.0


class DroneWaypointsEnv(DroneEnv):
    """Track a reference trajectory through randomly drawn waypoints.

    Description:
        Each episode draws a start point near (0, 0, 1) m and ``num_waypoints`` waypoints,
        each 0.6–1.2 m from the previous one, inside ``|x|, |y| ≤ 1.5 m``,
        ``0.5 m ≤ z ≤ 1.8 m``. The reference moves from point to point along
        minimum-jerk segments (peak speed ``speed``) and holds ``hold_sec`` at each
        waypoint. The drone starts at rest at the start point and must follow the
        reference and pass within ``waypoint_radius`` of every waypoint, in order. With
        ``one_d_rpm`` actions the waypoints lie on the start's vertical.

    Observation:
        ``kin``: the 16 kinematic values, then the reference position minus the position
        (3), the reference velocity (3), and the next waypoint not yet reached minus the
        position (3); then the last ``action_buffer`` actions. ``rgb`` / ``kin_rgb`` as in
        DroneHover-v0.

    Action:
        As DroneHover-v0 (``rpm``, ``one_d_rpm``, ``pid``, ``vel`` or ``ctbr``); a
        malformed action stops the motors for the step, costs 1 reward and sets
        ``info["parse_error"]``.

    Reward:
        ``exp(−4·e)`` per step, ``e`` the distance to the reference position (m); −10 on
        the step of a crash. ``info`` holds ``tracking_error`` and ``waypoints_reached``.

    Termination:
        Terminates when the reference has finished (its last hold plus 0.5 s) or the drone
        crashes (ground, tilt past 75°, or leaving ``|x|, |y| ≤ 2 m, z ≤ 2.5 m``). Then
        ``info["success"]`` is True when every waypoint was reached and the mean tracking
        error stayed below ``max_mean_error``; ``score`` is the mean per-step reward over
        the reference's length, in [0, 1]; ``mean_tracking_error`` and ``crash`` are set.

    Arguments:
        drone_model: ``"cf2x"``, ``"cf2p"`` or ``"racer"``.
        physics: A physics mode (see DroneHover-v0).
        physics_freq: Physics steps per second (a multiple of ``ctrl_freq``).
        ctrl_freq: Actions per second.
        action_type: ``"rpm"``, ``"one_d_rpm"``, ``"pid"``, ``"vel"`` or ``"ctbr"``.
        observation_type: ``"kin"``, ``"rgb"`` or ``"kin_rgb"``.
        action_buffer: Number of past actions appended to ``kin`` observations, an int
            in [0, 100].
        image_size: Onboard camera ``(width, height)``, ints in [8, 1024].
        num_waypoints: Waypoints per episode, an int in [1, 20].
        speed: Peak reference speed, in [0.05, 20] m/s; None uses the model's speed
            limit.
        hold_sec: Time the reference holds at each waypoint, in [0, 10] s.
        waypoint_radius: Distance at which a waypoint counts as reached, in (0, 4] m.
        max_mean_error: Largest mean tracking error of a successful episode, in
            (0, 4] m.
        domain_randomization: As DroneHover-v0.
        wind: As DroneHover-v0.
        render_mode: ``"rgb_array"`` (a chase camera) or None.

    Version history:
        v0: Initial version.
    """

    task_size = 9
    record_curves = ("tracking_error",)
    record_metrics = ("mean_tracking_error", "waypoints_reached")

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
        num_waypoints: int = 4,
        speed: float | None = None,
        hold_sec: float = 0.5,
        waypoint_radius: float = 0.1,
        max_mean_error: float = 0.15,
        domain_randomization: Any = None,
        wind: Any = None,
        render_mode: str | None = None,
    ) -> None:
        # The task's arguments first: a refused env opens no PyBullet world.
        self.num_waypoints = integer_in("num_waypoints", num_waypoints, 1, MAX_WAYPOINTS)
        self.speed = (
            get_model(drone_model).speed_limit
            if speed is None
            else real_in("speed", speed, MIN_SPEED, MAX_SPEED, unit="m/s")
        )
        self.hold_sec = real_in("hold_sec", hold_sec, 0.0, MAX_HOLD_SEC, unit="s")
        self.waypoint_radius = real_in(
            "waypoint_radius", waypoint_radius, 0.0, MAX_RADIUS, low_open=True, unit="m"
        )
        self.max_mean_error = real_in(
            "max_mean_error", max_mean_error, 0.0, MAX_RADIUS, low_open=True, unit="m"
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
            episode_len_sec=_LONGEST_EPISODE_SEC,
            domain_randomization=domain_randomization,
            wind=wind,
            render_mode=render_mode,
        )
        self.path = MinimumJerkPath([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0]], self.speed, self.hold_sec)
        self.waypoints = np.zeros((self.num_waypoints, 3))
        self.reached = 0
        self.error_sum = 0.0
        self.reward_sum = 0.0
        self.start_yaw = 0.0

    def task_reset(self) -> tuple[np.ndarray, float]:
        """Draw the start, the waypoints and the reference through them."""
        rng = self.np_random
        start = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.8, 1.2)])
        self.waypoints = random_waypoints(rng, start, self.num_waypoints, 1.5, (0.5, 1.8), 0.6, 1.2)
        if self.actions.kind == "one_d_rpm":
            # Thrust alone cannot move the drone sideways: the waypoints stack vertically.
            self.waypoints[:, :2] = start[:2]
        self.path = MinimumJerkPath(np.vstack([start, self.waypoints]), self.speed, self.hold_sec)
        self.episode_steps = max(1, math.ceil((self.path.duration + SETTLE_TIME) * self.ctrl_freq))
        self.start_yaw = float(rng.uniform(-math.pi, math.pi))
        self.reached = 0
        self.error_sum = 0.0
        self.reward_sum = 0.0
        return start, self.start_yaw

    def task_info(self) -> dict[str, Any]:
        """The waypoints and the reference's duration."""
        return {
            "waypoints": self.waypoints.tolist(),
            "reference_duration": self.path.duration,
        }

    def _reference(self, steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.path.sample(steps / self.ctrl_freq)

    def task_features(self, state: State) -> Sequence[float]:
        """Reference minus position, reference velocity, next waypoint minus position."""
        position = np.asarray(state[0])
        reference, velocity, _ = self._reference(self.steps)
        waypoint = self.waypoints[min(self.reached, self.num_waypoints - 1)]
        return (*(reference - position), *velocity, *(waypoint - position))

    def task_step(self, state: State) -> StepOutcome:
        """Reward by tracking error; count waypoints; end with the reference or a crash."""
        position = np.asarray(state[0])
        reference, _, _ = self._reference(self.steps)
        error = distance3(reference, position)
        self.error_sum += error
        if self.reached < self.num_waypoints:
            waypoint = self.waypoints[self.reached]
            if distance3(waypoint, position) <= self.waypoint_radius:
                self.reached += 1
        info: dict[str, Any] = {"tracking_error": error, "waypoints_reached": self.reached}
        if self.crashed(state) is not None:
            info.update(self._final(success=False))
            return CRASH_PENALTY, True, False, info
        reward = math.exp(-REWARD_SHARPNESS * error)
        self.reward_sum += reward
        if self.steps >= self.episode_steps:
            mean_error = self.error_sum / self.steps
            success = self.reached == self.num_waypoints and mean_error <= self.max_mean_error
            info.update(self._final(success=success))
            return reward, True, False, info
        return reward, False, False, info

    def _final(self, success: bool) -> dict[str, Any]:
        return {
            "success": bool(success),
            "score": min(max(self.reward_sum / self.episode_steps, 0.0), 1.0),
            "mean_tracking_error": self.error_sum / max(self.steps, 1),
            "crash": self.crash,
        }

    def guidance(self, drone: int = 0) -> Guidance:
        """The reference one control step ahead.

        Its acceleration is taken :data:`ACCELERATION_LEAD` later still, since tilting the
        drone to produce an acceleration lags.
        """
        position, velocity, _ = self._reference(self.steps + 1)
        _, _, acceleration = self._reference(
            self.steps + 1 + round(ACCELERATION_LEAD * self.ctrl_freq)
        )
        return Guidance(
            (float(position[0]), float(position[1]), float(position[2])),
            (float(velocity[0]), float(velocity[1]), float(velocity[2])),
            self.start_yaw,
            (float(acceleration[0]), float(acceleration[1]), float(acceleration[2])),
        )
