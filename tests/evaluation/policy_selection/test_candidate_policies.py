"""The decision family's stochastic candidate policies: probabilities, sampling, seeding."""

from __future__ import annotations

import math

import numpy as np
import pytest

import envsuite
from envsuite.evaluation.policy_selection.policy import (
    checked_distribution,
    logs_probabilities,
    reports_probabilities,
)
from envsuite.families.decision.candidate_policies import (
    EpsilonGreedy,
    FixedArm,
    LinearEpsilonGreedy,
    Softmax,
    UniformPolicy,
)


def bandit(mode="vector", **kwargs):
    return envsuite.make(
        "envsuite/Bandit-v0", num_arms=3, horizon=10, observation_mode=mode, **kwargs
    )


def pull(arm, reward):
    return {"arm": arm, "reward": reward}


def test_every_policy_speaks_both_protocols():
    env = bandit()
    for policy in (UniformPolicy(env), EpsilonGreedy(env), Softmax(env), FixedArm(env)):
        assert reports_probabilities(policy) and logs_probabilities(policy)


def test_epsilon_greedy_tries_unpulled_arms_first():
    policy = EpsilonGreedy(bandit(), epsilon=0.3)
    policy.reset(seed=0)
    assert policy.action_probabilities(None, {}) == pytest.approx({0: 1 / 3, 1: 1 / 3, 2: 1 / 3})
    # Arm 0 pulled (reward 1): arms 1 and 2 are untried and share 1 − ε.
    probabilities = policy.action_probabilities(None, pull(0, 1.0))
    assert probabilities == pytest.approx({0: 0.1, 1: 0.1 + 0.35, 2: 0.1 + 0.35})


def test_epsilon_greedy_hand_values_after_some_pulls():
    policy = EpsilonGreedy(bandit(), epsilon=0.3)
    policy.reset(seed=0)
    for info in (pull(0, 1.0), pull(1, 0.0), pull(2, 1.0)):
        policy.action_probabilities(None, info)
    # Means 1, 0, 1: arms 0 and 2 tie and split 1 − ε.
    assert policy.action_probabilities(None, {}) == pytest.approx({0: 0.45, 1: 0.1, 2: 0.45})
    # Arm 2 pays 0 once more: means 1, 0, 1/2, so arm 0 alone is greedy.
    assert policy.action_probabilities(None, pull(2, 0.0)) == pytest.approx(
        {0: 0.8, 1: 0.1, 2: 0.1}
    )


def test_softmax_hand_values():
    policy = Softmax(bandit(), temperature=0.5, initial_value=1.0)
    policy.reset(seed=0)
    policy.action_probabilities(None, pull(0, 0.0))
    # Means 0, 1 (untried), 1 (untried): weights e^0, e^2, e^2.
    probabilities = policy.action_probabilities(None, pull(1, 1.0))
    total = 1 + 2 * math.exp(2)
    assert probabilities == pytest.approx(
        {0: 1 / total, 1: math.exp(2) / total, 2: math.exp(2) / total}
    )


def test_fixed_arm_and_uniform():
    assert FixedArm(bandit(), arm=2, epsilon=0.3).action_probabilities(None, {}) == pytest.approx(
        {0: 0.1, 1: 0.1, 2: 0.8}
    )
    assert UniformPolicy(bandit()).action_probabilities(None, {}) == pytest.approx(
        {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}
    )


def test_text_mode_keys_are_the_arm_names_the_env_lists():
    env = bandit("text")
    _, info = env.reset(seed=0)
    policy = EpsilonGreedy(env, epsilon=0.5)
    policy.reset(seed=0)
    assert sorted(policy.action_probabilities(None, info)) == sorted(info["legal_actions"])
    action = policy.act(None, info)
    assert action in info["legal_actions"]
    _, reward, *_ = env.step(action)
    assert isinstance(reward, float)


def test_act_draws_from_the_reported_distribution_and_logs_its_probability():
    policy = EpsilonGreedy(bandit(), epsilon=0.6)
    policy.reset(seed=123)
    policy.action_probabilities(None, pull(0, 1.0))
    policy.action_probabilities(None, pull(1, 0.0))
    policy.action_probabilities(None, pull(2, 0.0))
    probabilities = policy.action_probabilities(None, {})
    assert probabilities == pytest.approx({0: 0.6, 1: 0.2, 2: 0.2})
    draws = []
    for _ in range(4000):
        action = policy.act(None, {})  # no new pull: the distribution stays put
        assert policy.last_action_probability() == probabilities[action]
        draws.append(action)
    frequencies = np.bincount(draws, minlength=3) / len(draws)
    assert frequencies == pytest.approx([0.6, 0.2, 0.2], abs=0.03)


def test_sampling_is_seeded_by_reset():
    def actions(seed):
        policy = Softmax(bandit(), temperature=1.0)
        policy.reset(seed=seed)
        return [policy.act(None, {}) for _ in range(50)]

    assert actions(7) == actions(7)
    assert actions(7) != actions(8)


def test_bad_parameters_are_rejected():
    with pytest.raises(ValueError, match="epsilon"):
        EpsilonGreedy(bandit(), epsilon=1.5)
    with pytest.raises(ValueError, match="temperature"):
        Softmax(bandit(), temperature=0.0)
    with pytest.raises(ValueError, match="arm"):
        FixedArm(bandit(), arm=3)


def test_linear_epsilon_greedy_on_the_contextual_bandit():
    env = envsuite.make(
        "envsuite/ContextualBandit-v0",
        num_arms=3,
        context_dim=2,
        horizon=4,
        observation_mode="vector",
    )
    policy = LinearEpsilonGreedy(env, epsilon=0.3, alpha=0.0)
    policy.reset(seed=0)
    observation, info = env.reset(seed=0)
    # No data: every arm's estimate is 0, a three-way tie.
    assert policy.action_probabilities(observation, info) == pytest.approx(
        {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}
    )
    observation, _, _, _, info = env.step(1)
    probabilities = policy.action_probabilities(observation, info)
    checked_distribution(probabilities, "linear")
    # Arm 1's ridge estimate θ̂ = x r / (1 + |x|²) now decides: greedy on x_next · θ̂_1 vs 0.
    x, x_next, r = (np.array(info[k]) for k in ("context", "next_context", "reward"))
    score = x_next @ (x * r / (1.0 + x @ x))
    greedy = {1} if score > 0 else {0, 2}
    for arm in range(3):
        expected = 0.1 + (0.7 / len(greedy) if arm in greedy else 0.0)
        assert probabilities[arm] == pytest.approx(expected)
