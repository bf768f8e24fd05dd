"""No-regret tests: whether a cumulative regret curve grows sublinearly in t.

Two views of one curve R_1, ..., R_T: the least-squares slope of log R_t against log t
(about 1 for linear regret, 1/2 for √t, below 1 for any sublinear power), and a
Mann–Kendall trend test on R_t / t^0.9 (decreasing when regret grows slower than t^0.9).
:func:`sublinearity_verdict` combines them into one verdict; :func:`verdict_rule` states
the rule in the words reports print.

Both look only at t after a burn-in (by default the first 10% of steps are dropped): early
steps carry most of the noise and, on a log-t axis, the most leverage, while the question
is about the growth rate at large t.

Why one exponent, 0.9, for both tests. A finite run cannot tell t^0.95 from t, so "no
regret" is judged with a margin: regret counts as sublinear when it grows detectably slower
than t^0.9. The slope compares the growth exponent with 0.9 directly; the trend test asks
the same question with a significance level, by testing whether R_t / t^0.9 falls. An
earlier rule tested the average regret R_t / t, which falls for linear regret too whenever
regret is a·t + b·√t (uniform play against the best expert in hindsight) or early noise
settles: on the shipped decision envs (the six configurations of tasks/decision-regret.yaml
at horizons 50, 100, 200, 300 and 500, each with 5 seeds x 3 attempts and with 20 seeds x 1:
60 cases per agent) that trend read "decreasing" for uniform random play in 29 of 60
cases, and reports showed "linear" next to "decreasing (p < 0.0001)", the oracle on the
hard bandit among them. Testing R_t / t^0.9 instead, uniform random play's trend is
increasing and its verdict linear in 60 of 60 cases; the oracle's verdict is sublinear in
50 of the 50 cases off the hard bandit, and no case shows a verdict that contradicts its
trend. Where the slope and the trend disagree the verdict says so (inconclusive): the
oracle on the hard bandit at 200 steps x 20 seeds has slope 0.896 and no significant trend.
No finite-horizon test can call every linear curve linear: a·t + b·√t with b large against
a bends enough over a short run to read sublinear.

Why 0.9. On those cases uniform random play's slopes were 0.93-1.03 and the oracles'
0.07-0.96. Every oracle slope of 0.9 or more is on the hard bandit (arm gaps of a few
hundredths), whose oracle regret is still near-linear at these horizons: the verdict reads
linear there (7 of its 10 cases), which is what the curve shows over that horizon.

Why 20 thinned points. R_t / t^0.9 is a running quantity, strongly serially dependent;
Mann–Kendall assumes independent values and, fed every step of a long curve, finds a
"significant" trend in almost any curve. Twenty evenly spaced steps keep most of that
dependence out, while the smallest p-value the test can reach (S = ±190, p ≈ 1e-9) stays
far below α = 0.05.
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
#: Growth exponent from which regret counts as linear: the slope threshold of the verdict
#: and the power of t the trend test divides R_t by.
LINEAR_EXPONENT = 0.9
#: Evenly spaced steps of R_t / t^LINEAR_EXPONENT the trend test sees.
TREND_POINTS = 20
#: Significance level of the trend test.
TREND_ALPHA = 0.05


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
        scaled_trend: :func:`mann_kendall` of R_t / t^e at the thinned steps, e the
            verdict's linear exponent (:data:`LINEAR_EXPONENT` unless told otherwise).
        verdict: ``"sublinear"``, ``"linear"`` or ``"inconclusive"``.
        linear_exponent: The e the slope was compared with and R_t was scaled by.

    """

    slope: float
    scaled_trend: MannKendall
    verdict: Verdict
    linear_exponent: float = LINEAR_EXPONENT


def _exponent(value: float) -> str:
    return f"{value:g}"


