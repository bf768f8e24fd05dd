"""Ranks from ratings: rank intervals over bootstrap replicates and statistically tied groups.

Leaderboards rank players by rating; these helpers say how sure that order is, from the
bootstrap replicates and intervals of :mod:`~envsuite.evaluation.metrics.ratings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    FloatArray,
    Interval,
    check_bootstrap_args,
)


def rank_intervals(
    players: Sequence[str], samples: FloatArray, *, confidence: float = DEFAULT_CONFIDENCE
) -> dict[str, tuple[int, int]]:
    """Range of ranks each player takes across bootstrap replicates.

    Formula:
        In each replicate, rank_i = 1 + |{j : r_j > r_i}| among the players rated there;
        the interval is [lower α/2 quantile, upper 1 − α/2 quantile] of a player's ranks
        (numpy's ``"lower"`` and ``"higher"`` methods, so the ends are ranks that occurred).

    Source:
        Bootstrap rank confidence intervals, e.g. Hall & Miller (2009), "Using the Bootstrap
        to Quantify the Authority of an Empirical Ranking".

    Args:
        players: Names of the columns of ``samples``.
        samples: (reps, players) ratings, NaN where a player was not rated.
        confidence: Nominal coverage in (0, 1).

    Returns:
        Player -> (best rank, worst rank), 1 being the top.

    Raises:
        ValueError: shapes disagree, bad ``confidence``, or a player never rated.

    """
    check_bootstrap_args(1, confidence)
    ratings = np.asarray(samples, dtype=np.float64)
    if ratings.ndim != 2 or ratings.shape[1] != len(players):
        raise ValueError(f"samples must be (reps, {len(players)}), got {ratings.shape}")
    better = (ratings[:, np.newaxis, :] > ratings[:, :, np.newaxis]).sum(axis=2)
    ranks = np.where(np.isnan(ratings), np.nan, 1.0 + better)
    alpha = 1.0 - confidence
    result = {}
    for i, name in enumerate(players):
        column = ranks[:, i][~np.isnan(ranks[:, i])]
        if column.size == 0:
            raise ValueError(f"player {name!r} is rated in no replicate")
        low = np.percentile(column, 100.0 * alpha / 2.0, method="lower")
        high = np.percentile(column, 100.0 * (1.0 - alpha / 2.0), method="higher")
        result[name] = (int(low), int(high))
    return result


def tie_groups(intervals: Mapping[str, Interval]) -> list[list[str]]:
    """Partition players into groups that are statistically tied, best group first.

    Formula:
        Sort players by estimate (descending; name breaks ties). The first player leads a
        group; each next player joins the current group when its interval reaches the
        leader's (high >= leader's low), and otherwise leads a new group. Every member of a
        group overlaps its leader, though two members need not overlap each other.

    Source:
        A greedy reading of overlapping confidence intervals, as leaderboards that report
        "statistically tied" ranks do (e.g. LMSYS Chatbot Arena).

    Args:
        intervals: Player -> rating interval (e.g. from :func:`bootstrap_ratings`).

    Returns:
        The groups, each listed best first.

    """
    order = sorted(intervals, key=lambda name: (-intervals[name].estimate, name))
    groups: list[list[str]] = []
    for name in order:
        if groups and intervals[name].high >= intervals[groups[-1][0]].low:
            groups[-1].append(name)
        else:
            groups.append([name])
    return groups
