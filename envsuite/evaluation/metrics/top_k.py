"""Top-k risk-return metrics of off-policy selection: SharpeRatio@k and its parts, regret@k.

An estimator (an off-policy evaluator, a cheap proxy, an LLM judge) gives each candidate
policy an estimated value Ĵ(π); the candidates are ranked by it and the top k go on to an
online test. These metrics score that portfolio by the candidates' true values J(π).

Conventions of SCOPE-RL's implementation (``scope_rl/ope/ops.py``,
``OffPolicySelection._obtain_topk_policy_performance``), which the defaults follow:

* ranking is ``np.argsort(estimated)[::-1]``; among equal estimates the candidate listed
  later ranks first. numpy's default sort is not guaranteed stable (it behaves so on short
  arrays); envsuite sorts with ``kind="stable"`` so the tie rule always holds;
* std@k is ``np.std(..., ddof=1)``, so at k = 1 it is NaN and so is SharpeRatio@1;
* the SharpeRatio numerator is ``np.clip(best@k − J(π_b), 0, None)``;
* std@k = 0 is not special-cased: a positive numerator gives +inf and a zero one NaN
  (SCOPE-RL's optional ``clip_sharpe_ratio`` maps those to 100 and 0 for k >= 2);
* a policy is unsafe when its true value is strictly below the safety threshold, which
  defaults to 0.0, or to ``relative_safety_criteria · J(π_b)`` when that is given
  (``OffPolicySelection._check_topk_inputs``).

``ddof=0`` and ``clip_numerator=False`` give the formula as written in the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.bootstrap import FloatArray

RegretForm = Literal["best", "sum"]


def _values(estimated: ArrayLike, true: ArrayLike) -> tuple[FloatArray, FloatArray]:
    estimates = np.asarray(estimated, dtype=np.float64).ravel()
    values = np.asarray(true, dtype=np.float64).ravel()
    if estimates.shape != values.shape:
        raise ValueError(
            f"estimated and true values differ in length: {estimates.size} vs {values.size}"
        )
    if estimates.size == 0:
        raise ValueError("no candidate policies")
    return estimates, values


def _check_k(k: int, candidates: int) -> None:
    if not 1 <= k <= candidates:
        raise ValueError(f"k must be between 1 and the {candidates} candidates, got {k}")


def rank_by_estimate(estimated: ArrayLike) -> np.ndarray:
    """Order of the candidates from the highest to the lowest estimated value.

    Formula:
        ``np.argsort(estimated, kind="stable")[::-1]``: descending; among equal estimates
        the candidate listed later comes first.

    Source:
        SCOPE-RL ``scope_rl/ope/ops.py``, ``OffPolicySelection._select_by_policy_value``
        (``estimated_ranking_index_ = np.argsort(estimated_policy_value_)[::-1]``).

    Args:
        estimated: Estimated value of each candidate.

    Returns:
        Candidate indices, best estimate first.

    """
    return np.argsort(np.asarray(estimated, dtype=np.float64).ravel(), kind="stable")[::-1]


def resolve_safety_threshold(
    behavior_value: float,
    safety_threshold: float | None = None,
    relative_safety_criteria: float | None = None,
) -> float:
    """Return the value below which a policy counts as unsafe.

    Formula:
        ``safety_threshold`` if given; else ``relative_safety_criteria · J(π_b)`` if that
        is given; else 0.0.

    Source:
        SCOPE-RL ``scope_rl/ope/ops.py``, ``OffPolicySelection._check_topk_inputs`` (which
        also adds 1e-10 to J(π_b) against division by zero; envsuite does not).

    Args:
        behavior_value: J(π_b), the true value of the behavior (baseline) policy.
        safety_threshold: An absolute threshold.
        relative_safety_criteria: A fraction of J(π_b), e.g. 0.9.

    Returns:
        The threshold.

    Raises:
        ValueError: both thresholds given.

    """
    if safety_threshold is not None and relative_safety_criteria is not None:
        raise ValueError("give safety_threshold or relative_safety_criteria, not both")
    if safety_threshold is not None:
        return float(safety_threshold)
    if relative_safety_criteria is not None:
        return float(relative_safety_criteria) * float(behavior_value)
    return 0.0


def regret_at_k(
    estimated: ArrayLike, true: ArrayLike, k: int, *, form: RegretForm = "best"
) -> float:
    """Regret@k of policy selection: how much the top-k portfolio misses the best policy.

    Formula:
        ``form="best"``: max_π J(π) − max_{π ∈ Π_k(Ĵ)} J(π), the definition in SCOPE-RL's
        documentation ("how well the best policy among the top-k policies selected by an
        estimator performs"). ``form="sum"``: Σ of the k largest true values − Σ_{π ∈
        Π_k(Ĵ)} J(π), what SCOPE-RL's code computes. Both agree at k = 1.

    Source:
        Doroudi et al. (2017), "Importance Sampling for Fair Policy Selection"; SCOPE-RL
        ``docs/documentation/sharpe_ratio.rst`` (definition) and ``scope_rl/ope/ops.py``,
        ``OffPolicySelection._select_by_policy_value`` (``regret = true_policy_value[:k]
        .sum() - true_policy_value[estimated_ranking_index_][:k].sum()``).

    Args:
        estimated: Estimated value of each candidate.
        true: True value of each candidate.
        k: Size of the portfolio, 1 <= k <= number of candidates.
        form: ``"best"`` or ``"sum"``.

    Returns:
        The regret, >= 0.

    Raises:
        ValueError: mismatched inputs, bad ``k`` or unknown ``form``.

    """
    estimates, values = _values(estimated, true)
    _check_k(k, values.size)
    chosen = values[rank_by_estimate(estimates)[:k]]
    if form == "best":
        return float(values.max() - chosen.max())
    if form == "sum":
        return float(np.sort(values)[::-1][:k].sum() - chosen.sum())
    raise ValueError(f"form must be 'best' or 'sum', got {form!r}")


@dataclass(frozen=True)
class TopKMetrics:
    """The top-k portfolio statistics for one k.

    Attributes:
        k: Size of the portfolio.
        kth: True value of the policy ranked k-th by the estimator.
        best: best@k, the highest true value in the portfolio (the return).
        worst: worst@k, the lowest true value in the portfolio.
        mean: mean@k, the mean true value of the portfolio.
        std: std@k, the standard deviation of the portfolio's true values (the risk).
        safety_violation_rate: Fraction of the portfolio with true value below the threshold.
        sharpe_ratio: SharpeRatio@k = (best@k − J(π_b)) / std@k.
        regret: regret@k (:func:`regret_at_k`, ``form="best"``).

    """

    k: int
    kth: float
    best: float
    worst: float
    mean: float
    std: float
    safety_violation_rate: float
    sharpe_ratio: float
    regret: float


def _sharpe_ratio(numerator: float, std: float) -> float:
    if math.isnan(std) or math.isnan(numerator):
        return math.nan
    if std == 0.0:
        return math.inf if numerator > 0.0 else math.nan
    return numerator / std


def top_k_metrics(
    estimated: ArrayLike,
    true: ArrayLike,
    k: int,
    *,
    behavior_value: float,
    safety_threshold: float | None = None,
    relative_safety_criteria: float | None = None,
    ddof: int = 1,
    clip_numerator: bool = True,
) -> TopKMetrics:
    """Risk-return statistics of the top-k portfolio chosen by an estimator.

    Formula:
        Π_k(Ĵ) = the k candidates with the highest estimates (:func:`rank_by_estimate`);
        best@k = max J, worst@k = min J, mean@k = mean J and std@k = std J (with ``ddof``)
        over Π_k(Ĵ); safety violation rate@k = |{π ∈ Π_k(Ĵ) : J(π) < threshold}| / k;
        SharpeRatio@k = (best@k − J(π_b)) / std@k, the numerator clipped at 0 when
        ``clip_numerator``. With ``ddof=1`` std@1 and SharpeRatio@1 are NaN; std@k = 0 gives
        +inf for a positive numerator and NaN for a zero one.

    Source:
        Kiyohara et al. (2023), "Towards Assessing and Benchmarking Risk-Return Tradeoff of
        Off-Policy Evaluation" (the paper writes std@k with 1/k, i.e. ``ddof=0``, and no
        clipping); SCOPE-RL ``scope_rl/ope/ops.py``,
        ``OffPolicySelection._obtain_topk_policy_performance`` (``topk_values.std(ddof=1)``,
        ``np.clip(best - baseline, 0, None) / std``, ``(topk_values < safety_threshold)
        .sum() / (topk + 1)``).

    Args:
        estimated: Estimated value of each candidate.
        true: True value of each candidate.
        k: Size of the portfolio, 1 <= k <= number of candidates.
        behavior_value: J(π_b), the baseline's true value (the "risk-free" return).
        safety_threshold: Absolute safety threshold (see :func:`resolve_safety_threshold`).
        relative_safety_criteria: Threshold as a fraction of J(π_b).
        ddof: Delta degrees of freedom of std@k: 1 (SCOPE-RL's code) or 0 (the paper).
        clip_numerator: Clip best@k − J(π_b) at 0 (SCOPE-RL's code) or not (the paper).

    Returns:
        A :class:`TopKMetrics`.

    Raises:
        ValueError: mismatched inputs, bad ``k`` or both thresholds given.

    """
    estimates, values = _values(estimated, true)
    _check_k(k, values.size)
    threshold = resolve_safety_threshold(behavior_value, safety_threshold, relative_safety_criteria)
    portfolio = values[rank_by_estimate(estimates)[:k]]
    best = float(portfolio.max())
    std = float(np.std(portfolio, ddof=ddof)) if k > ddof else math.nan
    numerator = best - float(behavior_value)
    if clip_numerator:
        numerator = max(numerator, 0.0)
    return TopKMetrics(
        k=k,
        kth=float(portfolio[-1]),
        best=best,
        worst=float(portfolio.min()),
        mean=math.fsum(portfolio.tolist()) / portfolio.size,  # fsum: independent of rank order
        std=std,
        safety_violation_rate=float(np.count_nonzero(portfolio < threshold)) / k,
        sharpe_ratio=_sharpe_ratio(numerator, std),
        regret=regret_at_k(estimates, values, k),
    )


def top_k_table(
    estimated: ArrayLike,
    true: ArrayLike,
    *,
    behavior_value: float,
    max_k: int | None = None,
    safety_threshold: float | None = None,
    relative_safety_criteria: float | None = None,
    ddof: int = 1,
    clip_numerator: bool = True,
) -> list[TopKMetrics]:
    """:func:`top_k_metrics` for every k = 1, ..., K.

    Formula:
        One :class:`TopKMetrics` per k; K defaults to the number of candidates.

    Source:
        SCOPE-RL ``scope_rl/ope/ops.py``,
        ``OffPolicySelection.obtain_topk_policy_value_selected_by_standard_ope`` (rows
        ``topk = 0 .. max_topk − 1``).

    Args:
        estimated: Estimated value of each candidate.
        true: True value of each candidate.
        behavior_value: J(π_b).
        max_k: Largest k (default: all candidates).
        safety_threshold: Absolute safety threshold.
        relative_safety_criteria: Threshold as a fraction of J(π_b).
        ddof: Delta degrees of freedom of std@k.
        clip_numerator: Clip the SharpeRatio numerator at 0.

    Returns:
        The rows for k = 1, ..., K.

    Raises:
        ValueError: as :func:`top_k_metrics`.

    """
    _, values = _values(estimated, true)
    last = values.size if max_k is None else max_k
    _check_k(last, values.size)
    return [
        top_k_metrics(
            estimated,
            true,
            k,
            behavior_value=behavior_value,
            safety_threshold=safety_threshold,
            relative_safety_criteria=relative_safety_criteria,
            ddof=ddof,
            clip_numerator=clip_numerator,
        )
        for k in range(1, last + 1)
    ]
