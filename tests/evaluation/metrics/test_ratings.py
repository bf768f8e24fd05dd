from __future__ import annotations

import math

import numpy as np
import pytest

from envsuite.evaluation.metrics.ratings import (
    ELO_SCALE,
    bootstrap_rating_samples,
    bootstrap_ratings,
    bradley_terry_ratings,
    bradley_terry_strengths,
    to_elo,
)


def _results(
    a: str, b: str, wins_a: int, wins_b: int, ties: int = 0
) -> list[tuple[str, str, float]]:
    return [(a, b, 1.0)] * wins_a + [(a, b, 0.0)] * wins_b + [(b, a, 0.5)] * ties


def test_elo_scale() -> None:
    assert pytest.approx(400 / math.log(10)) == ELO_SCALE


def test_two_players_match_the_closed_form() -> None:
    # MLE: P(a beats b) = 3/4, so the gap is 400·log10(3/1)
    ratings = bradley_terry_ratings(_results("a", "b", 3, 1), ridge=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=1e-8)
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1000.0, abs=1e-9)


def test_ties_count_as_half_a_win() -> None:
    # 3 wins, 1 loss, 2 ties: a scores 4 of 6, odds 2
    ratings = bradley_terry_ratings(_results("a", "b", 3, 1, ties=2), ridge=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(2), abs=1e-8)


def test_a_chain_of_players_adds_up() -> None:
    # a–b and b–c each 2:1, a and c never meet: each gap is 400·log10(2)
    matches = _results("a", "b", 2, 1) + _results("b", "c", 2, 1)
    ratings = bradley_terry_ratings(matches, ridge=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(2), abs=1e-8)
    assert ratings["b"] - ratings["c"] == pytest.approx(400 * math.log10(2), abs=1e-8)


def test_the_default_ridge_barely_moves_a_well_posed_fit() -> None:
    ratings = bradley_terry_ratings(_results("a", "b", 3, 1))
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=0.5)


def test_undefeated_players_stay_finite_with_the_ridge_only() -> None:
    strengths = bradley_terry_strengths(_results("a", "b", 5, 0))
    assert all(math.isfinite(v) for v in strengths.values())
    assert strengths["a"] > strengths["b"]
    with pytest.raises(ValueError, match="MLE does not exist"):
        bradley_terry_strengths(_results("a", "b", 5, 0), ridge=0.0)


def test_anchoring() -> None:
    ratings = bradley_terry_ratings(
        _results("a", "b", 3, 1), ridge=0.0, anchor="b", anchor_rating=1500.0
    )
    assert ratings["b"] == 1500.0
    assert ratings["a"] == pytest.approx(1500 + 400 * math.log10(3), abs=1e-8)
    assert to_elo({"x": 1.0, "y": -1.0}) == {"x": 1000 + ELO_SCALE, "y": 1000 - ELO_SCALE}
    with pytest.raises(ValueError, match="anchor"):
        to_elo({"x": 0.0}, anchor="z")


def test_bad_matches_raise() -> None:
    with pytest.raises(ValueError, match="itself"):
        bradley_terry_ratings([("a", "a", 1.0)])
    with pytest.raises(ValueError, match="outcome"):
        bradley_terry_ratings([("a", "b", 1.5)])
    with pytest.raises(ValueError, match="no matches"):
        bradley_terry_ratings([])


MATCHES = (
    _results("a", "b", 6, 2, ties=1)
    + _results("b", "c", 5, 3)
    + _results("a", "c", 7, 1)
    + _results("c", "d", 4, 4, ties=2)
)


def test_bootstrap_intervals_contain_the_estimate_and_are_reproducible() -> None:
    first = bootstrap_ratings(MATCHES, reps=300, seed=11)
    assert first == bootstrap_ratings(MATCHES, reps=300, seed=11)
    assert first != bootstrap_ratings(MATCHES, reps=300, seed=12)
    estimate = bradley_terry_ratings(MATCHES)
    for name, interval in first.items():
        assert interval.estimate == estimate[name]
        assert interval.low < interval.estimate < interval.high


def test_bootstrap_marks_players_missing_from_a_replicate() -> None:
    matches = [*_results("a", "b", 5, 5), ("c", "a", 1.0)]  # c plays once
    players, samples = bootstrap_rating_samples(matches, reps=200, seed=0)
    column = players.index("c")
    assert np.isnan(samples[:, column]).any()
    assert not np.isnan(samples[:, players.index("a")]).any()
