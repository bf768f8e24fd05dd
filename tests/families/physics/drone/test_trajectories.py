"""Reference paths: minimum-jerk segments with holds; random waypoints in their box."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.physics.drone.trajectories import MinimumJerkPath, random_waypoints
from envsuite.seeding import make_generator


def test_path_starts_and_stops_at_rest_on_its_points():
    points = [[0.0, 0.0, 1.0], [1.0, 0.5, 1.2], [0.0, 1.0, 0.8]]
    path = MinimumJerkPath(points, speed=0.8, hold=0.5)
    position, velocity, acceleration = path.sample(0.0)
    assert position == pytest.approx(points[0]) and not velocity.any()
    assert acceleration == pytest.approx(np.zeros(3))
    for index in range(2):
        arrival = path.waypoint_time(index)
        for t in (arrival, arrival + 0.25):
            position, velocity, _acceleration = path.sample(t)
            assert position == pytest.approx(points[index + 1])
            assert velocity == pytest.approx(np.zeros(3), abs=1e-9)
    assert path.sample(path.duration + 5.0)[0] == pytest.approx(points[-1])


def test_peak_speed_is_the_requested_one_and_derivatives_agree():
    path = MinimumJerkPath([[0.0, 0.0, 1.0], [3.0, 0.0, 1.0]], speed=1.0, hold=0.0)
    times = np.linspace(0.0, path.duration, 2001)
    samples = [path.sample(t) for t in times]
    speeds = [np.linalg.norm(v) for _, v, _ in samples]
    assert max(speeds) == pytest.approx(1.0, rel=1e-3)
    positions = np.array([s[0] for s in samples])
    numeric = np.gradient(positions[:, 0], times)
    assert numeric[5:-5] == pytest.approx([s[1][0] for s in samples][5:-5], abs=1e-3)


def test_random_waypoints_stay_in_their_box_and_step_range():
    rng = make_generator(0, "waypoints")
    start = np.array([0.0, 0.0, 1.0])
    points = random_waypoints(rng, start, 50, 1.5, (0.5, 1.8), 0.6, 1.2)
    assert np.all(np.abs(points[:, :2]) <= 1.5)
    assert np.all((points[:, 2] >= 0.5) & (points[:, 2] <= 1.8))
    steps = np.linalg.norm(np.diff(np.vstack([start, points]), axis=0), axis=1)
    assert np.all(steps <= 1.2 + 1e-9)
    assert np.mean(steps >= 0.6 - 1e-9) > 0.9  # only clipped fallbacks may be shorter
