"""The value model of the doubly robust estimator: cross-fitted fitted-Q evaluation.

Q̂ is fitted by fitted-Q evaluation (FQE; Le, Voloshin and Yue, 2019, "Batch Policy
Learning under Constraints") with one ridge regression per (step t, action a), backwards
from the last step:

    y_{i,t} = r_{i,t} + γ V̂_{t+1}(h_{i,t+1}),   V̂_{t+1}(h) = Σ_a π_e(a | h) Q̂_{t+1}(h, a),
    Q̂_t(h, a) = [1, x(h)] · β_{t,a},   β_{t,a} = argmin Σ_{i: a_{i,t} = a} (y_{i,t} − [1, x] · β)²
                                                  + λ ‖β_{1:}‖²,

where x(h) is the observation at step t flattened to floats (the bias is not penalised).
For text observations x is empty, so Q̂_t(·, a) is the mean target of action a at step t:
a per-(step, arm) mean-reward-to-go model. A (t, a) with no logged rows uses the ridge fit
of every row at step t (all actions pooled); a step no logged episode reaches gets Q̂ = 0.
Indexing the model by step makes FQE exact backward induction over a finite horizon, and
lets the model fit the horizon's end without a time feature.

Cross-fitting: the episodes are split into two folds by position (even / odd); each fold's
Q̂ is fitted on the other fold only, so every DR term uses a model independent of its own
episode and DR stays unbiased (Chernozhukov et al., 2018, "Double/debiased machine
learning"; Kallus and Uehara, 2020, "Double Reinforcement Learning for Efficient
Off-Policy Evaluation in Markov Decision Processes").
"""

from __future__ import annotations

import numpy as np

FloatArray = np.ndarray

#: Default ridge penalty λ of the per-(step, action) regressions.
DEFAULT_RIDGE = 1.0


def _design(features: FloatArray) -> FloatArray:
    """Prepend a bias column: ``(..., F)`` -> ``(..., F + 1)``."""
    ones = np.ones((*features.shape[:-1], 1))
    return np.concatenate([ones, features], axis=-1)


def ridge_fit(design: FloatArray, targets: FloatArray, ridge: float) -> FloatArray:
    """Ridge regression with an unpenalised bias (the design's first column).

    Formula:
        β = argmin ‖Xβ − y‖² + λ ‖β_{1:}‖², solved by least squares on the augmented system
        [X; √λ·[0 | I]] β = [y; 0] (well defined even for fewer rows than columns).

    Args:
        design: ``(m, p)`` design matrix whose first column is the bias.
        targets: ``(m,)`` targets.
        ridge: λ >= 0.

    Returns:
        ``(p,)`` coefficients.
    """
    columns = design.shape[1]
    penalty = np.sqrt(ridge) * np.eye(columns)[1:]
    augmented = np.vstack([design, penalty])
    padded = np.concatenate([targets, np.zeros(columns - 1)])
    coefficients, *_ = np.linalg.lstsq(augmented, padded, rcond=None)
    return np.asarray(coefficients)


def fit_fqe(
    features: FloatArray,
    actions: np.ndarray,
    rewards: FloatArray,
    mask: np.ndarray,
    target_dist: FloatArray,
    *,
    gamma: float = 1.0,
    ridge: float = DEFAULT_RIDGE,
) -> FloatArray:
    """Fit Q̂ by backward fitted-Q evaluation on logged episodes (see the module doc).

    Args:
        features: ``(n, T, F)`` observation features at each step.
        actions: ``(n, T)`` index of the logged action in the action vocabulary.
        rewards: ``(n, T)`` rewards.
        mask: ``(n, T)`` True where the episode is still running.
        target_dist: ``(n, T, A)`` π_e over the action vocabulary at each step.
        gamma: Discount γ.
        ridge: Ridge penalty λ.

    Returns:
        ``(T, A, F + 1)`` coefficients β_{t,a}.
    """
    n, steps, width = features.shape
    num_actions = target_dist.shape[2]
    design = _design(features)
    coefficients = np.zeros((steps, num_actions, width + 1))
    next_values = np.zeros(n)
    for t in range(steps - 1, -1, -1):
        alive = mask[:, t]
        if not alive.any():
            next_values = np.zeros(n)
            continue
        targets = rewards[:, t] + gamma * next_values
        pooled = ridge_fit(design[alive, t], targets[alive], ridge)
        for a in range(num_actions):
            rows = alive & (actions[:, t] == a)
            coefficients[t, a] = (
                ridge_fit(design[rows, t], targets[rows], ridge) if rows.any() else pooled
            )
        q_values = design[:, t] @ coefficients[t].T
        next_values = np.where(alive, (target_dist[:, t] * q_values).sum(axis=1), 0.0)
    return coefficients


def predict_q(coefficients: FloatArray, features: FloatArray) -> FloatArray:
    """Q̂_t(h_{i,t}, a) for every episode, step and action: ``(n, T, A)``."""
    return np.einsum("ntp,tap->nta", _design(features), coefficients)


def cross_fitted_values(
    features: FloatArray,
    actions: np.ndarray,
    rewards: FloatArray,
    mask: np.ndarray,
    target_dist: FloatArray,
    *,
    gamma: float = 1.0,
    ridge: float = DEFAULT_RIDGE,
) -> tuple[FloatArray, FloatArray]:
    """Q̂ of each logged action and V̂ of each step, from the other fold's model.

    Args:
        features: ``(n, T, F)`` observation features.
        actions: ``(n, T)`` logged action indices.
        rewards: ``(n, T)`` rewards.
        mask: ``(n, T)`` True where the episode is running.
        target_dist: ``(n, T, A)`` π_e over the action vocabulary.
        gamma: Discount γ.
        ridge: Ridge penalty λ.

    Returns:
        ``(q_logged, v_estimates)``, both ``(n, T)`` and 0 on padding, the inputs of
        :func:`~envsuite.evaluation.policy_selection.estimators.doubly_robust`.

    Raises:
        ValueError: fewer than two episodes (cross-fitting needs both folds).
    """
    n = features.shape[0]
    if n < 2:
        raise ValueError("the doubly robust estimator needs at least 2 logged episodes")
    folds = np.arange(n) % 2
    q_all = np.zeros(target_dist.shape)
    for fold in (0, 1):
        train, test = folds != fold, folds == fold
        coefficients = fit_fqe(
            features[train],
            actions[train],
            rewards[train],
            mask[train],
            target_dist[train],
            gamma=gamma,
            ridge=ridge,
        )
        q_all[test] = predict_q(coefficients, features[test])
    q_logged = np.take_along_axis(q_all, actions[:, :, None], axis=2)[:, :, 0]
    v_estimates = (target_dist * q_all).sum(axis=2)
    return np.where(mask, q_logged, 0.0), np.where(mask, v_estimates, 0.0)
