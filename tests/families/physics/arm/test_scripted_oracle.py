"""The scripted oracle solves every arm task on most seeds, in every observation variant."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import envsuite
from envsuite.families.physics.arm.scripted_oracle import arm_oracle

IDS = ["envsuite/ArmReach-v0", "envsuite/ArmPush-v0", "envsuite/ArmPickPlace-v0"]
VARIANTS = [
    {},
    {"observation_mode": "goal_dict", "reward_type": "sparse"},
    {"goal_observable": False},
]


def success_rate(env_id: str, seeds: range, **kwargs) -> tuple[float, list[float]]:
    env = envsuite.make(env_id, **kwargs)
    oracle = arm_oracle(env)
    outcomes, returns = [], []
    for seed in seeds:
        oracle.reset(seed)
        obs, info = env.reset(seed=seed)
        total = 0.0
        while True:
            obs, reward, terminated, truncated, info = env.step(oracle.act(obs, info))
            total += reward
            if terminated or truncated:
                break
        outcomes.append(info["success"])
        returns.append(total)
    return float(np.mean(outcomes)), returns


@pytest.mark.parametrize("env_id", IDS)
def test_the_oracle_holds_the_goal_at_the_end_of_most_episodes(env_id: str):
    rate, _ = success_rate(env_id, range(20))
    assert rate >= 0.9


@pytest.mark.parametrize("variant", VARIANTS, ids=["vector", "goal_dict", "hidden_goal"])
@pytest.mark.parametrize("env_id", IDS)
def test_the_oracle_works_in_every_observation_variant(env_id: str, variant: dict):
    rate, _ = success_rate(env_id, range(100, 105), **variant)
    assert rate >= 0.8


def test_the_oracle_earns_far_more_than_random_actions():
    _, oracle_returns = success_rate("envsuite/ArmPickPlace-v0", range(5))
    env = envsuite.make("envsuite/ArmPickPlace-v0")
    env.action_space.seed(0)
    random_returns = []
    for seed in range(5):
        env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total += reward
            done = terminated or truncated
        random_returns.append(total)
        assert not info["success"]
    assert min(oracle_returns) > 2 * max(random_returns)


def test_the_oracle_recovers_from_a_dropped_cube():
    env = envsuite.make("envsuite/ArmPickPlace-v0")
    oracle = arm_oracle(env)
    obs, info = env.reset(seed=11)
    for _ in range(40):  # grasp and lift
        obs, _, _, _, info = env.step(oracle.act(obs, info))
    for _ in range(15):  # open the gripper: the cube falls
        obs, _, _, _, info = env.step(np.array([0.0, 0.0, 0.0, -1.0]))
    assert not info["success"]
    for _ in range(200):
        obs, _, _, truncated, info = env.step(oracle.act(obs, info))
        if truncated:
            break
    assert info["success"]
