"""Depth-to-mate tables of KQK, KRK and KPK by retrograde analysis, computed by envsuite.

No engine, no downloaded tablebase: every position of each endgame (strong king, weak
king, piece: 64**3 indices, for either side to move) gets its exact value by backward
induction over moves generated here, vectorised with numpy:

- a position with the weak side to move is *mated* (value 0) when it is in check with no
  legal move; it is a *draw* when it is stalemated or can capture the piece;
- the strong side to move wins in ``n`` moves when one of its moves reaches a position
  (weak to move) that loses in ``n - 1``;
- the weak side to move loses in ``n`` when every legal move reaches a strong-to-move win,
  the longest of them in ``n`` (so the defender's best reply maximises the depth to mate);
- what is never resolved is a draw.

KPK uses the KQK and KRK tables for its promotions (a bishop or knight promotion is a
draw). The values are in *moves of the strong side* until mate, i.e. DTM in moves.
Computing all three takes about 1.3 s of CPU and 160 MB at peak (:func:`endgame_tables`),
once per process: the result stays in memory (2.4 MB; 15 MB with the lists the env
indexes). That is quick enough that nothing is cached on disk or shipped as data, so
there is no file to trust or checksum.

Table layout: ``index = strong_king * 4096 + weak_king * 64 + piece_square`` (squares as
in python-chess, the strong side playing up the board). ``strong[index]`` is the value with
the strong side to move, ``weak[index]`` with the weak side to move: ``n >= 1`` (strong
mates in ``n``; for ``weak``, ``0`` means already mated), :data:`DRAW` or :data:`ILLEGAL`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from envsuite.families.text.chess_endgame_rules import (
    BETWEEN,
    DIRECTIONS,
    KING_STEP,
    LINE_KIND,
    RAYS,
    SLIDER_DIRECTIONS,
    EndgameBoard,
    Move,
)

SIZE = 64**3
DRAW = -1
ILLEGAL = -2

_SQUARES = np.arange(64)
_FILE = _SQUARES & 7
_RANK = _SQUARES >> 3
#: King distance between two squares.
_DIST = np.maximum(
    np.abs(_FILE[:, None] - _FILE[None, :]), np.abs(_RANK[:, None] - _RANK[None, :])
).astype(np.int8)
#: 1 for a rank/file line, 2 for a diagonal, 0 for none.
_LINE = np.array([[{"": 0, "R": 1, "B": 2}[k] for k in row] for row in LINE_KIND], np.int8)
#: Bit mask of the squares strictly between two squares on a line.
_BETWEEN = np.array(
    [[sum(1 << s for s in (between or ())) for between in row] for row in BETWEEN], np.uint64
)
#: The neighbour of a square in each direction (-1 off the board).
_KING_STEP = np.array(KING_STEP, np.int64)
#: _RAY_AT[square, direction, k - 1]: the square k steps away (-1 off the board).
_RAY_AT = np.array(
    [[list(RAYS[s][d]) + [-1] * (7 - len(RAYS[s][d])) for d in range(8)] for s in range(64)],
    np.int64,
)
assert len(DIRECTIONS) == 8


@dataclass(frozen=True)
class EndgameTable:
    """Exact values of one endgame for both sides to move (see the module docstring).

    Attributes:
        piece: ``"Q"``, ``"R"`` or ``"P"``.
        strong: int8 values with the strong side to move, indexed by position.
        weak: int8 values with the weak side to move.
        check: bool, whether the weak king is in check (in a legal position).
    """

    piece: str
    strong: np.ndarray
    weak: np.ndarray
    check: np.ndarray

    @property
    def longest_mate(self) -> int:
        """The largest depth to mate (in moves) with the strong side to move."""
        return int(self.strong.max())


def _on(mask: np.ndarray, bits: np.ndarray, square: np.ndarray) -> np.ndarray:
    """Whether ``square``'s bit is set in ``bits`` (vectorised)."""
    return ((bits >> square.astype(np.uint64)) & np.uint64(1)).astype(bool) & mask


