"""The retrograde tables: published figures; sampled values re-derived with python-chess."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from envsuite.families.text.chess_endgame_notation import Notation, board_from_fen
from envsuite.families.text.chess_endgame_rules import EndgameBoard
from envsuite.families.text.chess_endgame_tables import (
    DRAW,
    ILLEGAL,
    endgame_tables,
    position_value,
)


@pytest.fixture(scope="module")
def tables():
    return endgame_tables()


def test_published_figures(tables):
    # Longest mates (moves, strong side to move): KQK 10, KRK 16, KPK 28 (Thompson's and
    # Nalimov's tables); every KQK and KRK position with the strong side to move is won;
    # KPK has 163,328 legal positions with White to move, 124,960 of them won.
    assert (tables["Q"].longest_mate, tables["R"].longest_mate) == (10, 16)
    assert tables["P"].longest_mate == 28
    for piece in ("Q", "R"):
        strong = tables[piece].strong
        assert not np.any(strong == DRAW) and np.all(strong[strong != ILLEGAL] >= 1)
    pawn = tables["P"].strong
    assert int(np.sum(pawn != ILLEGAL)) == 163_328
    assert int(np.sum(pawn >= 1)) == 124_960


def from_reference(reference: chess.Board) -> EndgameBoard:
    """The engine's board for a python-chess position of one of the endgames."""
    return board_from_fen(reference.fen())[0]


def reference_value(reference: chess.Board, tables) -> int:
    """The value one ply deeper, read from the tables with python-chess's moves."""
    values = []
    for move in reference.legal_moves:
        reference.push(move)
        pieces = reference.piece_map()
        if len(pieces) == 2 or reference.is_insufficient_material():
            values.append(DRAW)
        elif reference.is_checkmate():
            values.append(0)
        else:
            values.append(position_value(from_reference(reference)))
        reference.pop()
    if reference.turn == chess.WHITE:  # the strong side: the fastest win
        wins = [v for v in values if v >= 0]
        return min(wins) + 1 if wins else DRAW
    if not values:  # mate or stalemate
        return 0 if reference.is_check() else DRAW
    return DRAW if DRAW in values else max(values)


@pytest.mark.parametrize("piece", ["Q", "R", "P"])
def test_every_sampled_value_is_the_best_reply_by_python_chess_moves(piece, tables):
    rng = np.random.default_rng("QRP".index(piece))
    table = tables[piece]
    notation = Notation(True)
    checked = {True: 0, False: 0}
    while min(checked.values()) < 400:
        index = int(rng.integers(64**3))
        strong_to_move = bool(rng.integers(2))
        value = int((table.strong if strong_to_move else table.weak)[index])
        if value == ILLEGAL:
            continue
        board = EndgameBoard.from_index(piece, index, strong_to_move)
        reference = chess.Board(notation.fen(board))
        assert reference_value(reference, tables) == value, reference.fen()
        checked[strong_to_move] += 1


@pytest.mark.parametrize(
    ("fen", "value"),
    [
        ("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", 1),  # Qg8#
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1),  # Rh8#
        ("k7/8/8/P7/8/8/8/2K5 w - - 0 1", DRAW),  # the rook's pawn with the king in the corner
        ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", 11),  # king on the sixth in front: a win
        ("4k3/8/8/4P3/4K3/8/8/8 b - - 0 1", DRAW),  # ...Ke7 and Black keeps the opposition
        ("8/8/4k3/8/4K3/4P3/8/8 w - - 0 1", DRAW),  # Black has the opposition
        ("8/8/4k3/8/4K3/4P3/8/8 b - - 0 1", 18),  # White has it
    ],
)
def test_textbook_positions(fen, value):
    assert position_value(board_from_fen(fen)[0]) == value
