"""The DR model: ridge with a free bias, backward FQE, cross-fitting."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.evaluation.policy_selection.estimators import doubly_robust
from envsuite.evaluation.policy_selection.q_model import (
    cross_fitted_values,
    fit_fqe,
    predict_q,
    ridge_fit,
)


def test_ridge_leaves_the_bias_unpenalised():
    design = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    targets = np.array([1.0, 3.0, 5.0])
    assert ridge_fit(design, targets, 0.0) == pytest.approx([1.0, 2.0])
    # A huge penalty flattens the slope; the bias goes to the mean, not to 0.
    assert ridge_fit(design, targets, 1e12) == pytest.approx([3.0, 0.0], abs=1e-6)


def tabular_problem():
    """Two steps, three actions, rewards r(a) = [0, 1, 3][a] every step, no features.

    The logged actions cover every (step, action); π_e takes actions with (1/2, 1/4, 1/4)
    at every step, so E_{π_e}[r] = 0/2 + 1/4 + 3/4 = 1, Q_1(a) = r(a),
    Q_0(a) = r(a) + 1 and J(π_e) = 2.
    """
    reward = np.array([0.0, 1.0, 3.0])
    actions = np.array([[a, b] for a in range(3) for b in range(3)] * 2)  # 18 episodes
    rewards = reward[actions]
    mask = np.ones_like(rewards, dtype=bool)
    target = np.broadcast_to([0.5, 0.25, 0.25], (*rewards.shape, 3)).copy()
    features = np.zeros((*rewards.shape, 0))
    return features, actions, rewards, mask, target


def test_fqe_recovers_the_tabular_q_function():
    features, actions, rewards, mask, target = tabular_problem()
    q = predict_q(fit_fqe(features, actions, rewards, mask, target), features)
    assert q[0, 1] == pytest.approx([0.0, 1.0, 3.0])
    assert q[0, 0] == pytest.approx([1.0, 2.0, 4.0])


def test_cross_fitted_dr_with_a_well_specified_model_is_exact():
    features, actions, rewards, mask, target = tabular_problem()
    q_logged, values = cross_fitted_values(features, actions, rewards, mask, target)
    assert values[:, 0] == pytest.approx(np.full(18, 2.0))
    pb = np.full(rewards.shape, 1 / 3)
    pe = np.take_along_axis(target, actions[:, :, None], axis=2)[:, :, 0]
    assert doubly_robust(rewards, pb, pe, q_logged, values) == pytest.approx(2.0)


def test_cross_fitting_uses_the_other_fold_only():
    # One step, one action; the even episodes pay 0 and the odd ones 1, so each fold's
    # model predicts the other fold's mean.
    rewards = np.array([[0.0], [1.0], [0.0], [1.0]])
    features = np.zeros((4, 1, 0))
    actions = np.zeros((4, 1), dtype=np.int64)
    mask = np.ones((4, 1), dtype=bool)
    target = np.ones((4, 1, 1))
    q_logged, _ = cross_fitted_values(features, actions, rewards, mask, target)
    assert q_logged[:, 0].tolist() == pytest.approx([1.0, 0.0, 1.0, 0.0])


def test_padding_and_features():
    # Episode 1 ends after one step: its padded step gets Q̂ = V̂ = 0.
    features = np.array([[[1.0], [2.0]], [[3.0], [0.0]]])
    actions = np.zeros((2, 2), dtype=np.int64)
    rewards = np.array([[2.0, 4.0], [6.0, 0.0]])
    mask = np.array([[True, True], [True, False]])
    target = np.ones((2, 2, 1))
    q_logged, values = cross_fitted_values(features, actions, rewards, mask, target)
    assert q_logged[1, 1] == values[1, 1] == 0.0
    with pytest.raises(ValueError, match="at least 2"):
        cross_fitted_values(features[:1], actions[:1], rewards[:1], mask[:1], target[:1])
