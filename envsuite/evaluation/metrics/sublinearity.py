"""No-regret tests: whether a cumulative regret curve grows sublinearly in t.

Two views of one curve R_1, ..., R_T: the least-squares slope of log R_t against log t
(about 1 for linear regret, 1/2 for √t, below 1 for any sublinear power), and a
Mann–Kendall trend test on the average regret R_t / t (decreasing when regret is
sublinear). :func:`sublinearity_verdict` combines them.

Both look only at t after a burn-in (by default the first 10% of steps are dropped): early
steps carry most of the noise and, on a log-t axis, the most leverage, while the question
is about the growth rate at large t.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.bootstrap import FloatArray

Trend = Literal["decreasing", "no trend", "increasing"]
Verdict = Literal["sublinear", "linear", "inconclusive"]

#: Fraction of the first steps the tests leave out unless told otherwise.
DEFAULT_BURN_IN = 0.1


def normal_cdf(x: float) -> float:
    """Return the standard normal distribution function Φ(x) = (1 + erf(x / √2)) / 2."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _window(cumulative_regret: ArrayLike, burn_in: float) -> tuple[FloatArray, FloatArray]:
    curve = np.asarray(cumulative_regret, dtype=np.float64)
    if curve.ndim != 1 or curve.size == 0:
        raise ValueError(f"cumulative_regret must be a non-empty 1-D curve, got {curve.shape}")
    if not 0.0 <= burn_in < 1.0:
        raise ValueError(f"burn_in must be in [0, 1), got {burn_in}")
    first = int(burn_in * curve.size)
    steps = np.arange(1, curve.size + 1, dtype=np.float64)
    return steps[first:], curve[first:]


def loglog_slope(cumulative_regret: ArrayLike, *, burn_in: float = DEFAULT_BURN_IN) -> float:
    """Growth exponent of a regret curve: the slope of log R_t against log t.

    Formula:
        Least-squares b in log R_t = a + b log t over the steps t (1-based) after the first
        ⌊burn_in · T⌋ where R_t > 0 (steps with R_t <= 0 have no logarithm and are
        skipped). R_t = c·t^β gives exactly β; b < 1 suggests sublinear regret.

    Source:
        The standard empirical check of regret rates, e.g. Lattimore & Szepesvári (2020),
        "Bandit Algorithms", chapter 4 (regret is sublinear iff R_T / T → 0).

    Args:
        cumulative_regret: R_1, ..., R_T.
        burn_in: Fraction of the first steps to leave out, in [0, 1).

    Returns:
        The slope; NaN when fewer than two steps qualify.

    Raises:
        ValueError: not a non-empty 1-D curve or ``burn_in`` outside [0, 1).

    """
    steps, curve = _window(cumulative_regret, burn_in)
    positive = curve > 0.0
    if np.count_nonzero(positive) < 2:
        return math.nan
    x = np.log(steps[positive])
    y = np.log(curve[positive])
    x_centred = x - x.mean()
    return float(np.dot(x_centred, y - y.mean()) / np.dot(x_centred, x_centred))


@dataclass(frozen=True)
class MannKendall:
    """Result of a Mann–Kendall trend test.

    Attributes:
        s: The statistic S = Σ_{i<j} sign(x_j − x_i).
        variance: Var(S) under no trend, corrected for ties.
        z: The continuity-corrected normal score.
        p_value: Two-sided p-value 2(1 − Φ(|z|)).
        trend: ``"decreasing"``/``"increasing"`` when p < alpha, else ``"no trend"``.

    """

    s: int
    variance: float
    z: float
    p_value: float
    trend: Trend


