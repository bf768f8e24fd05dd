from __future__ import annotations

import pytest

from envsuite.evaluation.metrics.exploration import (
    exploration_from_records,
    min_frac,
    opt_frac,
    optimal_pulls_from_records,
    suffix_failure,
    suffix_failure_frequency,
)
from tests.evaluation.metrics.record_factory import make_record


def test_opt_frac() -> None:
    assert opt_frac([0, 1, 1, 2], [1]) == 0.5
    assert opt_frac([0, 1, 1, 2], [1, 2]) == 0.75
    with pytest.raises(ValueError, match="at least one arm"):
        opt_frac([0, 1], [])


def test_min_frac_is_rescaled_by_the_number_of_arms() -> None:
    # pulls per arm: 2, 3, 1 over 6 steps -> least 1/6, times K = 3 -> 1/2
    assert min_frac([0, 0, 1, 1, 1, 2], 3) == 0.5
    assert min_frac([0, 0, 1, 1, 1, 2], 3, normalize=False) == pytest.approx(1 / 6)
    assert min_frac([0, 1, 2, 0, 1, 2], 3) == 1.0
    assert min_frac([0, 0, 1, 1, 1, 2], 4) == 0.0  # arm 3 never pulled
    with pytest.raises(ValueError):
        min_frac([0, 3], 3)


def test_suffix_failure_looks_at_the_last_half() -> None:
    # T = 5: the suffix starts at index ⌊2.5⌋ = 2
    assert suffix_failure([1, 1, 0, 0, 0], [1]) is True
    assert suffix_failure([0, 0, 0, 0, 1], [1]) is False
    assert suffix_failure([1, 0, 1, 0, 0], [1]) is False
    assert suffix_failure([1, 0, 1, 0, 0], [1], start=0.6) is True
    # T = 7: the suffix starts at index ⌊3.5⌋ = 3, so the pull at index 3 counts
    assert suffix_failure([0, 0, 0, 1, 0, 0, 0], [1]) is False
    with pytest.raises(ValueError, match="start"):
        suffix_failure([1], [1], start=1.0)


def test_suffix_failure_frequency() -> None:
    episodes = [[1, 1, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 1, 0, 0]]
    assert suffix_failure_frequency(episodes, [1]) == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="no episodes"):
        suffix_failure_frequency([], [1])


def test_exploration_from_pseudo_regret_records() -> None:
    records = [
        make_record(seed=0, curves={"regret": [0.3, 0.0, 0.3, 0.3]}),  # OptFrac 1/4, suffix fails
        make_record(
            seed=1, curves={"regret": [0.0, 0.0, 0.0, 0.1]}
        ),  # OptFrac 3/4, suffix holds one
        make_record(seed=2, infra_error="env crash"),
    ]
    pulls = optimal_pulls_from_records(records)
    assert [list(p) for p in pulls] == [[False, True, False, False], [True, True, True, False]]
    assert exploration_from_records(records) == (0.5, 0.5)
