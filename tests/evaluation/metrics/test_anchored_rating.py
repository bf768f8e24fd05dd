from __future__ import annotations

import math

import pytest

from envsuite.evaluation.metrics.anchored_rating import anchored_strength
from envsuite.evaluation.metrics.ratings import bradley_terry_strengths


def test_even_scores_against_one_opponent_give_its_strength() -> None:
    assert anchored_strength([5.0], [10.0], [0.7], ridge=1e-9, centre=0.7) == pytest.approx(0.7)


def test_three_wins_in_four_are_log_three_above_the_opponent() -> None:
    # P(win) = 3/4 = sigma(theta - 0): theta = ln 3 (the unpenalised MLE)
    theta = anchored_strength([3.0], [4.0], [0.0], ridge=1e-12)
    assert theta == pytest.approx(math.log(3.0), abs=1e-6)


def test_it_is_the_joint_fit_held_fixed_for_the_other_players() -> None:
    """With the others at their joint-fit strengths, the new player's root is its joint θ."""
    results = {("x", "a"): (7, 3, 2), ("x", "b"): (2, 6, 1), ("a", "b"): (3, 5, 0)}
    matches = []
    for (p, q), (wins, losses, draws) in results.items():
        matches += [(p, q, 1.0)] * wins + [(p, q, 0.0)] * losses + [(p, q, 0.5)] * draws
    joint = bradley_terry_strengths(matches, ridge=1e-3)
    points = [7 + 1.0, 2 + 0.5]  # wins plus half the draws, against a then b
    games = [12.0, 9.0]
    theta = anchored_strength(points, games, [joint["a"], joint["b"]], ridge=1e-3, centre=0.0)
    assert theta == pytest.approx(joint["x"], abs=1e-8)


def test_an_unbeaten_player_gets_a_finite_strength_that_grows_with_its_games() -> None:
    few = anchored_strength([4.0, 4.0], [4.0, 4.0], [0.0, 1.0])
    many = anchored_strength([40.0, 40.0], [40.0, 40.0], [0.0, 1.0])
    assert math.isfinite(few) and math.isfinite(many)
    assert many > few > 1.0


def test_more_points_never_lower_the_strength() -> None:
    values = [anchored_strength([s, 2.0], [6.0, 6.0], [-1.0, 1.0]) for s in range(7)]
    assert values == sorted(values)


@pytest.mark.parametrize(
    ("points", "games", "opponents", "ridge", "message"),
    [
        ([1.0], [2.0, 2.0], [0.0, 0.0], 1e-4, "equal-length"),
        ([3.0], [2.0], [0.0], 1e-4, "0 <= points <= games"),
        ([0.0], [0.0], [0.0], 1e-4, "some games"),
        ([1.0], [2.0], [0.0], 0.0, "ridge must be > 0"),
    ],
)
def test_bad_arguments_are_clear_errors(points, games, opponents, ridge, message) -> None:
    with pytest.raises(ValueError, match=message):
        anchored_strength(points, games, opponents, ridge=ridge)
