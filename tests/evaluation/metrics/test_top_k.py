from __future__ import annotations

import math

import pytest

from envsuite.evaluation.metrics.top_k import (
    rank_by_estimate,
    regret_at_k,
    resolve_safety_threshold,
    top_k_metrics,
    top_k_table,
)

# Three candidates. The estimator ranks them 1 (Ĵ = 3), 0 (Ĵ = 2), 2 (Ĵ = 1), so the
# portfolios' true values are [1], [1, 5] and [1, 5, 3].
ESTIMATED = [2.0, 3.0, 1.0]
TRUE = [5.0, 1.0, 3.0]
BEHAVIOR = 2.0


def test_ranking_is_by_estimate_descending() -> None:
    assert list(rank_by_estimate(ESTIMATED)) == [1, 0, 2]


def test_ties_rank_the_later_candidate_first_as_scope_rl_does() -> None:
    assert list(rank_by_estimate([1.0, 1.0, 0.0])) == [1, 0, 2]
    assert top_k_metrics([1.0, 1.0, 0.0], [10.0, 20.0, 0.0], 1, behavior_value=0.0).best == 20.0


def test_k1_statistics_and_undefined_sharpe_ratio() -> None:
    row = top_k_metrics(ESTIMATED, TRUE, 1, behavior_value=BEHAVIOR)
    assert (row.kth, row.best, row.worst, row.mean) == (1.0, 1.0, 1.0, 1.0)
    assert math.isnan(row.std)
    assert math.isnan(row.sharpe_ratio)
    assert row.regret == 4.0  # best overall 5, best in the portfolio 1


def test_k2_and_k3_with_scope_rl_conventions() -> None:
    k2 = top_k_metrics(ESTIMATED, TRUE, 2, behavior_value=BEHAVIOR)
    # values [1, 5]: mean 3, std (ddof=1) = √(((1−3)² + (5−3)²) / 1) = 2√2
    assert (k2.kth, k2.best, k2.worst, k2.mean) == (5.0, 5.0, 1.0, 3.0)
    assert k2.std == pytest.approx(2 * math.sqrt(2), rel=1e-15)
    assert k2.sharpe_ratio == pytest.approx(3 / (2 * math.sqrt(2)), rel=1e-15)
    assert k2.regret == 0.0
    k3 = top_k_metrics(ESTIMATED, TRUE, 3, behavior_value=BEHAVIOR)
    # values [1, 5, 3]: variance (4 + 4 + 0) / 2 = 4
    assert k3.std == pytest.approx(2.0, rel=1e-15)
    assert k3.sharpe_ratio == pytest.approx(1.5, rel=1e-15)
    assert k3.kth == 3.0


def test_ddof0_gives_the_papers_formula() -> None:
    k2 = top_k_metrics(ESTIMATED, TRUE, 2, behavior_value=BEHAVIOR, ddof=0)
    assert k2.std == pytest.approx(2.0, rel=1e-15)  # √(8 / 2)
    assert k2.sharpe_ratio == pytest.approx(1.5, rel=1e-15)
    k3 = top_k_metrics(ESTIMATED, TRUE, 3, behavior_value=BEHAVIOR, ddof=0)
    assert k3.std == pytest.approx(math.sqrt(8 / 3), rel=1e-15)
    assert k3.sharpe_ratio == pytest.approx(3 / math.sqrt(8 / 3), rel=1e-15)
    k1 = top_k_metrics(ESTIMATED, TRUE, 1, behavior_value=0.0, ddof=0)
    assert k1.std == 0.0 and k1.sharpe_ratio == math.inf  # best 1 > J(π_b) = 0, no spread


def test_numerator_is_clipped_at_zero_by_default() -> None:
    clipped = top_k_metrics(ESTIMATED, TRUE, 3, behavior_value=6.0)
    assert clipped.sharpe_ratio == 0.0  # max(5 − 6, 0) / 2
    raw = top_k_metrics(ESTIMATED, TRUE, 3, behavior_value=6.0, clip_numerator=False)
    assert raw.sharpe_ratio == -0.5


def test_zero_spread_gives_inf_or_nan() -> None:
    assert top_k_metrics([1.0, 2.0], [4.0, 4.0], 2, behavior_value=1.0).sharpe_ratio == math.inf
    assert math.isnan(top_k_metrics([1.0, 2.0], [4.0, 4.0], 2, behavior_value=4.0).sharpe_ratio)


def test_safety_violation_rate_counts_values_strictly_below_the_threshold() -> None:
    rates = [
        row.safety_violation_rate
        for row in top_k_table(ESTIMATED, TRUE, behavior_value=BEHAVIOR, safety_threshold=2.5)
    ]
    assert rates == [1.0, 0.5, pytest.approx(1 / 3)]
    relative = top_k_table(ESTIMATED, TRUE, behavior_value=BEHAVIOR, relative_safety_criteria=1.25)
    assert [row.safety_violation_rate for row in relative] == rates
    at_three = top_k_metrics(ESTIMATED, TRUE, 3, behavior_value=BEHAVIOR, safety_threshold=3.0)
    assert at_three.safety_violation_rate == pytest.approx(1 / 3)  # 3 itself is safe


def test_default_safety_threshold_is_zero() -> None:
    assert resolve_safety_threshold(5.0) == 0.0
    assert (
        top_k_metrics([1.0, 2.0], [-1.0, 2.0], 2, behavior_value=0.0).safety_violation_rate == 0.5
    )
    with pytest.raises(ValueError, match="not both"):
        resolve_safety_threshold(1.0, 0.5, 0.9)


def test_regret_at_k_forms() -> None:
    assert regret_at_k(ESTIMATED, TRUE, 1) == 4.0
    assert regret_at_k(ESTIMATED, TRUE, 1, form="sum") == 4.0
    assert regret_at_k(ESTIMATED, TRUE, 2) == 0.0
    # SCOPE-RL's code: (5 + 3) − (1 + 5)
    assert regret_at_k(ESTIMATED, TRUE, 2, form="sum") == 2.0
    with pytest.raises(ValueError, match="form"):
        regret_at_k(ESTIMATED, TRUE, 1, form="max")  # type: ignore[arg-type]


def test_table_rows_and_bounds() -> None:
    table = top_k_table(ESTIMATED, TRUE, behavior_value=BEHAVIOR)
    assert [row.k for row in table] == [1, 2, 3]
    assert table[1] == top_k_metrics(ESTIMATED, TRUE, 2, behavior_value=BEHAVIOR)
    assert len(top_k_table(ESTIMATED, TRUE, behavior_value=BEHAVIOR, max_k=2)) == 2
    with pytest.raises(ValueError, match="between 1 and the 3 candidates"):
        top_k_table(ESTIMATED, TRUE, behavior_value=BEHAVIOR, max_k=4)
    with pytest.raises(ValueError, match="differ in length"):
        top_k_metrics([1.0], TRUE, 1, behavior_value=0.0)
