"""Kuhn poker and Leduc hold'em rules: deals, betting limits, payoffs, information states."""

from __future__ import annotations

import pytest

from envsuite.families.text.poker_rules import (
    CALL,
    CHANCE,
    FOLD,
    KUHN_POKER,
    LEDUC_HOLDEM,
    RAISE,
    TERMINAL,
    PokerGame,
    PokerState,
)


def _play(game: PokerGame, cards: list[int], actions: list[int]) -> PokerState:
    """Deal ``cards`` in order (private, private, public) as chance asks; play ``actions``."""
    state = game.initial_state()
    cards, actions = list(cards), list(actions)
    while not state.is_terminal() and (cards or actions):
        if state.is_chance():
            state.apply(cards.pop(0))
        else:
            state.apply(actions.pop(0))
    assert not actions
    return state


def test_kuhn_deal_is_a_chance_node_with_listed_probabilities() -> None:
    state = KUHN_POKER.initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply(2)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    with pytest.raises(ValueError, match="cannot be dealt"):
        state.apply(2)


@pytest.mark.parametrize(
    ("cards", "actions", "returns"),
    [
        ([2, 0], [CALL, CALL], (1.0, -1.0)),  # check, check: K beats J for the antes
        ([0, 2], [RAISE, CALL], (-2.0, 2.0)),  # bet, call: J loses 2
        ([0, 2], [RAISE, FOLD], (1.0, -1.0)),  # bet, fold: the bettor takes the ante
        ([1, 2], [CALL, RAISE, FOLD], (-1.0, 1.0)),  # check, bet, fold
        ([2, 1], [CALL, RAISE, CALL], (2.0, -2.0)),  # check, bet, call
    ],
)
def test_kuhn_payoffs(cards: list[int], actions: list[int], returns: tuple[float, float]) -> None:
    state = _play(KUHN_POKER, cards, actions)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == returns


def test_kuhn_has_one_bet_and_no_raise() -> None:
    state = _play(KUHN_POKER, [0, 1], [RAISE])
    assert state.legal_actions() == [FOLD, CALL]
    assert state.illegal_reason(RAISE) == "this round has had its 1 raise; call or fold"
    assert state.legal_actions(0) == []  # not player 0's turn


def test_fold_needs_a_bet() -> None:
    state = _play(KUHN_POKER, [0, 1], [])
    assert state.legal_actions() == [CALL, RAISE]
    assert state.illegal_reason(FOLD) == "there is no bet to fold to; check or bet"
    with pytest.raises(ValueError, match="no bet to fold"):
        state.apply(FOLD)


def test_information_state_hides_the_opponents_card() -> None:
    state = _play(KUHN_POKER, [2, 0], [CALL, RAISE])
    assert state.information_state(0) == "K:cr"
    assert state.information_state(1) == "J:cr"


def test_leduc_raise_sizes_and_limits() -> None:
    # Round 1: bet 2, raise 2 more, call (5 each); round 2: bet 4, raise 4 more, call.
    state = _play(LEDUC_HOLDEM, [0, 2], [RAISE, RAISE])
    assert state.contributions == [3, 5]
    assert state.legal_actions() == [FOLD, CALL]  # two raises this round
    state.apply(CALL)
    assert state.is_chance()
    assert [card for card, _ in state.chance_outcomes()] == [1, 3, 4, 5]
    state.apply(1)  # the public card: the other jack
    assert state.information_state(0) == "Js:Jh:rrc/"
    state.apply(RAISE)
    state.apply(RAISE)
    state.apply(CALL)
    assert state.contributions == [13, 13]
    assert state.is_terminal()
    assert state.returns() == (13.0, -13.0)  # a pair of jacks beats a king


@pytest.mark.parametrize(
    ("cards", "returns"),
    [
        ([4, 2, 0], (1.0, -1.0)),  # K beats Q, no pair
        ([4, 2, 3], (-1.0, 1.0)),  # Q pairs the board
        ([4, 5, 0], (0.0, 0.0)),  # two kings split
    ],
)
def test_leduc_showdown(cards: list[int], returns: tuple[float, float]) -> None:
    state = _play(LEDUC_HOLDEM, cards, [CALL, CALL, CALL, CALL])
    assert state.is_terminal()
    assert state.returns() == returns


def test_leduc_fold_ends_before_the_public_card() -> None:
    state = _play(LEDUC_HOLDEM, [0, 2], [RAISE, FOLD])
    assert state.is_terminal() and not state.is_chance()
    assert state.public is None
    assert state.returns() == (1.0, -1.0)


def test_clone_is_independent() -> None:
    state = _play(LEDUC_HOLDEM, [0, 2], [RAISE])
    copy = state.clone()
    copy.apply(CALL)
    assert state.history_text() == "r" and copy.history_text() == "rc"
    assert state.digest() != copy.digest()
