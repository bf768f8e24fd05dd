"""DroneWaypoints-v0: the oracle tracks the reference and reaches every waypoint."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite

from .flights import fly_oracle

WAYPOINTS = "envsuite/DroneWaypoints-v0"


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"action_type": "ctbr", "physics": "pyb_drag"}, {"drone_model": "racer", "speed": 2.0}],
    ids=["default", "ctbr", "racer"],
)
def test_oracle_tracks_the_trajectory_and_reaches_every_waypoint(kwargs):
    env = envsuite.make(WAYPOINTS, **kwargs)
    for seed in range(3):
        info, _ = fly_oracle(env, seed)
        assert info["success"], info
        assert info["waypoints_reached"] == 4
        assert info["mean_tracking_error"] < 0.1


def test_waypoints_come_from_the_seed_and_the_episode_ends_with_the_reference():
    env = envsuite.make(WAYPOINTS, num_waypoints=3)
    _, first = env.reset(seed=1)
    _, again = env.reset(seed=1)
    _, other = env.reset(seed=2)
    assert first["waypoints"] == again["waypoints"] != other["waypoints"]
    raw = env.unwrapped
    assert raw.episode_steps == int(np.ceil((other["reference_duration"] + 0.5) * 30))
    _, steps = fly_oracle(env, 1)
    assert steps == raw.episode_steps


def test_hovering_in_place_misses_the_waypoints():
    env = envsuite.make(WAYPOINTS, num_waypoints=2)
    env.reset(seed=0)
    while True:
        *_, terminated, truncated, info = env.step(np.zeros(4, dtype=np.float32))
        if terminated or truncated:
            break
    assert info["success"] is False and info["waypoints_reached"] < 2


def test_one_d_actions_get_vertical_waypoints():
    env = envsuite.make(WAYPOINTS, action_type="one_d_rpm")
    _, info = env.reset(seed=0)
    points = np.asarray(info["waypoints"])
    assert np.allclose(points[:, :2], points[0, :2])
    info, _ = fly_oracle(env, 0)
    assert info["success"]
