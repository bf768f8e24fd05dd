"""Off-policy value estimators: pure functions over arrays of logged episodes.

Notation: n logged episodes of (padded) length T, collected by a behaviour policy π_b;
r_{i,t} is the reward of episode i at step t, ρ_{i,t} = π_e(a_{i,t} | h_{i,t}) /
π_b(a_{i,t} | h_{i,t}) the importance ratio of the logged action under the evaluated
policy π_e, and w_{i,t} = ∏_{t' ≤ t} ρ_{i,t'} the cumulative weight (w_{i,−1} = 1). The
value estimated is J(π_e) = E_{π_e}[Σ_t γ^t r_t], the undiscounted return when γ = 1.

Arrays are ``(n, T)``. Episodes shorter than T are padded with an absorbing state: reward
0 and probability 1 under both policies (so ρ = 1 and the weight stays at its last value),
and for :func:`doubly_robust` model values 0. Every estimator then gives the same number as
on the ragged episodes; for the self-normalised per-decision estimator this is Thomas's
(2015) convention of padding episodes to a common horizon with an absorbing state.

Why short horizons: w_{i,T−1} is a product of T ratios, so its variance grows
exponentially with T. With a uniform behaviour policy over K actions and a near-greedy
π_e, each ratio is ≈ K on agreement and ≈ 0 otherwise; after 20 steps of K = 5 a single
agreeing episode weighs ≈ 5^20 and almost every other episode 0. Trajectory-wise IS is then
degenerate (one episode decides the estimate); per-decision IS and DR only weight rewards
by the ratios up to their step, which helps but does not remove the growth.
:func:`effective_sample_size` measures this.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

FloatArray = np.ndarray


def _matrix(name: str, values: ArrayLike) -> FloatArray:
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (episodes, steps) array, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds non-finite values")
    return array


def _logged(
    rewards: ArrayLike, behavior_probs: ArrayLike, target_probs: ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    r = _matrix("rewards", rewards)
    pb = _matrix("behavior_probs", behavior_probs)
    pe = _matrix("target_probs", target_probs)
    if not r.shape == pb.shape == pe.shape:
        raise ValueError(
            f"shapes differ: rewards {r.shape}, behavior {pb.shape}, target {pe.shape}"
        )
    if r.shape[0] == 0:
        raise ValueError("no logged episodes")
    if np.any(pb <= 0.0) or np.any(pb > 1.0):
        raise ValueError("behavior_probs must lie in (0, 1]: a logged action had probability 0")
    if np.any(pe < 0.0) or np.any(pe > 1.0):
        raise ValueError("target_probs must lie in [0, 1]")
    return r, pb, pe


def discounts(steps: int, gamma: float = 1.0) -> FloatArray:
    """γ^t for t = 0, ..., steps − 1."""
    if not 0.0 <= gamma <= 1.0:
        raise ValueError(f"gamma must lie in [0, 1], got {gamma}")
    return np.asarray(gamma, dtype=np.float64) ** np.arange(steps)


def cumulative_weights(behavior_probs: ArrayLike, target_probs: ArrayLike) -> FloatArray:
    """w_{i,t} = ∏_{t' ≤ t} π_e(a_{i,t'} | h_{i,t'}) / π_b(a_{i,t'} | h_{i,t'}).

    Args:
        behavior_probs: π_b of each logged action, ``(n, T)``, in (0, 1].
        target_probs: π_e of each logged action, ``(n, T)``, in [0, 1].

    Returns:
        The cumulative importance weights, ``(n, T)``.
    """
    _, pb, pe = _logged(np.zeros_like(behavior_probs, dtype=float), behavior_probs, target_probs)
    return np.cumprod(pe / pb, axis=1)


def trajectory_is(
    rewards: ArrayLike, behavior_probs: ArrayLike, target_probs: ArrayLike, gamma: float = 1.0
) -> float:
    """Trajectory-wise importance sampling (IS).

    Formula:
        Ĵ_IS = (1/n) Σ_i w_{i,T−1} Σ_t γ^t r_{i,t}.

    Source:
        Precup, Sutton and Singh (2000), "Eligibility Traces for Off-Policy Policy
        Evaluation", the IS estimator (unbiased when π_b > 0 wherever π_e > 0).

    Args:
        rewards: ``(n, T)`` rewards.
        behavior_probs: ``(n, T)`` π_b of the logged actions.
        target_probs: ``(n, T)`` π_e of the logged actions.
        gamma: Discount γ in [0, 1].

    Returns:
        The estimate of J(π_e).
    """
    r, pb, pe = _logged(rewards, behavior_probs, target_probs)
    weights = np.cumprod(pe / pb, axis=1)[:, -1]
    returns = r @ discounts(r.shape[1], gamma)
    return float(np.mean(weights * returns))


def per_decision_is(
    rewards: ArrayLike, behavior_probs: ArrayLike, target_probs: ArrayLike, gamma: float = 1.0
) -> float:
    """Per-decision importance sampling (PDIS).

    Formula:
        Ĵ_PDIS = (1/n) Σ_i Σ_t γ^t w_{i,t} r_{i,t}: each reward is weighted only by the
        ratios of the actions taken up to it.

    Source:
        Precup, Sutton and Singh (2000), "Eligibility Traces for Off-Policy Policy
        Evaluation", the per-decision IS estimator (unbiased, like IS).

    Args:
        rewards: ``(n, T)`` rewards.
        behavior_probs: ``(n, T)`` π_b of the logged actions.
        target_probs: ``(n, T)`` π_e of the logged actions.
        gamma: Discount γ in [0, 1].

    Returns:
        The estimate of J(π_e).
    """
    r, pb, pe = _logged(rewards, behavior_probs, target_probs)
    weights = np.cumprod(pe / pb, axis=1)
    return float(np.mean((weights * r) @ discounts(r.shape[1], gamma)))


def self_normalized_is(
    rewards: ArrayLike, behavior_probs: ArrayLike, target_probs: ArrayLike, gamma: float = 1.0
) -> float:
    """Trajectory-wise self-normalised (weighted) importance sampling (SNIS / WIS).

    Formula:
        Ĵ_SNIS = Σ_i w_{i,T−1} G_i / Σ_i w_{i,T−1}, with G_i = Σ_t γ^t r_{i,t}: IS with the
        weights normalised to sum to 1 instead of dividing by n. Biased but consistent,
        and always within the range of the logged returns. NaN when every weight is 0
        (π_e gives probability 0 to every logged trajectory).

    Source:
        Precup, Sutton and Singh (2000), the weighted IS estimator; Mahmood, van Hasselt
        and Sutton (2014), "Weighted importance sampling for off-policy learning with
        linear function approximation".

    Args:
        rewards: ``(n, T)`` rewards.
        behavior_probs: ``(n, T)`` π_b of the logged actions.
        target_probs: ``(n, T)`` π_e of the logged actions.
        gamma: Discount γ in [0, 1].

    Returns:
        The estimate of J(π_e), or NaN.
    """
    r, pb, pe = _logged(rewards, behavior_probs, target_probs)
    weights = np.cumprod(pe / pb, axis=1)[:, -1]
    total = weights.sum()
    if total == 0.0:
        return float("nan")
    return float(weights @ (r @ discounts(r.shape[1], gamma)) / total)


def self_normalized_pdis(
    rewards: ArrayLike, behavior_probs: ArrayLike, target_probs: ArrayLike, gamma: float = 1.0
) -> float:
    """Per-decision self-normalised (weighted) importance sampling (SNPDIS / PDWIS).

    Formula:
        Ĵ_SNPDIS = Σ_t γ^t Σ_i w_{i,t} r_{i,t} / Σ_i w_{i,t}: PDIS with the step-t weights
        normalised over the episodes at each step. A step whose weights are all 0 adds 0
        (no logged evidence); NaN only when that holds at every step.

    Source:
        Precup, Sutton and Singh (2000), the weighted per-decision estimator; Thomas (2015),
        "Safe Reinforcement Learning" (PhD thesis), §3.9, "CWPDIS" (consistent weighted
        per-decision IS), whose padding convention this follows.

    Args:
        rewards: ``(n, T)`` rewards.
        behavior_probs: ``(n, T)`` π_b of the logged actions.
        target_probs: ``(n, T)`` π_e of the logged actions.
        gamma: Discount γ in [0, 1].

    Returns:
        The estimate of J(π_e), or NaN.
    """
    r, pb, pe = _logged(rewards, behavior_probs, target_probs)
    weights = np.cumprod(pe / pb, axis=1)
    totals = weights.sum(axis=0)
    if not np.any(totals > 0.0):
        return float("nan")
    safe = np.where(totals > 0.0, totals, 1.0)
    per_step = np.where(totals > 0.0, (weights * r).sum(axis=0) / safe, 0.0)
    return float(per_step @ discounts(r.shape[1], gamma))


def doubly_robust(
    rewards: ArrayLike,
    behavior_probs: ArrayLike,
    target_probs: ArrayLike,
    q_logged: ArrayLike,
    v_estimates: ArrayLike,
    gamma: float = 1.0,
) -> float:
    """Per-decision doubly robust estimator (DR) with a value model.

    Formula:
        Ĵ_DR = (1/n) Σ_i Σ_t γ^t [w_{i,t} (r_{i,t} − Q̂(h_{i,t}, a_{i,t}))
        + w_{i,t−1} V̂(h_{i,t})], with V̂(h) = Σ_a π_e(a | h) Q̂(h, a) and w_{i,−1} = 1.
        Unbiased for any model Q̂ fitted on other data than the episodes it is applied to;
        Q̂ = 0 gives PDIS exactly; with Q̂ = Q^{π_e} in an env whose rewards and transitions
        are deterministic every episode's sum telescopes to V^{π_e}(s_0), so Ĵ_DR = J(π_e)
        exactly.

    Source:
        Jiang and Li (2016), "Doubly Robust Off-policy Value Evaluation for Reinforcement
        Learning", the recursive DR estimator, in the unrolled form of Thomas and Brunskill
        (2016), "Data-Efficient Off-Policy Policy Evaluation for Reinforcement Learning",
        eq. (1).

    Args:
        rewards: ``(n, T)`` rewards.
        behavior_probs: ``(n, T)`` π_b of the logged actions.
        target_probs: ``(n, T)`` π_e of the logged actions.
        q_logged: ``(n, T)`` Q̂(h_{i,t}, a_{i,t}) (0 on padding).
        v_estimates: ``(n, T)`` V̂(h_{i,t}) = Σ_a π_e(a | h_{i,t}) Q̂(h_{i,t}, a) (0 on padding).
        gamma: Discount γ in [0, 1].

    Returns:
        The estimate of J(π_e).
    """
    r, pb, pe = _logged(rewards, behavior_probs, target_probs)
    q = _matrix("q_logged", q_logged)
    v = _matrix("v_estimates", v_estimates)
    if not q.shape == v.shape == r.shape:
        raise ValueError(f"model arrays {q.shape}, {v.shape} differ from rewards {r.shape}")
    weights = np.cumprod(pe / pb, axis=1)
    previous = np.hstack([np.ones((r.shape[0], 1)), weights[:, :-1]])
    terms = weights * (r - q) + previous * v
    return float(np.mean(terms @ discounts(r.shape[1], gamma)))


def effective_sample_size(weights: ArrayLike) -> float:
    """Kish's effective sample size of importance weights.

    Formula:
        ESS = (Σ_i w_i)² / Σ_i w_i²: n for equal weights, 1 when one weight dominates, 0
        when every weight is 0.

    Source:
        Kish (1965), "Survey Sampling"; as a diagnostic of IS, e.g. Owen (2013), "Monte
        Carlo theory, methods and examples", §9.3.

    Args:
        weights: Non-negative weights, e.g. the trajectory weights w_{i,T−1}.

    Returns:
        The effective sample size.
    """
    w = np.asarray(weights, dtype=np.float64).ravel()
    squares = float(w @ w)
    return 0.0 if squares == 0.0 else float(w.sum() ** 2 / squares)
