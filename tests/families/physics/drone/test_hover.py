"""DroneHover-v0: the oracle holds 5 cm; seeds, penalties, crashes and success as documented."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite
from envsuite.env_base import EPISODE_OVER
from envsuite.families.physics.drone.drone_env import CRASH_PENALTY, INVALID_ACTION_PENALTY

from .flights import fly_oracle

HOVER = "envsuite/DroneHover-v0"


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"drone_model": "cf2p", "action_type": "ctbr"},
        {"drone_model": "racer", "physics": "pyb_gnd_drag_dw"},
        {"physics": "dyn", "action_type": "pid"},
        {"action_type": "vel"},
        {"action_type": "one_d_rpm"},
    ],
    ids=lambda kwargs: ",".join(f"{k}={v}" for k, v in kwargs.items()) or "default",
)
def test_oracle_hovers_within_5_cm(kwargs):
    env = envsuite.make(HOVER, episode_len_sec=5.0, **kwargs)
    for seed in range(3):
        info, steps = fly_oracle(env, seed)
        assert steps == env.unwrapped.episode_steps
        assert info["success"] and info["final_distance"] < 0.05 and info["crash"] is None


def test_oracle_hovers_despite_randomised_dynamics_and_wind():
    env = envsuite.make(HOVER, domain_randomization=True, wind=True)
    results = [fly_oracle(env, seed)[0] for seed in range(5)]
    assert sum(info["success"] for info in results) >= 4
    assert max(info["final_distance"] for info in results) < 0.08


def test_reset_seed_is_honoured():
    env = envsuite.make(HOVER)
    first, _ = env.reset(seed=11)
    other, _ = env.reset(seed=12)
    again, _ = env.reset(seed=11)
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert envsuite.make(HOVER).reset(seed=11)[0].tobytes() == first.tobytes()


def test_malformed_action_stops_the_motors_and_costs_the_penalty():
    good = envsuite.make(HOVER)
    bad = envsuite.make(HOVER)
    good.reset(seed=0)
    bad.reset(seed=0)
    hover = np.zeros(4, dtype=np.float32)
    _, reward, _, _, info = good.step(hover)
    observation, penalised, _, _, bad_info = bad.step(np.array([0.0, np.nan, 0.0, 0.0]))
    assert info["parse_error"] is None and "NaN" in bad_info["parse_error"]
    assert bad.unwrapped.dynamics.rpm.max() == 0.0  # the motors were off
    assert observation[12] < -0.2  # falling: vertical velocity after 1/30 s of free fall
    assert penalised < reward - INVALID_ACTION_PENALTY + 0.05


def test_crash_terminates_with_the_penalty_and_no_success():
    env = envsuite.make(HOVER)
    env.reset(seed=0)
    for _ in range(200):
        _observation, reward, terminated, truncated, info = env.step(-np.ones(4, dtype=np.float32))
        if terminated or truncated:
            break
    assert terminated and not truncated
    assert reward == CRASH_PENALTY and info["crash"] == "ground" and info["success"] is False
    again = env.step(np.zeros(4, dtype=np.float32))
    assert again[-1]["parse_error"] == EPISODE_OVER


def test_success_needs_the_whole_last_second_on_target():
    short = envsuite.make(HOVER, episode_len_sec=1.5, hold_sec=1.0)
    long = envsuite.make(HOVER, episode_len_sec=5.0, hold_sec=1.0)
    # A seed that starts far from the target: the oracle needs more than half a second.
    seed = next(s for s in range(50) if np.linalg.norm(short.reset(seed=s)[0][16:19]) > 0.6)
    info, _ = fly_oracle(short, seed)
    assert not info["success"] and info["crash"] is None
    info, _ = fly_oracle(long, seed)
    assert info["success"] and info["final_distance"] < 0.05


def test_bad_arguments_are_refused():
    for kwargs in (
        {"target": (0.0, 0.0, 5.0)},
        {"observation_type": "depth"},
        {"action_type": "thrust"},
        {"drone_model": "tello"},
        {"physics": "mujoco"},
        {"image_size": (4, 4)},
        {"action_buffer": -1},
    ):
        with pytest.raises(ValueError):
            envsuite.make(HOVER, **kwargs)
