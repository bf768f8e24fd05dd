"""Connect Four rules: drops, lines in every direction, no wrap-around, full columns, draws."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry, has_line


def board_after(moves, geometry=None):
    board = ConnectFourBoard(geometry or Geometry())
    for col in moves:
        board.play(col)
    return board


def brute_force_line(board: ConnectFourBoard, player: int) -> bool:
    g = board.geometry
    for row in range(g.rows):
        for col in range(g.cols):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + k * d_row, col + k * d_col) for k in range(g.connect)]
                if all(0 <= r < g.rows and 0 <= c < g.cols for r, c in cells) and all(
                    board.cell(r, c) == player for r, c in cells
                ):
                    return True
    return False


def test_discs_fall_to_the_lowest_empty_cell_and_turns_alternate():
    board = board_after([3, 3, 2])
    assert board.cell(0, 3) == 0 and board.cell(1, 3) == 1 and board.cell(0, 2) == 0
    assert board.cell(2, 3) is None and board.to_move == 1 and board.heights[3] == 2


@pytest.mark.parametrize(
    ("moves", "direction"),
    [
        ([0, 6, 1, 6, 2, 6, 3], "across"),
        ([0, 1, 0, 1, 0, 1, 0], "up"),
        ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], "diagonal /"),
        ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], "diagonal \\"),
    ],
)
def test_four_in_a_row_wins_in_every_direction(moves, direction):
    board = board_after(moves)
    assert board.winner == 0 and board.over, direction
    assert board.legal_moves() == []


def test_a_vertical_run_does_not_wrap_into_the_next_column():
    # Player 0 holds the top two cells of column 1 and the bottom two of column 2.
    g = Geometry(rows=4, cols=4)
    board = board_after([0, 0, 0, 1, 0, 3, 1, 3, 1, 3], g)
    assert board.cell(2, 0) == 0 and board.cell(3, 0) == 0
    assert board.cell(1, 1) == 0 and board.cell(2, 1) == 0
    assert board.winner is None


def test_a_full_column_is_refused_with_its_number():
    board = board_after([2, 2, 2, 2, 2, 2])
    assert board.illegal_reason(2) == "column 3 is full"
    assert board.illegal_reason(7) == "there is no column 8 (columns are numbered 1 to 7)"
    assert 2 not in board.legal_moves()
    with pytest.raises(ValueError, match="column 3 is full"):
        board.play(2)


def test_a_full_board_without_a_line_is_a_draw():
    # 2 x 4, three in a row wins: X O X X / O X O O holds no line.
    board = board_after([0, 1, 1, 0, 2, 2, 3, 3], Geometry(rows=2, cols=4, connect=3))
    assert board.full and board.draw and board.over and board.winner is None
    assert board.legal_moves() == []
    assert board.illegal_reason(0) == "the game is over"


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(5, 5, 3), Geometry(6, 8, 5)])
def test_line_detection_agrees_with_a_cell_by_cell_check(geometry):
    rng = np.random.default_rng(0)
    for _ in range(200):
        board = ConnectFourBoard(geometry)
        while not board.over and rng.random() < 0.95:
            legal = board.legal_moves()
            board.play(legal[int(rng.integers(len(legal)))])
            for player in (0, 1):
                assert has_line(board.discs[player], geometry) == brute_force_line(board, player)


def test_undo_restores_the_position():
    board = board_after([3, 2, 3])
    before = (list(board.discs), list(board.heights), board.to_move, board.canonical())
    board.play(4)
    board.undo()
    assert (list(board.discs), list(board.heights), board.to_move, board.canonical()) == before


def test_clone_is_independent():
    board = board_after([3])
    copy = board.clone()
    copy.play(3)
    assert board.moves == [3] and copy.moves == [3, 3]


@pytest.mark.parametrize(
    "kwargs", [{"rows": 1}, {"cols": 10}, {"connect": 8}, {"connect": 1}, {"rows": 4.0}]
)
def test_bad_geometries_are_refused(kwargs):
    with pytest.raises(ValueError):
        Geometry(**kwargs)
