"""The Wilson score interval of a binomial proportion (win rates, success counts).

The percentile bootstrap of :mod:`~envsuite.evaluation.metrics.bootstrap` collapses to a
single point when every trial has the same outcome (10 wins of 10 gives [1, 1]); the
Wilson interval does not, and it keeps close to its nominal coverage for small n, where
the normal ("Wald") interval does not.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from envsuite.evaluation.metrics.bootstrap import DEFAULT_CONFIDENCE, Interval


def wilson_interval(
    successes: int, trials: int, *, confidence: float = DEFAULT_CONFIDENCE
) -> Interval:
    """The proportion ``successes / trials`` with its Wilson score interval.

    Formula:
        With p̂ = x/n and z the 1 − α/2 quantile of the standard normal,
        centre = (p̂ + z²/2n) / (1 + z²/n),
        half-width = z/(1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/4n²);
        the interval is [centre − half-width, centre + half-width] (clipped to [0, 1]
        against rounding). It inverts the score test of H0: p = p0.

    Source:
        Wilson (1927), "Probable Inference, the Law of Succession, and Statistical
        Inference", JASA 22; Brown, Cai & DasGupta (2001), "Interval Estimation for a
        Binomial Proportion", Statistical Science 16, eq. (4); the ``method="wilson"``
        branch of ``statsmodels.stats.proportion.proportion_confint``.

    Args:
        successes: x, the number of successes (wins), 0 <= x <= n.
        trials: n, the number of trials, n >= 1.
        confidence: Nominal coverage in (0, 1).

    Returns:
        The :class:`~envsuite.evaluation.metrics.bootstrap.Interval` with estimate x/n.

    Raises:
        ValueError: ``trials < 1``, ``successes`` outside [0, trials], or ``confidence``
            outside (0, 1).

    """
    if trials < 1:
        raise ValueError(f"a proportion needs at least one trial, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in [0, {trials}], got {successes}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    z = NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)
    n = float(trials)
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    # The exact ends at x = 0 and x = n are 0 and 1; rounding can leave them a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high, confidence)
