"""The hover, waypoint and gate tasks for N drones at once, as the batched vector env runs them.

Each class keeps one task's per-episode state as arrays over envs and mirrors its single
env: :meth:`BatchTask.draw` draws one env's episode from that env's generator with exactly
the draws of the single env's ``task_reset`` (resets are rare, so this is per env);
:meth:`BatchTask.features` and :meth:`BatchTask.evaluate` are the single env's
``task_features`` and ``task_step`` for every env at once. The single envs
(:mod:`~envsuite.families.physics.drone.hover`,
:mod:`~envsuite.families.physics.drone.waypoints`,
:mod:`~envsuite.families.physics.drone.gate`) document the rules; the tests hold the two
forms to the same numbers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from envsuite.families.physics.drone import gate, hover, waypoints
from envsuite.families.physics.drone.crashes import GATE_FRAME
from envsuite.families.physics.drone.drone_env import CRASH_PENALTY, DroneEnv
from envsuite.families.physics.drone.trajectories import MinimumJerkPath, random_waypoints

#: Crash codes of :func:`crash_codes` and the reasons they stand for (``info["crash"]``).
CRASH_REASONS = (None, "ground", "tilt", "out_of_bounds", GATE_FRAME)
FRAME_CODE = 4

Arrays = dict[str, np.ndarray]
#: What :meth:`BatchTask.evaluate` gives: rewards, terminated, truncated, the step's info
#: arrays (every env), the final info arrays (meaningful where ``ended``), and ``ended``.
Evaluation = tuple[np.ndarray, np.ndarray, np.ndarray, Arrays, Arrays, np.ndarray]


def _norm(vectors: np.ndarray) -> np.ndarray:
    """Lengths of 3-vectors ``(3, N)``."""
    return np.sqrt(vectors[0] * vectors[0] + vectors[1] * vectors[1] + vectors[2] * vectors[2])


def _score(total: np.ndarray, steps: Any) -> np.ndarray:
    return np.minimum(np.maximum(total / steps, 0.0), 1.0)


class BatchTask:
    """One task's state for ``count`` envs; subclasses fill in the hooks.

    Args:
        template: A single env of the task with the vector env's arguments (its settings
            are read, never stepped).
        count: Number of envs.
    """

    task_size = 0

    def __init__(self, template: DroneEnv, count: int) -> None:
        self.template = template
        self.count = count
        self.episode_steps = np.full(count, template.episode_steps, dtype=np.int64)
        self.start_yaw = np.zeros(count)

    def draw(self, env: int, rng: np.random.Generator) -> tuple[tuple[float, float, float], float]:
        """Draw env ``env``'s episode; return the start position and yaw."""
        raise NotImplementedError

    def reset_info(self, env: int) -> dict[str, Any]:
        """The task's keys of env ``env``'s reset info."""
        raise NotImplementedError

    def features(self, position: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The task's part of the ``kin`` observations, ``(task_size, N)``."""
        raise NotImplementedError

    def evaluate(self, position: np.ndarray, crash: np.ndarray, steps: np.ndarray) -> Evaluation:
        """Rewards, ends and infos after a control step (``crash``: codes, updated here)."""
        raise NotImplementedError


class HoverTask(BatchTask):
    """DroneHover-v0's task (:class:`~envsuite.families.physics.drone.hover.DroneHoverEnv`)."""

    task_size = 3
    template: hover.DroneHoverEnv

    def __init__(self, template: hover.DroneHoverEnv, count: int) -> None:
        super().__init__(template, count)
        self.target = np.array(template.target, dtype=np.float64)
        self._target = self.target[:, None]
        self.streak = np.zeros(count, dtype=np.int64)
        self.reward_sum = np.zeros(count)
        self.one_d = template.actions.kind == "one_d_rpm"

    def draw(self, env: int, rng: np.random.Generator) -> tuple[tuple[float, float, float], float]:
        """Draw env ``env``'s episode as the single env's ``task_reset`` does."""
        ux, uy, uz, uyaw = rng.random(4).tolist()
        spread = self.template.start_spread
        dx, dy, dz = spread * (2.0 * ux - 1.0), spread * (2.0 * uy - 1.0), spread * (2.0 * uz - 1.0)
        if self.one_d:
            dx = dy = 0.0
        tx, ty, tz = self.template.target
        self.start_yaw[env] = yaw = math.pi * (2.0 * uyaw - 1.0)
        self.streak[env] = 0
        self.reward_sum[env] = 0.0
        return (tx + dx, ty + dy, max(tz + dz, hover.MIN_START_HEIGHT)), yaw

    def reset_info(self, env: int) -> dict[str, Any]:
        """The single env's ``task_info`` for env ``env``."""
        return {"target": list(self.template.target)}

    def features(self, position: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The single env's ``task_features`` for every env."""
        return self._target - position

    def evaluate(self, position: np.ndarray, crash: np.ndarray, steps: np.ndarray) -> Evaluation:
        """The single env's ``task_step`` for every env."""
        distance = _norm(self._target - position)
        crashed = crash != 0
        flying = ~crashed
        reward = np.exp(-hover.REWARD_SHARPNESS * distance)
        reward[crashed] = CRASH_PENALTY
        np.add(self.reward_sum, reward, out=self.reward_sum, where=flying)
        on_target = distance <= self.template.success_radius
        self.streak += 1
        self.streak[~on_target] = 0
        truncated = flying & (steps >= self.episode_steps)
        ended = crashed | truncated
        finals: Arrays = {}
        if ended.any():
            finals = {
                "success": truncated & (self.streak >= self.template.hold_steps),
                "score": _score(self.reward_sum, self.episode_steps),
                "final_distance": distance,
            }
        return reward, crashed, truncated, {"distance": distance}, finals, ended


class WaypointsTask(BatchTask):
    """DroneWaypoints-v0's task (see :mod:`~envsuite.families.physics.drone.waypoints`)."""

    task_size = 9
    template: waypoints.DroneWaypointsEnv

    def __init__(self, template: waypoints.DroneWaypointsEnv, count: int) -> None:
        super().__init__(template, count)
        k = template.num_waypoints
        self.k = k
        self.ctrl_freq = template.ctrl_freq
        self.waypoints = np.zeros((count, k, 3))
        self.points = np.zeros((count, k + 1, 3))
        self.durations = np.ones((count, k))
        self.starts = np.zeros((count, k))
        self.durations_total = np.zeros(count)
        self.reached = np.zeros(count, dtype=np.int64)
        self.error_sum = np.zeros(count)
        self.reward_sum = np.zeros(count)
        self.one_d = template.actions.kind == "one_d_rpm"
        self._rows = np.arange(count)

    def draw(self, env: int, rng: np.random.Generator) -> tuple[tuple[float, float, float], float]:
        """Draw env ``env``'s episode as the single env's ``task_reset`` does."""
        t = self.template
        start = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.8, 1.2)])
        points = random_waypoints(rng, start, self.k, 1.5, (0.5, 1.8), 0.6, 1.2)
        if self.one_d:
            points[:, :2] = start[:2]
        path = MinimumJerkPath(np.vstack([start, points]), t.speed, t.hold_sec)
        self.waypoints[env] = points
        self.points[env] = path.points
        self.durations[env] = path.durations
        self.starts[env] = path.starts
        self.durations_total[env] = path.duration
        self.episode_steps[env] = max(
            1, math.ceil((path.duration + waypoints.SETTLE_TIME) * self.ctrl_freq)
        )
        self.start_yaw[env] = yaw = float(rng.uniform(-math.pi, math.pi))
        self.reached[env] = 0
        self.error_sum[env] = 0.0
        self.reward_sum[env] = 0.0
        return (float(start[0]), float(start[1]), float(start[2])), yaw

    def reset_info(self, env: int) -> dict[str, Any]:
        """The single env's ``task_info`` for env ``env``."""
        return {
            "waypoints": self.waypoints[env].tolist(),
            "reference_duration": float(self.durations_total[env]),
        }

    def reference(self, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Reference positions and velocities ``(3, N)`` at ``steps``, as ``MinimumJerkPath``."""
        t = steps / self.ctrl_freq
        segment = np.count_nonzero(self.starts <= t[:, None], axis=1) - 1
        np.clip(segment, 0, self.k - 1, out=segment)
        rows = self._rows
        a = self.points[rows, segment]
        b = self.points[rows, segment + 1]
        duration = self.durations[rows, segment]
        tau = (t - self.starts[rows, segment]) / duration
        done = tau >= 1.0
        tau = np.maximum(tau, 0.0)
        s = tau**3 * (10.0 - 15.0 * tau + 6.0 * tau * tau)
        ds = 30.0 * tau * tau * (1.0 - tau) ** 2 / duration
        delta = b - a
        position = a + delta * s[:, None]
        velocity = delta * ds[:, None]
        position[done] = b[done]
        velocity[done] = 0.0
        return position.T, velocity.T

    def features(self, position: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The single env's ``task_features`` for every env."""
        reference, velocity = self.reference(steps)
        index = np.minimum(self.reached, self.k - 1)
        waypoint = self.waypoints[self._rows, index].T
        return np.concatenate([reference - position, velocity, waypoint - position])

    def evaluate(self, position: np.ndarray, crash: np.ndarray, steps: np.ndarray) -> Evaluation:
        """The single env's ``task_step`` for every env."""
        reference, _ = self.reference(steps)
        error = _norm(reference - position)
        self.error_sum += error
        index = np.minimum(self.reached, self.k - 1)
        near = _norm(self.waypoints[self._rows, index].T - position)
        self.reached += (self.reached < self.k) & (near <= self.template.waypoint_radius)
        crashed = crash != 0
        flying = ~crashed
        reward = np.exp(-waypoints.REWARD_SHARPNESS * error)
        reward[crashed] = CRASH_PENALTY
        np.add(self.reward_sum, reward, out=self.reward_sum, where=flying)
        finished = flying & (steps >= self.episode_steps)
        terminated = crashed | finished
        info = {"tracking_error": error, "waypoints_reached": self.reached.copy()}
        finals: Arrays = {}
        if terminated.any():
            mean_error = self.error_sum / np.maximum(steps, 1)
            finals = {
                "success": finished
                & (self.reached == self.k)
                & (mean_error <= self.template.max_mean_error),
                "score": _score(self.reward_sum, self.episode_steps),
                "mean_tracking_error": mean_error,
            }
        return reward, terminated, np.zeros(self.count, dtype=bool), info, finals, terminated


class GateTask(BatchTask):
    """DroneGate-v0's task (:class:`~envsuite.families.physics.drone.gate.DroneGateEnv`)."""

    task_size = 10
    template: gate.DroneGateEnv

    def __init__(self, template: gate.DroneGateEnv, count: int) -> None:
        super().__init__(template, count)
        g = template.num_gates
        self.g = g
        self.centres = np.zeros((count, g, 3))
        self.headings = np.zeros((count, g))
        self.normals = np.zeros((count, g, 3))
        self.passed = np.zeros(count, dtype=np.int64)
        self.previous_position = np.zeros((3, count))
        self.previous_distance = np.zeros(count)
        radius = template.model.collision_radius
        self.inner = 0.5 * template.gate_opening - radius
        self.outer = 0.5 * template.gate_opening + gate.GATE_BAR + radius
        self._rows = np.arange(count)

    def draw(self, env: int, rng: np.random.Generator) -> tuple[tuple[float, float, float], float]:
        """Draw env ``env``'s episode as the single env's ``task_reset`` does."""
        start = np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.uniform(0.9, 1.1)])
        centres, headings = gate.draw_course(rng, start, self.g, self.template.half_width)
        self.centres[env] = centres
        self.headings[env] = headings
        for index, heading in enumerate(headings.tolist()):
            self.normals[env, index] = (math.cos(heading), math.sin(heading), 0.0)
        self.passed[env] = 0
        self.previous_position[:, env] = start
        self.previous_distance[env] = float(np.linalg.norm(self.centres[env, 0] - start))
        self.start_yaw[env] = yaw = float(headings[0])
        return (float(start[0]), float(start[1]), float(start[2])), yaw

    def reset_info(self, env: int) -> dict[str, Any]:
        """The single env's ``task_info`` for env ``env``."""
        return {
            "gate_centres": self.centres[env].tolist(),
            "gate_headings": self.headings[env].tolist(),
            "gate_opening": self.template.gate_opening,
        }

    def features(self, position: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The single env's ``task_features`` for every env."""
        rows = self._rows
        index = np.minimum(self.passed, self.g - 1)
        following_index = np.minimum(index + 1, self.g - 1)
        following = self.centres[rows, following_index].T - position
        following[:, index + 1 >= self.g] = 0.0
        return np.concatenate(
            [
                self.centres[rows, index].T - position,
                self.normals[rows, index].T,
                following,
                (self.passed / self.g)[None],
            ]
        )

    def _crossings(self, gate_index: int, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which envs pass gate ``gate_index`` this step, and which hit its frame."""
        start = self.previous_position
        centre = self.centres[:, gate_index].T
        normal = self.normals[:, gate_index].T
        a = start - centre
        before = a[0] * normal[0] + a[1] * normal[1] + a[2] * normal[2]
        e = end - centre
        after = e[0] * normal[0] + e[1] * normal[1] + e[2] * normal[2]
        crossing = (before < 0.0) != (after < 0.0)
        gap = np.where(crossing, before - after, 1.0)
        point = start + (end - start) * (before / gap)
        offset = point - centre
        lateral = np.abs(offset[0] * -normal[1] + offset[1] * normal[0])
        vertical = np.abs(point[2] - centre[2])
        inside = (lateral <= self.inner) & (vertical <= self.inner)
        on_frame = (lateral <= self.outer) & (vertical <= self.outer)
        passing = crossing & inside & (before < 0.0)
        frame = crossing & ~inside & on_frame
        return passing, frame

    def evaluate(self, position: np.ndarray, crash: np.ndarray, steps: np.ndarray) -> Evaluation:
        """The single env's ``task_step`` for every env."""
        rows, g = self._rows, self.g
        reward = np.zeros(self.count)
        frame_hit = np.zeros(self.count, dtype=bool)
        for gate_index in range(g):
            passing, frame = self._crossings(gate_index, position)
            frame_hit |= frame
            passing &= self.passed == gate_index
            if passing.any():
                self.passed += passing
                reward += gate.GATE_REWARD * passing
                update = passing & (self.passed < g)
                nxt = np.minimum(self.passed, g - 1)
                distance = _norm(self.centres[rows, nxt].T - position)
                self.previous_distance[update] = distance[update]
        self.previous_position = position.copy()
        index = np.minimum(self.passed, g - 1)
        distance = _norm(self.centres[rows, index].T - position)
        going = self.passed < g
        reward += np.where(going, gate.PROGRESS_REWARD * (self.previous_distance - distance), 0.0)
        self.previous_distance[going] = distance[going]
        info = {"gates_passed": self.passed.copy(), "gate_distance": distance}
        crash[(crash == 0) & frame_hit] = FRAME_CODE
        crashed = crash != 0
        reward[crashed] = CRASH_PENALTY
        complete = ~crashed & (self.passed == g)
        truncated = ~crashed & ~complete & (steps >= self.episode_steps)
        terminated = crashed | complete
        ended = terminated | truncated
        finals: Arrays = {}
        if ended.any():
            finals = {"success": complete, "score": self.passed / g}
        return reward, terminated, truncated, info, finals, ended
