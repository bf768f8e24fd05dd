"""Constructor arguments of the drone envs: every bad value is a ValueError naming it."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import envsuite

HOVER = "envsuite/DroneHover-v0"
WAYPOINTS = "envsuite/DroneWaypoints-v0"
GATE = "envsuite/DroneGate-v0"
SWARM = "envsuite/DroneSwarm-v0"


BAD_ARGUMENTS = [
    (HOVER, "target", None),
    (HOVER, "target", "abc"),
    (HOVER, "target", (0.0, 0.0)),
    (HOVER, "target", (5.0, 0.0, 1.0)),
    (HOVER, "start_spread", "0.5"),
    (HOVER, "start_spread", None),
    (HOVER, "success_radius", None),
    (HOVER, "success_radius", math.inf),
    (HOVER, "hold_sec", "1"),
    (HOVER, "hold_sec", None),
    (HOVER, "hold_sec", 9.0),
    (HOVER, "action_buffer", 10**6),
    (HOVER, "action_buffer", 2.0),
    (HOVER, "episode_len_sec", True),
    (HOVER, "episode_len_sec", 0.001),
    (HOVER, "episode_len_sec", math.nan),
    (HOVER, "image_size", (32.5, 24)),
    (HOVER, "wind", {"gust_std": True}),
    (HOVER, "wind", {"max_speed": 1e9}),
    (HOVER, "wind", {"gust_time": 0}),
    (HOVER, "domain_randomization", {"motor_lag": 1e9}),
    (HOVER, "domain_randomization", {"mass": 1.0}),
    (WAYPOINTS, "waypoint_radius", None),
    (WAYPOINTS, "hold_sec", None),
    (WAYPOINTS, "speed", 1e-9),
    (WAYPOINTS, "speed", "2"),
    (WAYPOINTS, "num_waypoints", 3.0),
    (WAYPOINTS, "max_mean_error", math.inf),
    (GATE, "gate_opening", "0.5"),
    (GATE, "gate_opening", 2.0),
    (GATE, "num_gates", 11),
    (GATE, "num_gates", True),
    (GATE, "episode_len_sec", "12"),
    (SWARM, "success_radius", None),
    (SWARM, "hold_sec", None),
    (SWARM, "hold_sec", "1"),
    (SWARM, "spacing", "0.4"),
    (SWARM, "num_neighbours", -1),
    (SWARM, "num_drones", 3.0),
    (SWARM, "leader_speed", 0.0),
    (SWARM, "action_buffer", 1000),
    (SWARM, "episode_len_sec", 0.001),
]


@pytest.mark.parametrize(("env_id", "name", "value"), BAD_ARGUMENTS)
def test_bad_arguments_raise_value_errors_naming_them(env_id: str, name: str, value: Any) -> None:
    with pytest.raises(ValueError) as caught:
        envsuite.make(env_id, **{name: value})
    message = str(caught.value)
    # A wind or randomisation setting is named by its key.
    named = next(iter(value)) if isinstance(value, dict) else name
    assert named in message, message
    assert repr(value if not isinstance(value, dict) else next(iter(value.values()))) in message


def test_a_too_short_episode_names_episode_len_sec() -> None:
    with pytest.raises(ValueError, match="episode_len_sec must be at least one control step"):
        envsuite.make(HOVER, episode_len_sec=0.001)


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        (WAYPOINTS, {"num_waypoints": np.int64(2)}),
        (GATE, {"num_gates": np.int64(2), "gate_opening": np.float32(0.6)}),
        (SWARM, {"num_drones": np.int64(2), "num_neighbours": np.int64(1)}),
        (HOVER, {"physics_freq": np.int64(240), "action_buffer": np.int64(2)}),
        (HOVER, {"target": np.array([0.5, -0.5, 1.2]), "hold_sec": np.float64(0.5)}),
    ],
)
def test_numpy_numbers_are_accepted(env_id: str, kwargs: dict[str, Any]) -> None:
    env = envsuite.make(env_id, **kwargs)
    env.reset(seed=0)
    env.close()


def test_num_neighbours_above_the_others_means_all_of_them() -> None:
    env = envsuite.make(SWARM, num_drones=3, num_neighbours=10)
    assert env.unwrapped.neighbours == 2
    env.close()
