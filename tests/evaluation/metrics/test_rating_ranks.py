from __future__ import annotations

import numpy as np

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.rating_ranks import rank_intervals, tie_groups


def test_rank_intervals_by_hand() -> None:
    samples = np.array([[3.0, 2.0, 1.0], [2.0, 3.0, 1.0], [3.0, 2.0, 1.0], [3.0, 2.0, 1.0]])
    # ranks of a: 1, 2, 1, 1; of b: 2, 1, 2, 2; of c: always 3
    assert rank_intervals(["a", "b", "c"], samples, confidence=0.5) == {
        "a": (1, 2),
        "b": (1, 2),
        "c": (3, 3),
    }
    with_gap = samples.copy()
    with_gap[1, 2] = np.nan
    assert rank_intervals(["a", "b", "c"], with_gap, confidence=0.5)["c"] == (3, 3)


def test_tie_groups_follow_overlap_with_the_group_leader() -> None:
    intervals = {
        "a": Interval(1200.0, 1100.0, 1300.0, 0.95),
        "b": Interval(1150.0, 1050.0, 1250.0, 0.95),
        "c": Interval(900.0, 850.0, 950.0, 0.95),
        "d": Interval(880.0, 800.0, 960.0, 0.95),
    }
    assert tie_groups(intervals) == [["a", "b"], ["c", "d"]]
    assert tie_groups({}) == []
