"""``compute_reward``: only in goal_dict mode, and always the step's own reward."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import envsuite
from envsuite.families.physics.arm.batched_vector_env import (
    ArmPickPlaceBatchedVectorEnv,
    ArmPushBatchedVectorEnv,
    ArmReachBatchedVectorEnv,
)
from envsuite.families.physics.arm.goal_reward import NOT_GOAL_CONDITIONED, TCP_KEY
from envsuite.families.physics.arm.scripted_oracle import arm_oracle

IDS = ["envsuite/ArmReach-v0", "envsuite/ArmPush-v0", "envsuite/ArmPickPlace-v0"]
BATCHED = {
    "envsuite/ArmReach-v0": ArmReachBatchedVectorEnv,
    "envsuite/ArmPush-v0": ArmPushBatchedVectorEnv,
    "envsuite/ArmPickPlace-v0": ArmPickPlaceBatchedVectorEnv,
}
REWARD_TYPES = ["dense", "sparse"]


@pytest.mark.parametrize("env_id", IDS)
def test_compute_reward_exists_only_in_goal_dict_mode(env_id):
    vector = envsuite.make(env_id).unwrapped
    assert not hasattr(vector, "compute_reward")  # SB3 takes envs that have it for goal envs
    with pytest.raises(AttributeError, match="observation_mode='goal_dict'"):
        vector.compute_reward(np.zeros(3), np.zeros(3), {})
    assert callable(envsuite.make(env_id, observation_mode="goal_dict").unwrapped.compute_reward)
    assert not hasattr(BATCHED[env_id](2), "compute_reward")
    assert callable(BATCHED[env_id](2, observation_mode="goal_dict").compute_reward)
    assert "goal_dict" in NOT_GOAL_CONDITIONED


def rollout(env_id: str, reward_type: str, steps: int = 200):
    """Oracle actions, a few random and a few malformed ones; yields each transition."""
    env = envsuite.make(env_id, observation_mode="goal_dict", reward_type=reward_type)
    oracle = arm_oracle(env)
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    oracle.reset()
    for t in range(steps):
        action = oracle.act(obs, info) if rng.random() < 0.9 else rng.uniform(-1.5, 1.5, 4)
        if t % 11 == 5:
            action = np.array([np.nan, 0.0, 0.0, 0.0])
        next_obs, reward, terminated, truncated, info = env.step(action)
        yield env, obs, next_obs, reward, info
        obs = next_obs
        if terminated or truncated:
            obs, info = env.reset()
            oracle.reset()


@pytest.mark.parametrize("reward_type", REWARD_TYPES)
@pytest.mark.parametrize("env_id", IDS)
def test_compute_reward_is_the_step_reward_bit_for_bit(env_id, reward_type):
    transitions = list(rollout(env_id, reward_type))
    env = transitions[0][0].unwrapped
    achieved, desired, infos, rewards = [], [], [], []
    for _, obs, next_obs, reward, info in transitions:
        # What HER passes for a transition as it happened (SB3's HerReplayBuffer).
        again = env.compute_reward(next_obs["achieved_goal"], obs["desired_goal"], info)
        assert type(again) is float and again == reward
        achieved.append(next_obs["achieved_goal"])
        desired.append(obs["desired_goal"])
        infos.append(info)
        rewards.append(reward)
    batch = env.compute_reward(np.stack(achieved), np.stack(desired), infos)
    assert batch.shape == (len(rewards),) and batch.tolist() == rewards
    assert np.array(infos, dtype=object).shape == (len(infos),)
    assert env.compute_reward(np.stack(achieved), np.stack(desired), np.array(infos)).tolist() == (
        rewards
    )
    penalised = [info["parse_error"] is not None for info in infos]
    assert any(penalised) and min(rewards) < 0.0  # the penalty is in both
    assert 1.0 in rewards  # the oracle succeeds: both rewards reach 1
    shaped = [reward for reward in rewards if 0.0 < reward < 1.0]
    assert bool(shaped) == (reward_type == "dense")  # dense: shaped values, not only a flag


@pytest.mark.parametrize("reward_type", REWARD_TYPES)
@pytest.mark.parametrize("env_id", IDS)
def test_relabelled_goals_are_rewarded_as_the_env_would(env_id, reward_type):
    env = envsuite.make(env_id, observation_mode="goal_dict", reward_type=reward_type)
    obs, info = env.reset(seed=0)
    obs, _, _, _, info = env.step(np.zeros(4))
    compute = env.unwrapped.compute_reward
    assert compute(obs["achieved_goal"], obs["achieved_goal"], info) == 1.0  # reached
    far = obs["achieved_goal"] + np.array([0.3, 0.0, 0.0])
    missed = compute(obs["achieved_goal"], far, info)
    assert missed == 0.0 if reward_type == "sparse" else 0.0 < missed < 0.8
    grid = np.broadcast_to(obs["achieved_goal"], (2, 5, 3))
    assert compute(grid, obs["desired_goal"], info).shape == (2, 5)


def test_dense_push_needs_the_infos_and_says_how_to_pass_them():
    env = envsuite.make("envsuite/ArmPush-v0", observation_mode="goal_dict")
    obs, info = env.reset(seed=0)
    assert info[TCP_KEY].dtype == np.float64 and info[TCP_KEY].shape == (3,)
    goals = np.stack([obs["achieved_goal"]] * 2), np.stack([obs["desired_goal"]] * 2)
    with pytest.raises(ValueError, match=r"copy_info_dict.*reward_type='sparse'"):
        env.unwrapped.compute_reward(*goals, [{}, {}])  # what SB3's HER passes by default
    sparse = envsuite.make(
        "envsuite/ArmPush-v0", observation_mode="goal_dict", reward_type="sparse"
    )
    assert sparse.unwrapped.compute_reward(*goals, [{}, {}]).tolist() == [0.0, 0.0]
    reach = envsuite.make("envsuite/ArmReach-v0", observation_mode="goal_dict")
    obs, _ = reach.reset(seed=0)
    reach.unwrapped.compute_reward(obs["achieved_goal"], obs["desired_goal"], {})  # no TCP needed


@pytest.mark.parametrize(
    ("achieved", "desired", "info", "message"),
    [
        (np.zeros(2), np.zeros(3), None, r"achieved_goal must hold \(x, y, z\) points"),
        (np.zeros(3), 0.5, None, "desired_goal must hold"),
        (np.zeros((4, 3)), np.zeros(3), [{}, {}], "info must be one dict or 4 dicts"),
    ],
)
def test_bad_goals_or_infos_are_clear_errors(achieved, desired, info, message):
    env = envsuite.make("envsuite/ArmReach-v0", observation_mode="goal_dict")
    with pytest.raises(ValueError, match=message):
        env.unwrapped.compute_reward(achieved, desired, info)


@pytest.mark.parametrize("reward_type", REWARD_TYPES)
@pytest.mark.parametrize("env_id", IDS)
def test_the_batched_vector_env_computes_its_own_rewards(env_id, reward_type):
    envs = BATCHED[env_id](
        4, max_episode_steps=50, observation_mode="goal_dict", reward_type=reward_type
    )
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for t in range(30):
        actions = rng.uniform(-1, 1, (4, 4))
        if t % 7 == 3:
            actions[1, 0] = np.nan
        next_obs, rewards, _, _, infos = envs.step(actions)
        again = envs.compute_reward(next_obs["achieved_goal"], obs["desired_goal"], infos)
        assert again.tolist() == rewards.tolist()
        obs = next_obs
    envs.close()
