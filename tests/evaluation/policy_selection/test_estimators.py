"""Off-policy estimators against values computed by hand on a 2-step, 2-action problem.

The problem (deterministic): at step 0 action a0 ∈ {0, 1} pays r0 = a0; at step 1 action
a1 pays r1 = 2 if a1 == a0 else 0. The evaluated policy π_e takes a0 = 1 with probability
3/4 and then repeats a0 with probability 3/4, so J(π_e) = 3/4 + 2 · 3/4 = 9/4. Every
probability is a multiple of 1/4, so every number below is exact in binary floating point.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from envsuite.evaluation.policy_selection.estimators import (
    cumulative_weights,
    doubly_robust,
    effective_sample_size,
    per_decision_is,
    self_normalized_is,
    self_normalized_pdis,
    trajectory_is,
)

TRUE_VALUE = 9 / 4


def rewards_of(a0: int, a1: int) -> list[float]:
    return [float(a0), 2.0 if a1 == a0 else 0.0]


def pi_e(a0: int, a1: int) -> list[float]:
    return [3 / 4 if a0 == 1 else 1 / 4, 3 / 4 if a1 == a0 else 1 / 4]


def pi_b_uniform(a0: int, a1: int) -> list[float]:
    return [1 / 2, 1 / 2]


def pi_b_skewed(a0: int, a1: int) -> list[float]:
    # Takes action 0 with probability 3/4 at both steps, whatever the history.
    return [3 / 4 if a0 == 0 else 1 / 4, 3 / 4 if a1 == 0 else 1 / 4]


TRAJECTORIES = list(itertools.product((0, 1), repeat=2))


def batch(trajectories, behavior=pi_b_uniform):
    rewards = np.array([rewards_of(*tau) for tau in trajectories])
    pb = np.array([behavior(*tau) for tau in trajectories])
    pe = np.array([pi_e(*tau) for tau in trajectories])
    return rewards, pb, pe


def perfect_model(trajectories):
    """Q^{π_e} and V^{π_e} at each step of each trajectory (by hand, see the module doc)."""
    q_logged, values = [], []
    for a0, a1 in trajectories:
        q0 = {0: 0 + 2 * 3 / 4, 1: 1 + 2 * 3 / 4}  # r0 + E[r1 | a0] under π_e
        v0 = 1 / 4 * q0[0] + 3 / 4 * q0[1]
        q1 = {a: 2.0 if a == a0 else 0.0 for a in (0, 1)}
        v1 = 3 / 4 * 2.0
        q_logged.append([q0[a0], q1[a1]])
        values.append([v0, v1])
    return np.array(q_logged), np.array(values)


def test_the_hand_computed_true_value_matches_enumeration_under_pi_e():
    value = sum(math.prod(pi_e(*tau)) * sum(rewards_of(*tau)) for tau in TRAJECTORIES)
    assert value == TRUE_VALUE


def test_hand_computed_weights():
    # (a0, a1) = (1, 1): ratios 3/2, 3/2; (0, 1): ratios 1/2, 1/2 under uniform π_b.
    _, pb, pe = batch([(1, 1), (0, 1)])
    assert cumulative_weights(pb, pe).tolist() == [[1.5, 2.25], [0.5, 0.25]]


@pytest.mark.parametrize("behavior", [pi_b_uniform, pi_b_skewed], ids=["uniform", "skewed"])
@pytest.mark.parametrize("estimator", [trajectory_is, per_decision_is])
def test_expectation_under_behavior_is_the_true_value(estimator, behavior):
    # E_{π_b}[Ĵ] = Σ_τ P_b(τ) Ĵ({τ}): the estimators are unbiased, exactly.
    expected = sum(
        math.prod(behavior(*tau)) * estimator(*batch([tau], behavior)) for tau in TRAJECTORIES
    )
    assert expected == pytest.approx(TRUE_VALUE, abs=1e-12)


def test_estimates_on_all_four_trajectories_by_hand():
    # Weights at the end: 3/4, 1/4, 3/4, 9/4; returns 2, 0, 1, 3 (order (0,0), (0,1), ...).
    data = batch(TRAJECTORIES)
    assert trajectory_is(*data) == (3 / 4 * 2 + 0 + 3 / 4 * 1 + 9 / 4 * 3) / 4 == 9 / 4
    # Per-decision terms: (0,0): 0 + 3/4·2; (0,1): 0; (1,0): 3/2·1 + 0; (1,1): 3/2 + 9/4·2.
    assert per_decision_is(*data) == (1.5 + 0 + 1.5 + 6.0) / 4


def test_estimates_on_two_trajectories_by_hand():
    data = batch([(1, 1), (0, 1)])
    assert trajectory_is(*data) == (9 / 4 * 3 + 1 / 4 * 0) / 2  # 3.375
    assert per_decision_is(*data) == ((1.5 * 1 + 2.25 * 2) + (0.5 * 0 + 0.25 * 0)) / 2  # 3.0
    assert self_normalized_is(*data) == (9 / 4 * 3) / (9 / 4 + 1 / 4)  # 2.7
    # Per step: (3/2·1 + 1/2·0) / (3/2 + 1/2) = 3/4, then (9/4·2 + 1/4·0) / (9/4 + 1/4) = 9/5.
    assert self_normalized_pdis(*data) == pytest.approx(3 / 4 + 9 / 5, abs=1e-15)


def test_self_normalised_estimators_are_nan_without_support():
    # π_e never takes action 0 at step 0, and both logged episodes did.
    rewards, pb = np.array([[1.0, 1.0], [0.0, 1.0]]), np.full((2, 2), 0.5)
    pe = np.array([[0.0, 1.0], [0.0, 1.0]])
    assert math.isnan(self_normalized_is(rewards, pb, pe))
    assert math.isnan(self_normalized_pdis(rewards, pb, pe))
    assert trajectory_is(rewards, pb, pe) == 0.0


@pytest.mark.parametrize("episodes", [TRAJECTORIES, [(1, 1), (0, 1)], [(0, 1)], [(1, 0)]])
def test_doubly_robust_with_the_true_q_is_exactly_the_true_value(episodes):
    rewards, pb, pe = batch(episodes)
    q_logged, values = perfect_model(episodes)
    assert doubly_robust(rewards, pb, pe, q_logged, values) == pytest.approx(TRUE_VALUE, abs=1e-12)


@pytest.mark.parametrize("episodes", [TRAJECTORIES, [(1, 1), (0, 1)], [(0, 0)]])
def test_doubly_robust_with_a_zero_model_is_pdis(episodes):
    data = batch(episodes)
    zeros = np.zeros_like(data[0])
    assert doubly_robust(*data, zeros, zeros) == per_decision_is(*data)


def wrong_model(trajectories):
    """An arbitrary Q̂ (not Q^{π_e}), with V̂(h) = Σ_a π_e(a | h) Q̂(h, a) as DR needs."""
    q0 = {0: 5.0, 1: -1.0}
    q1 = {(0, 0): 0.5, (0, 1): 3.0, (1, 0): -2.0, (1, 1): 1.0}  # keyed by (a0, a1)
    q_logged, values = [], []
    for a0, a1 in trajectories:
        v0 = 1 / 4 * q0[0] + 3 / 4 * q0[1]
        v1 = sum((3 / 4 if a == a0 else 1 / 4) * q1[(a0, a)] for a in (0, 1))
        q_logged.append([q0[a0], q1[(a0, a1)]])
        values.append([v0, v1])
    return np.array(q_logged), np.array(values)


@pytest.mark.parametrize("behavior", [pi_b_uniform, pi_b_skewed], ids=["uniform", "skewed"])
def test_doubly_robust_with_a_wrong_model_is_still_unbiased(behavior):
    estimates = {
        tau: doubly_robust(*batch([tau], behavior), *wrong_model([tau])) for tau in TRAJECTORIES
    }
    assert len(set(estimates.values())) > 1  # the single-episode estimates do vary
    expected = sum(math.prod(behavior(*tau)) * estimates[tau] for tau in TRAJECTORIES)
    assert expected == pytest.approx(TRUE_VALUE, abs=1e-12)


def test_discounting():
    data = batch([(1, 1)])
    # Return 1 + γ·2 with weight 9/4; per-decision 3/2·1 + γ·9/4·2.
    assert trajectory_is(*data, gamma=0.5) == 9 / 4 * (1 + 0.5 * 2)
    assert per_decision_is(*data, gamma=0.5) == 3 / 2 + 0.5 * 9 / 4 * 2
    with pytest.raises(ValueError, match="gamma"):
        trajectory_is(*data, gamma=1.5)


def test_padding_with_an_absorbing_state_matches_ragged_episodes():
    # Episode A has 3 steps, B has 1 (padded: reward 0, probabilities 1).
    rewards = np.array([[1.0, 2.0, 3.0], [4.0, 0.0, 0.0]])
    pb = np.array([[0.5, 0.5, 0.25], [0.5, 1.0, 1.0]])
    pe = np.array([[1.0, 0.25, 0.5], [0.25, 1.0, 1.0]])
    weight_a = [2.0, 1.0, 2.0]
    weight_b = 0.5
    assert trajectory_is(rewards, pb, pe) == (2.0 * 6.0 + 0.5 * 4.0) / 2
    assert per_decision_is(rewards, pb, pe) == (2 * 1 + 1 * 2 + 2 * 3 + 0.5 * 4) / 2
    # Per-decision normalisation over both episodes at each step (B absorbed after step 0).
    snpdis = (
        (weight_a[0] * 1 + weight_b * 4) / (weight_a[0] + weight_b)
        + (weight_a[1] * 2) / (weight_a[1] + weight_b)
        + (weight_a[2] * 3) / (weight_a[2] + weight_b)
    )
    assert self_normalized_pdis(rewards, pb, pe) == pytest.approx(snpdis, abs=1e-15)


def test_invalid_inputs_are_rejected():
    rewards = np.zeros((1, 2))
    with pytest.raises(ValueError, match="probability 0"):
        trajectory_is(rewards, [[0.0, 1.0]], [[1.0, 1.0]])
    with pytest.raises(ValueError, match="shapes differ"):
        per_decision_is(rewards, [[1.0]], [[1.0, 1.0]])
    with pytest.raises(ValueError, match="2-D"):
        per_decision_is([1.0], [1.0], [1.0])


def test_effective_sample_size():
    assert effective_sample_size([2.0, 2.0, 2.0, 2.0]) == 4.0
    assert effective_sample_size([0.0, 5.0, 0.0]) == 1.0
    assert effective_sample_size([0.0, 0.0]) == 0.0
    assert effective_sample_size([1.0, 3.0]) == 16.0 / 10.0
