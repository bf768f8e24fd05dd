"""Ranking entries with uncertainty: paired bootstrap ranks, tied groups, Bradley–Terry ratings.

Entries of a board all ran the same problems (verification guarantees it), so their
bootstrap replicates are *paired*: each replicate resamples the same seeds within each task
for every entry. Ranks taken within each replicate then reflect how often one entry beats
another on the same problems, which is sharper than comparing separate intervals and never
claims an order the data does not support. Entries whose rank intervals overlap the leader
of their group are shown as tied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

import numpy as np

from envsuite.evaluation.metrics import (
    bootstrap_rating_samples,
    bootstrap_ratings,
    rank_intervals,
    tie_groups,
)
from envsuite.evaluation.metrics.bootstrap import FloatArray, Interval, check_bootstrap_args
from envsuite.evaluation.metrics.ratings import Match


def paired_replicates(
    matrices: Sequence[FloatArray],
    statistic: Callable[[FloatArray], float],
    *,
    reps: int,
    seed: int,
) -> FloatArray:
    """Stratified bootstrap replicates of a statistic for several entries, paired.

    Formula:
        Replicate r draws one (seeds, tasks) matrix of row indices — for every task
        independently, seeds with replacement — and applies the statistic to every entry's
        matrix re-indexed by it. The draws are those of
        :func:`~envsuite.evaluation.metrics.stratified_bootstrap_interval` with the same seed,
        so each entry's column of replicates is exactly the one that function uses.

    Source:
        Agarwal et al. (2021), section 4.1 (stratified bootstrap); pairing over shared
        problems as in Dror et al. (2018), "The Hitchhiker's Guide to Testing Statistical
        Significance in Natural Language Processing".

    Args:
        matrices: One (seeds, tasks) matrix per entry, all of one shape, tasks aligned.
        statistic: Aggregate of a matrix (e.g. rliable's mean or IQM).
        reps: Bootstrap replicates.
        seed: Seed of the generator.

    Returns:
        A (reps, entries) matrix.

    Raises:
        ValueError: no entries, or matrices of different shapes.
    """
    check_bootstrap_args(reps, 0.95)
    if not matrices:
        raise ValueError("no entries to rank")
    shape = matrices[0].shape
    if any(matrix.shape != shape for matrix in matrices):
        raise ValueError(f"entries ran different problems: shapes {[m.shape for m in matrices]}")
    num_runs, num_tasks = shape
    rng = np.random.default_rng(seed)
    columns = np.arange(num_tasks)[np.newaxis, :]
    replicates = np.empty((reps, len(matrices)))
    for rep in range(reps):
        rows = rng.integers(0, num_runs, size=(num_runs, num_tasks))
        for entry, matrix in enumerate(matrices):
            replicates[rep, entry] = statistic(matrix[rows, columns])
    return replicates


def oriented(interval: Interval, higher_is_better: bool) -> Interval:
    """The interval on a higher-is-better scale (negated for lower-is-better metrics)."""
    if higher_is_better:
        return interval
    return Interval(-interval.estimate, -interval.high, -interval.low, interval.confidence)


def point_ranks(estimates: Mapping[str, float], higher_is_better: bool) -> dict[str, int]:
    """Rank of each entry by its estimate: 1 + the number of strictly better entries."""
    sign = 1.0 if higher_is_better else -1.0
    return {
        name: 1 + sum(sign * other > sign * value for other in estimates.values())
        for name, value in estimates.items()
    }


def tied_ranks(
    estimates: Mapping[str, float],
    intervals: Mapping[str, tuple[int, int]],
    higher_is_better: bool,
) -> dict[str, tuple[int, bool]]:
    """Displayed rank of each entry and whether it is tied with another.

    Formula:
        :func:`~envsuite.evaluation.metrics.tie_groups` applied to the rank intervals
        (best, worst) read as intervals on −rank: walking entries from the best point rank,
        an entry joins the current group when its best rank reaches the group leader's
        worst rank. Every member of a group gets the group's first position
        (1 + the size of the groups before it), so tied entries share a rank.

    Args:
        estimates: Entry -> point estimate.
        intervals: Entry -> (best rank, worst rank) from the paired bootstrap.
        higher_is_better: Direction of the metric.

    Returns:
        Entry -> (rank, tied).
    """
    ranks = point_ranks(estimates, higher_is_better)
    as_intervals = {
        name: Interval(-float(ranks[name]), -float(worst), -float(best), 0.95)
        for name, (best, worst) in intervals.items()
    }
    result: dict[str, tuple[int, bool]] = {}
    position = 1
    for group in tie_groups(as_intervals):
        for name in group:
            result[name] = (position, len(group) > 1)
        position += len(group)
    return result


def rank_bounds(
    names: Sequence[str], replicates: FloatArray, higher_is_better: bool, confidence: float
) -> dict[str, tuple[int, int]]:
    """(best, worst) rank of each entry across paired replicates (1 is the top)."""
    oriented_samples = replicates if higher_is_better else -replicates
    return rank_intervals(list(names), oriented_samples, confidence=confidence)


def pairwise_matches(values: Mapping[str, FloatArray], higher_is_better: bool) -> list[Match]:
    """Matches between entries, one per shared problem and pair of entries.

    Formula:
        For problem p and entries a, b: a scores 1 when its value on p is better, 0 when
        worse, 0.5 when equal (as Chatbot Arena counts a vote between two models on one
        prompt).

    Args:
        values: Entry -> its per-problem values (same problems in the same order).
        higher_is_better: Direction of the metric.
    """
    sign = 1.0 if higher_is_better else -1.0
    matches: list[Match] = []
    for a, b in combinations(sorted(values), 2):
        for left, right in zip(values[a].ravel(), values[b].ravel(), strict=True):
            diff = sign * (float(left) - float(right))
            matches.append((a, b, 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5))
    return matches


def ratings_with_ranks(
    matches: Sequence[Match], *, reps: int, confidence: float, seed: int
) -> tuple[dict[str, Interval], dict[str, tuple[int, int]]]:
    """Bradley–Terry ratings with bootstrap intervals, and rank intervals from the replicates."""
    intervals = bootstrap_ratings(matches, reps=reps, confidence=confidence, seed=seed)
    players, samples = bootstrap_rating_samples(matches, reps=reps, seed=seed)
    return intervals, rank_intervals(players, samples, confidence=confidence)
