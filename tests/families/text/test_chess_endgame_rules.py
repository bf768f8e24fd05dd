"""ChessEndgame's own move generation and notation agree with python-chess, move by move."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from envsuite.env_base import InvalidAction
from envsuite.families.text.chess_endgame_notation import Notation, board_from_fen
from envsuite.families.text.chess_endgame_rules import EndgameBoard


def random_boards(piece: str, count: int, seed: int, strong_to_move: bool):
    """Legal positions of KXK drawn uniformly by rejection (a fixed generator)."""
    rng = np.random.default_rng(seed)
    boards: list[EndgameBoard] = []
    while len(boards) < count:
        squares = rng.integers(64, size=3)
        board = EndgameBoard(
            int(squares[0]), int(squares[1]), piece, int(squares[2]), strong_to_move
        )
        if board.problem() is None:
            boards.append(board)
    return boards


def sample(count: int):
    cases = []
    for piece in ("Q", "R", "P"):
        for strong_to_move in (True, False):
            for white in (True, False):
                seed = "QRP".index(piece) * 4 + 2 * strong_to_move + white
                for board in random_boards(piece, count, seed, strong_to_move):
                    cases.append((board, white))
    return cases


CASES = sample(150)


@pytest.mark.parametrize("promoted", ["Q", "R", "B", "N"])
def test_promoted_pieces_move_as_python_chess_says(promoted):
    cases = [(b, w) for b, w in sample(40) if b.piece == "P"]
    for board, white in cases:
        board = EndgameBoard(board.strong_king, board.weak_king, promoted, board.piece_square, True)
        if board.problem() is None:
            check_against_python_chess(board, white)


def test_moves_san_fen_and_outcome_agree_with_python_chess():
    assert len(CASES) == 150 * 12
    for board, white in CASES:
        check_against_python_chess(board, white)


def check_against_python_chess(board: EndgameBoard, white: bool) -> None:
    notation = Notation(white)
    fen = notation.fen(board)
    reference = chess.Board(fen)
    assert reference.is_valid(), fen
    ours = {notation.uci(move): notation.san(board, move) for move in board.legal_moves()}
    theirs = {move.uci(): reference.san(move) for move in reference.legal_moves}
    assert ours == theirs, fen
    outcome = board.outcome()
    assert (outcome == "checkmate") == reference.is_checkmate(), fen
    assert (outcome == "stalemate") == reference.is_stalemate(), fen
    for move in board.legal_moves():
        after = board.after(move)
        reference.push(chess.Move.from_uci(notation.uci(move)))
        assert notation.fen(after).split()[:2] == reference.fen().split()[:2], fen
        reference.pop()
    if board.piece in ("Q", "R", "P"):
        assert board_from_fen(fen) == (board, white)


def test_the_diagram_puts_rank_eight_on_top_and_white_in_capitals():
    board, white = board_from_fen("8/8/8/8/8/4k3/8/R3K3 w - - 0 1")
    assert Notation(white).diagram(board).splitlines() == [
        "8 . . . . . . . .",
        "7 . . . . . . . .",
        "6 . . . . . . . .",
        "5 . . . . . . . .",
        "4 . . . . . . . .",
        "3 . . . . k . . .",
        "2 . . . . . . . .",
        "1 R . . . K . . .",
        "  a b c d e f g h",
    ]


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        "8/8/8/8/8/8/3k4/R2QK3 w - - 0 1",
        "8/8/8/8/8/8/3k4/B3K3 w - - 0 1",
        "8/8/8/8/8/8/3k4/3K3R w - - 0 1",
        "R6k/8/8/8/8/8/8/4K3 w - - 0 1",
        "P7/8/8/8/8/8/8/4K2k w - - 0 1",
        "8/8/8/8/8/8/8/4K2k w",
        "8/8/8/8/8/8/8/4K2k",
        "8/8/8/8/8/8/7/R3K2k w - - 0 1",
    ],
)
def test_board_from_fen_refuses_what_is_not_a_legal_kxk_position(fen):
    with pytest.raises(ValueError):
        board_from_fen(fen)


def test_a_black_strong_side_is_the_mirror_image():
    board, white = board_from_fen("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1")
    assert not white and board.piece == "P" and board.strong_to_move
    assert board.piece_square == chess.E2 and board.strong_king == chess.E1
    notation = Notation(False)
    sans = [notation.san(board, move) for move in board.legal_moves()]
    assert "e5" in sans and "e6" in sans and "Kd8" in sans


@pytest.mark.parametrize(
    ("fen", "answer", "expected"),
    [
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Ra2+", "a1a2"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Ra2", "a1a2"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "a1a2", "a1a2"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "a1-a2", "a1a2"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "ra2", "a1a2"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Ra1a2", "a1a2"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Rxa2!", "a1a2"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8=Q", "e7e8q"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8Q", "e7e8q"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e7e8r", "e7e8r"),
        ("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1", "e5", "e7e5"),
    ],
)
def test_moves_are_read_in_san_or_uci(fen, answer, expected):
    board, white = board_from_fen(fen)
    notation = Notation(white)
    moves = {notation.uci(move): move for move in board.legal_moves()}
    assert notation.uci(notation.parse(answer, board, moves)) == expected


@pytest.mark.parametrize(
    ("fen", "answer", "message"),
    [
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "castle", "is not a move: write a move in SAN"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "e3e4", "e3 holds Black's king"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "d4d5", "there is no piece of yours on d4"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Qa2", "you have no queen"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "a4", "you have no pawn"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Rba2", "your rook is on a1"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Rb2", "the rook moves along ranks and files"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Rf1", "your king on e1 blocks the rook's way"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Kd2", "the king may not move next to Black's king"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Kc3", "the king moves one square at a time"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Ke1", "a move must leave e1"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Re1", "e1 holds your own king"),
        ("8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "Ra2=Q", "only a pawn reaching the last rank"),
        ("8/8/8/8/k7/8/K7/R7 w - - 0 1", "Ra4", "a king cannot be captured"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8", "must promote: write e8=Q"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e6", "the pawn moves straight forward"),
        ("8/8/8/8/3k4/3P4/8/4K3 w - - 0 1", "d4", "a king cannot be captured"),
        ("8/8/8/8/8/3k4/3P4/4K3 w - - 0 1", "d4", "the pawn is blocked on its way to d4"),
        ("3Q4/8/3K4/8/8/8/8/3k4 w - - 0 1", "Qd2", "your king on d6 blocks the queen's way"),
    ],
)
def test_an_illegal_move_names_the_rule_it_breaks(fen, answer, message):
    board, white = board_from_fen(fen)
    notation = Notation(white)
    moves = {notation.uci(move): move for move in board.legal_moves()}
    with pytest.raises(InvalidAction, match=message):
        notation.parse(answer, board, moves)
