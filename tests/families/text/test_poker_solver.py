"""The poker solvers: the published numbers for Kuhn, and equilibria for both games."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.poker_cfr import TARGET_EXPLOITABILITY, equilibrium
from envsuite.families.text.poker_rules import KUHN_POKER, LEDUC_HOLDEM
from envsuite.families.text.poker_tree import (
    TabularPolicy,
    expected_values,
    exploitability,
    game_tree,
    nash_conv,
    seat_exploitability,
)


def test_tree_sizes() -> None:
    assert len(game_tree(KUHN_POKER).keys) == 12
    assert len(game_tree(LEDUC_HOLDEM).keys) == 936  # as OpenSpiel counts them
    assert game_tree(LEDUC_HOLDEM).world_probs.sum() == pytest.approx(1.0)


def test_uniform_random_kuhn_nash_conv_is_11_12() -> None:
    uniform = game_tree(KUHN_POKER).uniform_policy()
    assert nash_conv(uniform) == pytest.approx(11 / 12)
    assert exploitability(uniform) == pytest.approx(11 / 24)
    assert expected_values(uniform)[0] == pytest.approx(0.125)


def test_per_seat_exploitability_sums_to_the_nash_conv() -> None:
    uniform = game_tree(KUHN_POKER).uniform_policy()
    gains = seat_exploitability(uniform, -1 / 18)
    assert gains == pytest.approx([13 / 36, 5 / 9])  # as player_0, as player_1
    assert gains.sum() == pytest.approx(11 / 12)
    assert seat_exploitability(equilibrium(KUHN_POKER), -1 / 18) == pytest.approx([0, 0], abs=2e-4)


def test_uniform_random_leduc_nash_conv() -> None:
    # OpenSpiel's exploitability test gives 4.747222222222222 for Leduc.
    assert nash_conv(game_tree(LEDUC_HOLDEM).uniform_policy()) == pytest.approx(4.747222222222)


def test_kuhn_analytic_equilibrium_has_zero_exploitability() -> None:
    """Kuhn's family of equilibria with alpha = 0 (never bluff the jack first)."""
    tree = game_tree(KUHN_POKER)
    probs = np.zeros((len(tree.keys), 3))
    bet = {
        "J:": 0.0, "Q:": 0.0, "K:": 0.0,  # player 0 opens: check (alpha = 0)
        "J:c": 1 / 3, "Q:c": 0.0, "K:c": 1.0,  # player 1 after a check: bet
        "J:r": 0.0, "Q:r": 1 / 3, "K:r": 1.0,  # player 1 facing a bet: call
        "J:cr": 0.0, "Q:cr": 1 / 3, "K:cr": 1.0,  # player 0 facing a bet: call
    }  # fmt: skip
    for key, p in bet.items():
        row = tree.index[key]
        facing = key.endswith("r")
        probs[row] = [1 - p, p, 0.0] if facing else [0.0, 1 - p, p]
    policy = TabularPolicy(tree, probs)
    assert exploitability(policy) == pytest.approx(0.0, abs=1e-12)
    assert expected_values(policy)[0] == pytest.approx(-1 / 18)


@pytest.mark.parametrize(
    ("game", "value"), [(KUHN_POKER, -1 / 18), (LEDUC_HOLDEM, -0.0856)], ids=["kuhn", "leduc"]
)
def test_cfr_equilibrium(game: object, value: float) -> None:
    policy = equilibrium(game)  # type: ignore[arg-type]
    assert exploitability(policy) <= TARGET_EXPLOITABILITY
    assert expected_values(policy)[0] == pytest.approx(value, abs=2e-3)
    legal = policy.tree.legal
    assert np.all(policy.probs[legal == 0] == 0)
    np.testing.assert_allclose(policy.probs.sum(axis=1), 1.0)