def mann_kendall(values: ArrayLike, *, alpha: float = 0.05) -> MannKendall:
    """Mann–Kendall test for a monotonic trend, with the normal approximation.

    Formula:
        S = Σ_{i<j} sign(x_j − x_i); Var(S) = [n(n−1)(2n+5) − Σ_g t_g(t_g−1)(2t_g+5)] / 18
        with t_g the sizes of groups of equal values; z = (S − 1)/√Var(S) if S > 0,
        (S + 1)/√Var(S) if S < 0, 0 if S = 0; p = 2(1 − Φ(|z|)). With Var(S) = 0 (fewer
        than two distinct values) z = 0 and p = 1.

    Source:
        Mann (1945), "Nonparametric Tests Against Trend"; Kendall (1975), "Rank Correlation
        Methods"; the tie correction as in Hipel & McLeod (1994), "Time Series Modelling
        of Water Resources and Environmental Systems".

    Args:
        values: The series x_1, ..., x_n in time order.
        alpha: Significance level of the two-sided test.

    Returns:
        A :class:`MannKendall`.

    Raises:
        ValueError: fewer than two values, NaNs, or ``alpha`` outside (0, 1).

    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size < 2 or np.any(np.isnan(x)):
        raise ValueError("mann_kendall needs at least two values and no NaN")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    n = x.size
    s = 0
    for i in range(n - 1):
        s += int(np.sign(x[i + 1 :] - x[i]).sum())
    _, counts = np.unique(x, return_counts=True)
    ties = float(np.sum(counts * (counts - 1.0) * (2.0 * counts + 5.0)))
    variance = (n * (n - 1.0) * (2.0 * n + 5.0) - ties) / 18.0
    z = 0.0
    if variance > 0.0 and s != 0:
        z = (s - math.copysign(1.0, s)) / math.sqrt(variance)
    p_value = 2.0 * (1.0 - normal_cdf(abs(z)))
    trend: Trend = "no trend"
    if p_value < alpha:
        trend = "decreasing" if z < 0 else "increasing"
    return MannKendall(s=s, variance=variance, z=z, p_value=p_value, trend=trend)


@dataclass(frozen=True)
class SublinearityVerdict:
    """Whether a regret curve looks sublinear, and the evidence.

    Attributes:
        slope: :func:`loglog_slope` of the curve (NaN when regret is never positive).
        average_regret_trend: :func:`mann_kendall` of R_t / t.
        verdict: ``"sublinear"``, ``"linear"`` or ``"inconclusive"``.

    """

    slope: float
    average_regret_trend: MannKendall
    verdict: Verdict


def sublinearity_verdict(
    cumulative_regret: ArrayLike,
    *,
    alpha: float = 0.05,
    burn_in: float = DEFAULT_BURN_IN,
    linear_slope: float = 0.9,
    trend_points: int = 20,
) -> SublinearityVerdict:
    """Combine the log-log slope and the trend of R_t / t into one verdict.

    Formula:
        Over the steps after the burn-in: ``"sublinear"`` when R_t <= 0 throughout (no
        regret at all), or when the slope is below ``linear_slope`` and R_t / t decreases
        significantly; ``"linear"`` when the slope is at least ``linear_slope`` (R_t grows
        like t^0.9 or faster: linear for any practical horizon); ``"inconclusive"``
        otherwise (a shallow slope without a significant trend, typical of short or noisy
        runs). The trend test sees R_t / t at ``trend_points`` evenly spaced steps only:
        a running average is strongly serially dependent, and Mann–Kendall, which assumes
        independent values, finds a "significant" trend in almost any long curve when fed
        every step.

    Source:
        Sublinear regret means R_T / T → 0 (Cesa-Bianchi & Lugosi, 2006, section 2.1); the
        two tests are :func:`loglog_slope` and :func:`mann_kendall`. The thinning and the
        0.9 threshold are envsuite's conventions.

    Args:
        cumulative_regret: R_1, ..., R_T.
        alpha: Significance level of the trend test.
        burn_in: Fraction of the first steps to leave out, in [0, 1).
        linear_slope: Log-log slope from which regret counts as linear.
        trend_points: How many evenly spaced values of R_t / t the trend test sees.

    Returns:
        A :class:`SublinearityVerdict`.

    Raises:
        ValueError: a bad curve (fewer than two steps after the burn-in) or bad options.

    """
    if trend_points < 3:
        raise ValueError(f"trend_points must be >= 3, got {trend_points}")
    steps, curve = _window(cumulative_regret, burn_in)
    chosen = np.unique(np.linspace(0, curve.size - 1, min(trend_points, curve.size)).astype(int))
    trend = mann_kendall(curve[chosen] / steps[chosen], alpha=alpha)
    slope = loglog_slope(cumulative_regret, burn_in=burn_in)
    verdict: Verdict = "inconclusive"
    if not np.any(curve > 0.0) or (trend.trend == "decreasing" and slope < linear_slope):
        verdict = "sublinear"
    elif slope >= linear_slope:
        verdict = "linear"
    return SublinearityVerdict(slope=slope, average_regret_trend=trend, verdict=verdict)
