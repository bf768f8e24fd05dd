"""Pointwise bootstrap bands around a mean curve (e.g. mean cumulative regret over t)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    FloatArray,
    check_bootstrap_args,
)

#: Steps at which a band is computed unless told otherwise (evenly spaced, last included).
DEFAULT_POINTS = 500


@dataclass(frozen=True)
class CurveBand:
    """A mean curve with a pointwise interval, at a subset of its steps.

    Attributes:
        steps: The 1-based steps t the band is given at (increasing; the last is T).
        mean: Mean over curves at those steps.
        low: Lower end of the pointwise interval.
        high: Upper end of the pointwise interval.
        n_curves: Curves averaged.
        confidence: Nominal pointwise coverage.

    """

    steps: NDArray[np.int64]
    mean: FloatArray
    low: FloatArray
    high: FloatArray
    n_curves: int
    confidence: float


def curve_band(
    curves: ArrayLike,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    points: int = DEFAULT_POINTS,
) -> CurveBand:
    """Mean of several curves with a pointwise percentile bootstrap band.

    Formula:
        For E curves of length T, each replicate redraws E curves with replacement (whole
        curves, so each replicate is a mean curve) and the band at t is the percentile
        interval of the replicates' values at t. The resamples are drawn in the same
        order as :func:`~envsuite.evaluation.metrics.bootstrap.bootstrap_interval` draws
        them, so with the same seed the band at T is that function's interval of the
        final values (up to floating-point rounding).

    Source:
        Efron & Tibshirani (1993), "An Introduction to the Bootstrap", ch. 13 (percentile
        intervals), applied at each t.

    Args:
        curves: Matrix (E, T), one curve per row.
        reps: Bootstrap resamples.
        confidence: Nominal pointwise coverage in (0, 1).
        seed: Seed of the :class:`numpy.random.Generator` drawing the resamples.
        points: At most this many steps, evenly spaced, T always among them (bounds the
            memory of long curves: reps x points values).

    Returns:
        A :class:`CurveBand`.

    Raises:
        ValueError: not a non-empty 2-D matrix, ``points < 1``, or bad ``reps`` /
            ``confidence``.

    """
    check_bootstrap_args(reps, confidence)
    matrix = np.asarray(curves, dtype=np.float64)
    if matrix.ndim != 2 or matrix.size == 0:
        raise ValueError(f"curves must be a non-empty (episodes, T) matrix, got {matrix.shape}")
    if points < 1:
        raise ValueError(f"points must be at least 1, got {points}")
    count, length = matrix.shape
    columns = np.unique(np.linspace(0, length - 1, min(length, points)).round().astype(np.int64))
    sampled = matrix[:, columns]
    rng = np.random.default_rng(seed)
    replicates = np.empty((reps, columns.size))
    for rep in range(reps):
        replicates[rep] = sampled[rng.integers(0, count, size=count)].mean(axis=0)
    alpha = 1.0 - confidence
    low, high = np.percentile(replicates, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)], 0)
    return CurveBand(
        steps=columns + 1,
        mean=sampled.mean(axis=0),
        low=low,
        high=high,
        n_curves=count,
        confidence=confidence,
    )