def verdict_rule(
    *,
    alpha: float = TREND_ALPHA,
    burn_in: float = DEFAULT_BURN_IN,
    linear_exponent: float = LINEAR_EXPONENT,
    trend_points: int = TREND_POINTS,
) -> str:
    """The rule :func:`sublinearity_verdict` applies, in words, from the same constants.

    Reports print this sentence, so what they say is what the code does.
    """
    e = _exponent(linear_exponent)
    return (
        f"Log-log slope: least-squares slope of log R_t on log t after the first "
        f"{100 * burn_in:g}% of steps (1: linear, 0.5: √t). Trend: Mann–Kendall test "
        f"(α = {alpha:g}) of R_t / t^{e} at {trend_points} evenly spaced steps after the same "
        f"burn-in. Verdict: **sublinear** when the slope is below {e} and R_t / t^{e} "
        f"decreases significantly (or there is no positive regret at all); **linear** when "
        f"the slope is at least {e} and R_t / t^{e} does not decrease significantly; "
        "**inconclusive** when the two disagree. Both ask whether R_t grows slower than "
        f"t^{e}: a margin below 1, because at these horizons t^0.95 cannot be told from t, "
        "and a curve a·t + b·√t (uniform play against the best expert in hindsight) has a "
        "falling R_t / t although its regret is linear."
    )


def sublinearity_verdict(
    cumulative_regret: ArrayLike,
    *,
    alpha: float = TREND_ALPHA,
    burn_in: float = DEFAULT_BURN_IN,
    linear_exponent: float = LINEAR_EXPONENT,
    trend_points: int = TREND_POINTS,
) -> SublinearityVerdict:
    """Combine the log-log slope and a trend test into one verdict on one threshold.

    Formula:
        Over the steps after the burn-in, with e = ``linear_exponent``: ``"sublinear"``
        when R_t <= 0 throughout (no regret at all), or when the slope is below e and
        R_t / t^e decreases significantly; ``"linear"`` when the slope is at least e and
        R_t / t^e does not decrease significantly; ``"inconclusive"`` otherwise (the two
        tests disagree: a borderline curve, or one too short or noisy for the trend test).
        Both tests ask one question, whether R_t grows slower than t^e, so a verdict never
        contradicts the trend shown next to it: ``linear`` never sits next to a
        significant decrease, ``sublinear`` always does (or next to no regret). The trend
        test sees R_t / t^e at ``trend_points`` evenly spaced steps only (see the module
        docstring for why).

    Source:
        Sublinear regret means R_T / T → 0 (Cesa-Bianchi & Lugosi, 2006, section 2.1); the
        two tests are :func:`loglog_slope` and :func:`mann_kendall`. The exponent 0.9, the
        scaling by t^e and the thinning are envsuite's conventions (module docstring).

    Args:
        cumulative_regret: R_1, ..., R_T.
        alpha: Significance level of the trend test.
        burn_in: Fraction of the first steps to leave out, in [0, 1).
        linear_exponent: e: growth exponent from which regret counts as linear, in (0, 1].
        trend_points: How many evenly spaced values of R_t / t^e the trend test sees.

    Returns:
        A :class:`SublinearityVerdict`.

    Raises:
        ValueError: a bad curve (fewer than two steps after the burn-in) or bad options.

    """
    if trend_points < 3:
        raise ValueError(f"trend_points must be >= 3, got {trend_points}")
    if not 0.0 < linear_exponent <= 1.0:
        raise ValueError(f"linear_exponent must be in (0, 1], got {linear_exponent}")
    steps, curve = _window(cumulative_regret, burn_in)
    chosen = np.unique(np.linspace(0, curve.size - 1, min(trend_points, curve.size)).astype(int))
    scaled = curve[chosen] / steps[chosen] ** linear_exponent
    trend = mann_kendall(scaled, alpha=alpha)
    slope = loglog_slope(cumulative_regret, burn_in=burn_in)
    decreasing = trend.trend == "decreasing"
    verdict: Verdict = "inconclusive"
    if not np.any(curve > 0.0) or (decreasing and slope < linear_exponent):
        verdict = "sublinear"
    elif slope >= linear_exponent and not decreasing:
        verdict = "linear"
    return SublinearityVerdict(
        slope=slope, scaled_trend=trend, verdict=verdict, linear_exponent=linear_exponent
    )
