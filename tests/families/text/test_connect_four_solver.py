"""The Connect Four solver is perfect: it agrees with full minimax, from empty boards and
from random mid-game positions, on every move's value; and it knows published results."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry
from envsuite.families.text.connect_four_solver import (
    DRAW,
    LOSS,
    WIN,
    Solver,
    centre_order,
    exhaustive_value,
    opening_value,
)


def random_position(geometry: Geometry, discs: int, rng: np.random.Generator):
    """A position after ``discs`` random moves that leave the game open (or None)."""
    board = ConnectFourBoard(geometry)
    for _ in range(discs):
        legal = board.legal_moves()
        board.play(legal[int(rng.integers(len(legal)))])
        if board.over:
            return None
    return board


def test_connect_four_on_4x4_is_a_draw():
    # A published result (John Tromp's table of solved board sizes), and full minimax.
    empty = ConnectFourBoard(Geometry(4, 4))
    assert Solver(empty.geometry).value(empty) == DRAW == exhaustive_value(empty)


@pytest.mark.parametrize(
    "geometry", [Geometry(4, 4), Geometry(3, 4, 3), Geometry(4, 3, 3), Geometry(3, 5, 3)]
)
def test_every_first_move_is_valued_as_full_minimax_values_it(geometry):
    empty = ConnectFourBoard(geometry)
    solver = Solver(geometry)
    for col, value in solver.move_values(empty).items():
        child = empty.clone()
        child.play(col)
        assert value == -exhaustive_value(child), (geometry, col)


@pytest.mark.parametrize(
    ("geometry", "discs"),
    [(Geometry(5, 5), 12), (Geometry(5, 6), 17), (Geometry(6, 5), 17), (Geometry(6, 7), 26)],
)
def test_random_mid_game_positions_agree_with_full_minimax(geometry, discs):
    rng = np.random.default_rng(7)
    solver = Solver(geometry)
    checked = 0
    for _ in range(16):
        board = random_position(geometry, discs, rng)
        if board is None:
            continue
        truth = {}
        for col in board.legal_moves():
            child = board.clone()
            child.play(col)
            truth[col] = WIN if child.winner is not None else -exhaustive_value(child)
        assert solver.move_values(board) == truth
        assert solver.value(board) == max(truth.values())
        assert set(solver.best_moves(board)) == {
            c for c, v in truth.items() if v == max(truth.values())
        }
        checked += 1
    assert checked >= 4


def test_values_are_win_draw_or_loss_for_the_player_to_move():
    geometry = Geometry(4, 4)
    won = ConnectFourBoard(geometry)
    for col in [0, 1, 0, 1, 0, 1]:
        won.play(col)
    solver = Solver(geometry)
    assert solver.value(won) == WIN  # player 0 completes column 1 now
    lost = won.clone()
    lost.play(0)
    assert solver.value(lost) == LOSS  # the game is over and the mover lost


def test_opening_values_are_cached_and_match_the_solver():
    geometry = Geometry(4, 5)
    board = ConnectFourBoard(geometry)
    for col in (2, 2, 1):
        board.play(col)
    assert opening_value(geometry, (2, 2, 1)) == Solver(geometry).value(board)


def test_centre_order_starts_in_the_middle():
    assert centre_order(7) == [3, 2, 4, 1, 5, 0, 6]
    assert centre_order(4) == [1, 2, 0, 3]
