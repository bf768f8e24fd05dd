"""Reference trajectories: minimum-jerk segments through waypoints, with holds.

Each segment from waypoint ``a`` to ``b`` follows ``a + (b − a)·s(τ)``, with
``s(τ) = 10τ³ − 15τ⁴ + 6τ⁵`` (zero velocity and acceleration at both ends) over a duration
set by the segment's length and the cruise speed; the reference then holds still at ``b``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

#: Shortest segment duration (s).
MIN_SEGMENT_TIME = 1.0
#: Peak speed of a minimum-jerk segment over its average speed.
MIN_JERK_PEAK = 1.875


class MinimumJerkPath:
    """A time-parametrised path through ``points`` (the first is the start).

    Args:
        points: ``(K + 1, 3)`` positions: the start, then K waypoints.
        speed: Peak speed on each segment (m/s).
        hold: Time spent still at each waypoint (s).
    """

    def __init__(self, points: ArrayLike, speed: float, hold: float) -> None:
        self.points = np.asarray(points, dtype=np.float64)
        if self.points.ndim != 2 or self.points.shape[1] != 3 or len(self.points) < 2:
            raise ValueError("a path needs at least two 3-D points")
        if speed <= 0 or hold < 0:
            raise ValueError("speed must be > 0 and hold >= 0")
        self.hold = float(hold)
        lengths = np.linalg.norm(np.diff(self.points, axis=0), axis=1)
        self.durations = np.maximum(MIN_JERK_PEAK * lengths / speed, MIN_SEGMENT_TIME)
        # starts[k]: when segment k begins; each segment is followed by a hold.
        self.starts = np.concatenate([[0.0], np.cumsum(self.durations + self.hold)[:-1]])
        self.arrivals = self.starts + self.durations
        self.duration = float(self.arrivals[-1] + self.hold)

    def sample(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Reference position, velocity and acceleration at time ``t`` (s)."""
        segment = int(np.searchsorted(self.starts, t, side="right")) - 1
        segment = min(max(segment, 0), len(self.durations) - 1)
        a, b = self.points[segment], self.points[segment + 1]
        duration = float(self.durations[segment])
        tau = (t - float(self.starts[segment])) / duration
        if tau >= 1.0:
            return b.copy(), np.zeros(3), np.zeros(3)
        tau = max(tau, 0.0)
        s = tau**3 * (10.0 - 15.0 * tau + 6.0 * tau * tau)
        ds = 30.0 * tau * tau * (1.0 - tau) ** 2 / duration
        dds = 60.0 * tau * (1.0 - tau) * (1.0 - 2.0 * tau) / (duration * duration)
        return a + (b - a) * s, (b - a) * ds, (b - a) * dds

    def waypoint_time(self, index: int) -> float:
        """When the reference arrives at waypoint ``index`` (0 = the first after the start)."""
        return float(self.arrivals[index])


def random_waypoints(
    rng: np.random.Generator,
    start: ArrayLike,
    count: int,
    half_width: float,
    heights: tuple[float, float],
    min_step: float,
    max_step: float,
) -> np.ndarray:
    """``count`` waypoints, each ``min_step`` to ``max_step`` from the previous, in the box.

    Directions are drawn until the next point lies in the box (``|x|, |y| ≤ half_width``,
    ``z`` in ``heights``); after 100 tries the point is clipped into the box.
    """
    points = []
    previous = np.asarray(start, dtype=np.float64)
    low = np.array([-half_width, -half_width, heights[0]])
    high = np.array([half_width, half_width, heights[1]])
    for _ in range(count):
        candidate = previous
        for _ in range(100):
            heading = rng.uniform(-math.pi, math.pi)
            climb = rng.uniform(-0.4, 0.4)
            step = rng.uniform(min_step, max_step)
            direction = np.array(
                [math.cos(heading) * math.cos(climb), math.sin(heading) * math.cos(climb),
                 math.sin(climb)]
            )  # fmt: skip
            candidate = previous + step * direction
            if np.all(candidate >= low) and np.all(candidate <= high):
                break
        candidate = np.clip(candidate, low, high)
        points.append(candidate)
        previous = candidate
    return np.array(points)
