from __future__ import annotations

import math

import numpy as np
import pytest

from envsuite.evaluation.metrics.sublinearity import (
    LINEAR_EXPONENT,
    loglog_slope,
    mann_kendall,
    normal_cdf,
    sublinearity_verdict,
    verdict_rule,
)

T = np.arange(1, 1001, dtype=float)


@pytest.mark.parametrize(
    ("curve", "slope"), [(np.sqrt(T), 0.5), (3.0 * T, 1.0), (2.0 * T**0.75, 0.75)]
)
def test_loglog_slope_recovers_the_exponent(curve: np.ndarray, slope: float) -> None:
    assert loglog_slope(curve) == pytest.approx(slope, abs=1e-12)
    assert loglog_slope(curve, burn_in=0.0) == pytest.approx(slope, abs=1e-12)


def test_loglog_slope_skips_steps_without_positive_regret() -> None:
    curve = np.sqrt(T)
    curve[:50] = 0.0
    assert loglog_slope(curve, burn_in=0.0) == pytest.approx(0.5, abs=1e-12)
    assert math.isnan(loglog_slope([0.0, 0.0, 1.0], burn_in=0.0))


def test_burn_in_drops_the_first_steps() -> None:
    # a slow, steep start (t² / 10⁴ up to t = 100), then √t: the burn-in drops the start
    curve = np.sqrt(T)
    curve[:100] = T[:100] ** 2 / 10_000.0
    assert loglog_slope(curve, burn_in=0.1) == pytest.approx(0.5, abs=1e-12)
    assert loglog_slope(curve, burn_in=0.0) > 1.0
    with pytest.raises(ValueError, match="burn_in"):
        loglog_slope(curve, burn_in=1.0)


def test_mann_kendall_by_hand() -> None:
    # pairs of [1, 3, 2, 4]: + + + − + +  -> S = 4; Var = 4·3·13 / 18 = 26/3
    result = mann_kendall([1.0, 3.0, 2.0, 4.0])
    assert result.s == 4
    assert result.variance == pytest.approx(26 / 3, rel=1e-15)
    assert result.z == pytest.approx(3 / math.sqrt(26 / 3), rel=1e-15)
    assert result.p_value == pytest.approx(math.erfc(result.z / math.sqrt(2)), rel=1e-12)
    assert result.trend == "no trend"


def test_mann_kendall_tie_correction() -> None:
    # [1, 1, 2]: S = 0 + 1 + 1 = 2; Var = (3·2·11 − 2·1·9) / 18 = 8/3
    result = mann_kendall([1.0, 1.0, 2.0])
    assert result.s == 2
    assert result.variance == pytest.approx(8 / 3, rel=1e-15)
    constant = mann_kendall([5.0] * 4)
    assert (constant.s, constant.variance, constant.z, constant.p_value) == (0, 0.0, 0.0, 1.0)
    assert constant.trend == "no trend"


def test_mann_kendall_detects_monotone_series() -> None:
    down = mann_kendall(np.arange(10.0)[::-1])
    assert down.s == -45 and down.trend == "decreasing"
    up = mann_kendall(np.arange(10.0))
    assert up.s == 45 and up.trend == "increasing"
    with pytest.raises(ValueError):
        mann_kendall([1.0])


def test_normal_cdf() -> None:
    assert normal_cdf(0.0) == 0.5
    assert normal_cdf(1.959963984540054) == pytest.approx(0.975, abs=1e-12)


def test_verdicts() -> None:
    assert sublinearity_verdict(np.sqrt(T)).verdict == "sublinear"
    assert sublinearity_verdict(np.log(T + 1.0)).verdict == "sublinear"
    linear = sublinearity_verdict(0.2 * T)
    assert linear.verdict == "linear" and linear.slope == pytest.approx(1.0)
    assert linear.scaled_trend.trend == "increasing"  # 0.2 t / t^0.9 = 0.2 t^0.1
    assert sublinearity_verdict(np.zeros(100)).verdict == "sublinear"
    # three points: a √t shape, but too few for a significant trend
    short = sublinearity_verdict(np.sqrt([1.0, 2.0, 3.0]), burn_in=0.0)
    assert short.verdict == "inconclusive"
    assert short.scaled_trend.s == -3


# Curves where R_t / t falls while regret stays (nearly) linear: t^0.95 and a·t + b·√t (as
# uniform play against the best expert in hindsight has), and clearly sublinear ones.
STEEP = [T**0.95, T**0.92, 0.3 * T + 0.5 * np.sqrt(T), T + np.sqrt(T)]
SHALLOW = [T**0.5, T**0.8, np.log(T + 1.0), 5.0 * T**0.7]


@pytest.mark.parametrize("curve", STEEP + SHALLOW)
def test_the_verdict_never_contradicts_the_trend_shown_next_to_it(curve: np.ndarray) -> None:
    result = sublinearity_verdict(curve)
    if result.verdict == "linear":
        assert result.scaled_trend.trend != "decreasing"
    if result.verdict == "sublinear":
        assert result.scaled_trend.trend == "decreasing"


@pytest.mark.parametrize("curve", STEEP)
def test_growth_at_or_above_the_threshold_is_linear(curve: np.ndarray) -> None:
    result = sublinearity_verdict(curve)
    assert result.slope >= LINEAR_EXPONENT
    assert result.verdict == "linear"


@pytest.mark.parametrize("curve", SHALLOW)
def test_growth_below_the_threshold_is_sublinear(curve: np.ndarray) -> None:
    assert sublinearity_verdict(curve).verdict == "sublinear"


def test_slope_and_trend_that_disagree_are_inconclusive() -> None:
    # t^0.85 with a slow wave: the slope is below 0.9, but R_t / t^0.9 rises and falls
    # with the wave and shows no significant decrease
    result = sublinearity_verdict(T**0.85 * (1.0 + 0.5 * np.sin(T / 40.0)))
    assert result.slope < LINEAR_EXPONENT
    assert result.scaled_trend.trend == "no trend"
    assert result.verdict == "inconclusive"


def test_the_rule_in_words_uses_the_codes_threshold() -> None:
    rule = verdict_rule()
    assert rule.count(f"slope is below {LINEAR_EXPONENT:g}") == 1
    assert rule.count(f"slope is at least {LINEAR_EXPONENT:g}") == 1
    assert "slope is below 1" not in rule
    other = verdict_rule(linear_exponent=0.8, trend_points=30, alpha=0.01)
    assert "below 0.8" in other and "30 evenly spaced" in other and "α = 0.01" in other
    assert sublinearity_verdict(T**0.85, linear_exponent=0.8).verdict == "linear"
    with pytest.raises(ValueError, match="linear_exponent"):
        sublinearity_verdict(T, linear_exponent=1.5)
