"""Bootstrap resampling shared by the metrics: seeded replicates and percentile intervals.

Every interval in :mod:`envsuite.evaluation.metrics` is a percentile bootstrap interval
drawn from a :class:`numpy.random.Generator` seeded by the caller, so the same records and
the same seed always give the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]

#: Bootstrap replicates drawn unless the caller asks for another number.
DEFAULT_REPS = 2000
#: Coverage of the intervals unless the caller asks for another.
DEFAULT_CONFIDENCE = 0.95


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided confidence interval.

    Attributes:
        estimate: The statistic on the data as observed.
        low: Lower end of the interval.
        high: Upper end of the interval.
        confidence: Nominal coverage, e.g. 0.95.

    """

    estimate: float
    low: float
    high: float
    confidence: float

    def contains(self, value: float) -> bool:
        """Return whether ``value`` lies in the closed interval [low, high]."""
        return self.low <= value <= self.high


def check_bootstrap_args(reps: int, confidence: float) -> None:
    """Validate the number of replicates and the coverage.

    Raises:
        ValueError: ``reps < 1`` or ``confidence`` not strictly between 0 and 1.

    """
    if reps < 1:
        raise ValueError(f"reps must be at least 1, got {reps}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")


def percentile_interval(
    replicates: ArrayLike, confidence: float = DEFAULT_CONFIDENCE
) -> tuple[float, float]:
    """Percentile interval of bootstrap replicates.

    Formula:
        [q(α/2), q(1 − α/2)] with α = 1 − confidence and q the empirical quantile of the
        replicates, linearly interpolated (numpy's default ``np.percentile`` method).
        NaN replicates (statistics undefined on a resample) are ignored.

    Source:
        Efron & Tibshirani (1993), "An Introduction to the Bootstrap", ch. 13; the
        ``method="percentile"`` branch of ``arch.bootstrap.IIDBootstrap.conf_int``, which
        rliable's ``get_interval_estimates`` (``rliable/library.py``) calls.

    Args:
        replicates: The statistic on each bootstrap resample.
        confidence: Nominal coverage in (0, 1).

    Returns:
        ``(low, high)``; ``(nan, nan)`` when every replicate is NaN.

    Raises:
        ValueError: ``confidence`` outside (0, 1) or no replicates.

    """
    check_bootstrap_args(1, confidence)
    values = np.asarray(replicates, dtype=np.float64).ravel()
    if values.size == 0:
        raise ValueError("percentile_interval needs at least one replicate")
    values = values[~np.isnan(values)]
    if values.size == 0:
        return (math.nan, math.nan)
    alpha = 1.0 - confidence
    low, high = np.percentile(values, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)])
    return (float(low), float(high))


def bootstrap_interval(
    values: ArrayLike,
    statistic: Callable[[FloatArray], float] = np.mean,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> Interval:
    """IID bootstrap interval of a statistic of a one-dimensional sample.

    Formula:
        Draw ``reps`` resamples of size n with replacement, evaluate the statistic on each
        and take the percentile interval (see :func:`percentile_interval`).

    Source:
        Efron & Tibshirani (1993), "An Introduction to the Bootstrap", ch. 6 and 13.

    Args:
        values: The sample (one value per independent unit: problem, episode, ...).
        statistic: Function of a 1-D float array returning a float (default: mean).
        reps: Number of bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the :class:`numpy.random.Generator` drawing the resamples.

    Returns:
        The statistic on ``values`` and its interval.

    Raises:
        ValueError: empty sample, ``reps < 1`` or ``confidence`` outside (0, 1).

    """
    check_bootstrap_args(reps, confidence)
    sample = np.asarray(values, dtype=np.float64).ravel()
    if sample.size == 0:
        raise ValueError("bootstrap_interval needs a non-empty sample")
    if statistic is np.mean:
        replicates = seeded_mean_replicates(sample, seed, reps)
    else:
        rng = np.random.default_rng(seed)
        replicates = np.empty(reps)
        for rep in range(reps):
            replicates[rep] = statistic(sample[rng.integers(0, sample.size, size=sample.size)])
    low, high = percentile_interval(replicates, confidence)
    return Interval(float(statistic(sample)), low, high, confidence)


#: Most resampled values :func:`mean_replicates` draws at once (512 KB of indices). Blocks
#: this small reuse the same memory, where blocks of several MB are freshly mapped by each
#: call and cost more than the draws themselves; the replicates are the same either way.
MEAN_BLOCK_VALUES = 1 << 16


def mean_replicates(sample: FloatArray, rng: np.random.Generator, reps: int) -> FloatArray:
    """The replicates of the mean the per-resample loop computes, in blocks of resamples.

    The same numbers as the loop, to the bit, at a fraction of its cost (the loop's Python
    work per resample dominated the summary of a short run): ``integers`` fills a block
    row by row from the same stream the loop draws from one row at a time, and a row's
    ``sum / n`` is ``np.mean`` of it (the same pairwise sum, then the division).
    """
    return _block_means(sample, _index_blocks(rng, sample.size, reps), reps)


def _index_blocks(rng: np.random.Generator, n: int, reps: int) -> Iterator[NDArray[np.int64]]:
    """The resampled indices of ``reps`` resamples of ``n``, drawn block by block.

    Lazily: one block at a time is in memory, unless the caller keeps them.
    """
    rows = max(1, MEAN_BLOCK_VALUES // n)
    for start in range(0, reps, rows):
        yield rng.integers(0, n, size=(min(reps, start + rows) - start, n))


def _block_means(sample: FloatArray, blocks: Iterable[NDArray[np.int64]], reps: int) -> FloatArray:
    """The mean of ``sample`` over each resample (row) of ``blocks``."""
    replicates = np.empty(reps)
    start = 0
    for indices in blocks:
        stop = start + len(indices)
        replicates[start:stop] = sample[indices].sum(axis=1) / sample.size
        start = stop
    return replicates


#: Most resampled indices :func:`seeded_mean_replicates` keeps for its next call (8 MB).
MAX_KEPT_INDICES = 1 << 20
#: The last draw :func:`seeded_mean_replicates` kept: (seed, n, reps) and its index blocks.
_kept_draw: tuple[tuple[int, int, int], list[NDArray[np.int64]]] | None = None


def seeded_mean_replicates(sample: FloatArray, seed: int, reps: int) -> FloatArray:
    """``mean_replicates(sample, np.random.default_rng(seed), reps)``, to the bit.

    A summary bootstraps several statistics of the same seeds (success rate, mean return,
    score, final regret, ...) with the same generator seed: their resamples are the same
    indices, and drawing them was most of the summary's cost. The last draw (for an
    ``int`` seed, at most :data:`MAX_KEPT_INDICES` indices) is kept and reused by the
    next call with the same seed, sample size and ``reps``; only the gather and the sums
    are done again. The blocks are those :func:`mean_replicates` draws, so the numbers
    are the same.
    """
    global _kept_draw
    n = sample.size
    if type(seed) is not int or n * reps > MAX_KEPT_INDICES:
        return mean_replicates(sample, np.random.default_rng(seed), reps)
    key = (seed, n, reps)
    kept = _kept_draw
    if kept is None or kept[0] != key:
        kept = _kept_draw = (key, list(_index_blocks(np.random.default_rng(seed), n, reps)))
    return _block_means(sample, kept[1], reps)
