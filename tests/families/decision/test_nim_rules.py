"""Nim's rules engine and its perfect-play oracle, checked against brute-force game search."""

from __future__ import annotations

import functools
import itertools

import pytest

from envsuite.families.decision.nim_oracle import perfect_move
from envsuite.families.decision.nim_rules import (
    Move,
    NimState,
    apply_move,
    forfeit,
    illegal_reason,
    legal_moves,
    mover_wins,
    nim_sum,
)

SMALL_POSITIONS = [*itertools.product(range(5), repeat=3), (1, 1), (2, 2), (1, 2, 3), (4, 5, 6, 7)]


@functools.cache
def solved_mover_wins(heaps: tuple[int, ...], misere: bool) -> bool:
    """Minimax from the definition of the game, knowing nothing of nim-sums."""
    if not any(heaps):
        # The previous player took the last object: under misère play they lost.
        return misere
    for heap, size in enumerate(heaps):
        for count in range(1, size + 1):
            after = tuple(s - count if i == heap else s for i, s in enumerate(heaps))
            if not solved_mover_wins(after, misere):
                return True
    return False


def test_legal_moves_are_every_heap_and_count_in_order() -> None:
    state = NimState((1, 0, 2))
    assert legal_moves(state) == [Move(0, 1), Move(2, 1), Move(2, 2)]
    assert legal_moves(NimState((1,), winner=0)) == []


def test_illegal_reasons_come_in_the_documented_order() -> None:
    state = NimState((3, 0, 5))
    assert illegal_reason(NimState((3,), winner=1), Move(9, 0)) == "the game is over"
    assert illegal_reason(state, Move(3, 0)) == "there is no heap 4 (heaps are numbered 1 to 3)"
    assert illegal_reason(state, Move(-1, 2)) == "there is no heap 0 (heaps are numbered 1 to 3)"
    assert illegal_reason(state, Move(1, 0)) == "a move must take at least one object"
    assert illegal_reason(state, Move(1, 1)) == "heap 2 is empty"
    assert illegal_reason(state, Move(0, 4)) == "heap 1 has only 3 objects; cannot take 4"
    assert illegal_reason(state, Move(2, 5)) is None


def test_taking_the_last_object_wins_normal_play_and_loses_misere() -> None:
    normal = apply_move(NimState((0, 2), to_move=1), Move(1, 2))
    assert normal.winner == 1 and normal.over and normal.heaps == (0, 0)
    misere = apply_move(NimState((0, 2), to_move=1, misere=True), Move(1, 2))
    assert misere.winner == 0
    going_on = apply_move(NimState((3, 4)), Move(0, 1))
    assert going_on == NimState((2, 4), to_move=1)


def test_an_illegal_move_cannot_be_applied_and_a_forfeit_hands_the_win_over() -> None:
    with pytest.raises(ValueError, match="heap 1 is empty"):
        apply_move(NimState((0, 1)), Move(0, 1))
    assert forfeit(NimState((3, 4), to_move=1), 1).winner == 0


def test_digest_is_canonical() -> None:
    assert NimState((1, 2)).digest() == NimState((1, 2)).digest()
    assert NimState((1, 2)).digest() != NimState((2, 1)).digest()
    assert NimState((1, 2)).digest() != NimState((1, 2), to_move=1).digest()
    assert nim_sum((3, 4, 5)) == 2


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("heaps", SMALL_POSITIONS)
def test_bouton_matches_brute_force_search(heaps: tuple[int, ...], misere: bool) -> None:
    assert mover_wins(heaps, misere) == solved_mover_wins(heaps, misere)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("heaps", [h for h in SMALL_POSITIONS if any(h)])
def test_the_oracle_moves_to_a_lost_position_whenever_it_can(
    heaps: tuple[int, ...], misere: bool
) -> None:
    move = perfect_move(heaps, misere)
    assert illegal_reason(NimState(heaps, misere=misere), move) is None
    after = tuple(s - move.count if i == move.heap else s for i, s in enumerate(heaps))
    if solved_mover_wins(heaps, misere):
        assert not solved_mover_wins(after, misere)


def test_from_a_lost_position_the_oracle_takes_one_from_the_largest_heap() -> None:
    assert perfect_move((1, 2, 3), False) == Move(2, 1)
    assert perfect_move((2, 2), False) == Move(0, 1)
    with pytest.raises(ValueError, match="no move"):
        perfect_move((0, 0), False)