def _attacks(piece: str, source: np.ndarray, target: np.ndarray, blocker: np.ndarray) -> np.ndarray:
    """Whether the strong ``piece`` on ``source`` attacks ``target`` past ``blocker``."""
    if piece == "P":
        return (_RANK[target] == _RANK[source] + 1) & (np.abs(_FILE[target] - _FILE[source]) == 1)
    line = _LINE[source, target]
    on_line = line > 0 if piece == "Q" else line == 1
    return on_line & ~_on(on_line, _BETWEEN[source, target], blocker)


def _positions(piece: str) -> tuple[np.ndarray, ...]:
    index = np.arange(SIZE, dtype=np.int64)
    king, weak, square = index >> 12, (index >> 6) & 63, index & 63
    legal = (king != weak) & (king != square) & (weak != square) & (_DIST[king, weak] >= 2)
    if piece == "P":
        legal &= (square >= 8) & (square < 56)
    return index, king, weak, square, legal


def _strong_edges(
    piece: str, king: np.ndarray, weak: np.ndarray, square: np.ndarray
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Per move slot: (which positions have the move, the successor index).

    For KPK a promotion's successor points past the KPK part of the value buffer: into
    the KQK part (offset SIZE), the KRK part (offset 2 * SIZE) or the draw cell (3 * SIZE).
    """
    for direction in range(8):
        target = _KING_STEP[king, direction]
        safe = np.where(target >= 0, target, 0)
        ok = (target >= 0) & (safe != square) & (_DIST[safe, weak] >= 2)
        yield (ok, safe * 4096 + weak * 64 + square)
    if piece == "P":
        ahead = square + 8
        free = (ahead != king) & (ahead != weak)
        promote = ahead >= 56
        base = king * 4096 + weak * 64 + ahead
        yield (free & ~promote, base)
        yield (free & promote, SIZE + base)
        yield (free & promote, 2 * SIZE + base)
        yield (free & promote, np.full_like(base, 3 * SIZE))  # B or N: a draw
        two = square + 16
        ok = free & (square < 16) & (two != king) & (two != weak)
        yield (ok, king * 4096 + weak * 64 + np.where(ok, two, 0))
        return
    for direction in SLIDER_DIRECTIONS[piece]:
        for step in range(7):
            target = _RAY_AT[square, direction, step]
            safe = np.where(target >= 0, target, 0)
            between = _BETWEEN[square, safe]
            ok = (target >= 0) & (safe != king) & (safe != weak)
            ok &= ~_on(ok, between, king) & ~_on(ok, between, weak)
            yield (ok, king * 4096 + weak * 64 + safe)


def _flatten(
    slots: Iterable[tuple[np.ndarray, np.ndarray]], rows: np.ndarray | None, count: int
) -> tuple[np.ndarray, np.ndarray]:
    """Edges (owner row, successor) from per-slot arrays, one slot at a time.

    The slot arrays cover every position (``rows`` picks the ``count`` owners) or, with
    ``rows`` None, the ``count`` owners alone.
    """
    owners, targets = [], []
    order = np.arange(count, dtype=np.int32)
    for ok, successor in slots:
        keep = ok if rows is None else ok[rows]
        owners.append(order[keep])
        targets.append((successor if rows is None else successor[rows])[keep].astype(np.int32))
    return np.concatenate(owners), np.concatenate(targets)


def retrograde(piece: str, promotions: tuple[np.ndarray, np.ndarray] | None = None) -> EndgameTable:
    """The exact table of KXK for ``piece`` in ``"QRP"`` (KPK needs ``promotions``).

    Args:
        piece: The strong side's piece.
        promotions: For KPK, the weak-to-move value arrays of KQK and KRK.
    """
    index, king, weak, square, legal = _positions(piece)
    check = legal & _attacks(piece, square, weak, king)
    strong_legal = legal & ~check

    # Values with the weak side to move live in a buffer that, for KPK, continues with the
    # KQK and KRK weak-to-move values and one draw cell, so promotions index straight in.
    buffer = np.full(3 * SIZE + 1 if piece == "P" else SIZE, DRAW, np.int8)
    weak_values = buffer[:SIZE]
    if piece == "P":
        assert promotions is not None
        buffer[SIZE : 2 * SIZE] = promotions[0]
        buffer[2 * SIZE : 3 * SIZE] = promotions[1]
    strong_values = np.full(SIZE, DRAW, np.int8)

    # The weak king's moves: to a square the strong king does not touch, either capturing
    # the piece (a draw) or to a square the piece does not attack.
    captures = np.zeros(SIZE, bool)
    replies = np.zeros(SIZE, np.int64)
    weak_slots = []
    for direction in range(8):
        target = _KING_STEP[weak, direction]
        safe = np.where(target >= 0, target, 0)
        ok = legal & (target >= 0) & (_DIST[safe, king] >= 2)
        capture = ok & (safe == square)
        quiet = ok & (safe != square) & ~_attacks(piece, square, safe, king)
        captures |= capture
        replies += capture + quiet
        weak_slots.append((quiet, king * 4096 + safe * 64 + square))
    mated = legal & check & (replies == 0)
    weak_values[mated] = 0
    open_weak = np.flatnonzero(legal & ~captures & (replies > 0))
    weak_owner, weak_target = _flatten(weak_slots, open_weak, len(open_weak))
    weak_counts = replies[open_weak]

    strong_rows = np.flatnonzero(strong_legal)
    edges = _strong_edges(piece, king[strong_rows], weak[strong_rows], square[strong_rows])
    strong_owner, strong_target = _flatten(edges, None, len(strong_rows))

    longest_outside = int(buffer[SIZE:].max()) if piece == "P" else 0
    depth = 1
    while True:
        hit = buffer[strong_target] == depth - 1
        wins = np.bincount(strong_owner[hit], minlength=len(strong_rows)) > 0
        new_strong = strong_rows[wins & (strong_values[strong_rows] == DRAW)]
        strong_values[new_strong] = depth
        lost = strong_values[weak_target] >= 1
        all_lost = np.bincount(weak_owner, weights=lost, minlength=len(open_weak)) == weak_counts
        new_weak = open_weak[all_lost & (weak_values[open_weak] == DRAW)]
        weak_values[new_weak] = depth
        if not len(new_strong) and not len(new_weak) and depth > longest_outside:
            break
        depth += 1

    strong_values[~strong_legal] = ILLEGAL
    weak_values[~legal] = ILLEGAL
    del index
    return EndgameTable(piece, strong_values, weak_values.copy(), check)


@functools.cache
def endgame_tables() -> dict[str, EndgameTable]:
    """The KQK, KRK and KPK tables, computed on first use and kept for the process."""
    queen = retrograde("Q")
    rook = retrograde("R")
    pawn = retrograde("P", (queen.weak, rook.weak))
    return {"Q": queen, "R": rook, "P": pawn}


@functools.cache
def san_marks() -> dict[str, list[str]]:
    """Per piece, the SAN mark of each weak-to-move position: ``"#"``, ``"+"`` or ``""``.

    A move's SAN ends with the mark of the position it reaches, so writing the SAN of
    every legal move needs no move generation for the reply (lists, for fast indexing).
    """
    marks = {}
    for piece, table in endgame_tables().items():
        kinds = np.where(table.weak == 0, 2, table.check.astype(np.int8))
        marks[piece] = np.array(["", "+", "#"])[kinds].tolist()
    return marks


@functools.cache
def strong_values() -> dict[str, list[int]]:
    """Per piece, the strong-to-move values as a list (fast to index one at a time)."""
    return {piece: table.strong.tolist() for piece, table in endgame_tables().items()}


def position_value(board: EndgameBoard) -> int:
    """The exact value of ``board`` (see the module docstring).

    A bare king, or a king and a bishop or knight, is a :data:`DRAW`.
    """
    if board.piece not in ("Q", "R", "P"):
        return DRAW
    table = endgame_tables()[board.piece]
    values = table.strong if board.strong_to_move else table.weak
    return int(values[board.index()])


def move_values(board: EndgameBoard) -> list[tuple[Move, int]]:
    """Every legal move of ``board`` with the value of the position it reaches."""
    return [(move, position_value(board.after(move))) for move in board.legal_moves()]


__all__ = [
    "DRAW",
    "ILLEGAL",
    "SIZE",
    "EndgameTable",
    "endgame_tables",
    "move_values",
    "position_value",
    "retrograde",
    "san_marks",
    "strong_values",
]
