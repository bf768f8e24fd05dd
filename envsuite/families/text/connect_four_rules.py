"""The rules of Connect Four on bitboards, apart from any env: drops, wins, draws.

Two players take turns dropping a disc into a column of a ``rows`` x ``cols`` board; the
disc falls to the lowest empty cell. Whoever first has ``connect`` discs in a row
(horizontally, vertically or diagonally) wins; a full board without such a line is a draw.
This module knows nothing of Gymnasium, text or random generators: the env, its solver,
its bot and the tests use the same class.

Bit layout (the classic one of John Tromp's solver): column ``c``, row ``r`` (0 = the
bottom) is bit ``c * (rows + 1) + r``. Each column has one spare bit above its top row,
always 0, so shifting a line of bits never wraps from one column into the next.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

#: Number of players; player 0 moves first.
PLAYERS = 2
#: Board limits: the text board numbers columns 1 to 9 with one character each, and a
#: board holds at most 9 x 9 = 81 cells (bits in one Python int, fast either way).
MIN_SIZE, MAX_SIZE = 2, 9


@dataclass(frozen=True)
class Geometry:
    """The fixed parameters of a board: its size and the length of a winning line."""

    rows: int = 6
    cols: int = 7
    connect: int = 4

    def __post_init__(self) -> None:
        for name in ("rows", "cols", "connect"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an int, got {value!r}")
        for name in ("rows", "cols"):
            value = getattr(self, name)
            if not MIN_SIZE <= value <= MAX_SIZE:
                raise ValueError(f"{name} must lie in [{MIN_SIZE}, {MAX_SIZE}], got {value}")
        if not 2 <= self.connect <= max(self.rows, self.cols):
            raise ValueError(
                f"connect must lie in [2, max(rows, cols) = {max(self.rows, self.cols)}], "
                f"got {self.connect}"
            )

    @property
    def height(self) -> int:
        """Bits per column (the rows and one spare bit)."""
        return self.rows + 1

    @property
    def cells(self) -> int:
        """Cells on the board."""
        return self.rows * self.cols

    def bottom_bit(self, col: int) -> int:
        """The bit of the bottom cell of ``col``."""
        return 1 << (col * self.height)

    def top_bit(self, col: int) -> int:
        """The bit of the top cell of ``col``."""
        return 1 << (col * self.height + self.rows - 1)

    def bit(self, row: int, col: int) -> int:
        """The bit of the cell at ``row`` (0 = bottom) and ``col``."""
        return 1 << (col * self.height + row)


def has_line(discs: int, geometry: Geometry) -> bool:
    """Whether ``discs`` (one player's bitboard) hold ``connect`` in a row."""
    height = geometry.height
    for shift in (1, height, height - 1, height + 1):
        run = discs
        for step in range(1, geometry.connect):
            run &= discs >> (shift * step)
            if not run:
                break
        if run:
            return True
    return False


class ConnectFourBoard:
    """A Connect Four position: both players' discs, whose turn it is, the result.

    Mutable and cheap to copy (:meth:`clone`); solvers play and undo with :meth:`play`
    and :meth:`undo`.

    Attributes:
        geometry: The board's size and winning length.
        discs: Each player's bitboard (player 0's, then player 1's).
        heights: Discs in each column.
        to_move: The player (0 or 1) whose turn it is.
        winner: The winning player once someone has a line (or forfeited), else None.
        moves: The columns played so far, in order.

    """

    __slots__ = ("discs", "geometry", "heights", "moves", "to_move", "winner")

    def __init__(self, geometry: Geometry | None = None) -> None:
        self.geometry = geometry or Geometry()
        self.discs = [0, 0]
        self.heights = [0] * self.geometry.cols
        self.to_move = 0
        self.winner: int | None = None
        self.moves: list[int] = []

    def clone(self) -> ConnectFourBoard:
        """An independent copy."""
        other = ConnectFourBoard.__new__(ConnectFourBoard)
        other.geometry = self.geometry
        other.discs = list(self.discs)
        other.heights = list(self.heights)
        other.to_move = self.to_move
        other.winner = self.winner
        other.moves = list(self.moves)
        return other

    # -- the result --------------------------------------------------------------------
    @property
    def full(self) -> bool:
        """Whether every cell holds a disc."""
        return len(self.moves) >= self.geometry.cells

    @property
    def over(self) -> bool:
        """Whether the game has ended (a line, a forfeit, or a full board)."""
        return self.winner is not None or self.full

    @property
    def draw(self) -> bool:
        """Whether the game ended in a draw (a full board, nobody won)."""
        return self.winner is None and self.full

    # -- moves -------------------------------------------------------------------------
    def illegal_reason(self, col: int) -> str | None:
        """Why dropping into ``col`` (0-based; 1-based in the text) is illegal, or None.

        The checks run in a fixed order, one reason each: the game is over, no such column,
        the column is full.
        """
        if self.over:
            return "the game is over"
        if not 0 <= col < self.geometry.cols:
            return f"there is no column {col + 1} (columns are numbered 1 to {self.geometry.cols})"
        if self.heights[col] >= self.geometry.rows:
            return f"column {col + 1} is full"
        return None

    def can_play(self, col: int) -> bool:
        """Whether ``col`` has room (the game not being over is not checked)."""
        return self.heights[col] < self.geometry.rows

    def legal_moves(self) -> list[int]:
        """The columns with room, ascending; none once the game is over."""
        if self.over:
            return []
        rows = self.geometry.rows
        return [col for col, height in enumerate(self.heights) if height < rows]

    def play(self, col: int) -> None:
        """Drop the mover's disc into ``col`` (which must be legal: a ValueError otherwise)."""
        reason = self.illegal_reason(col)
        if reason is not None:
            raise ValueError(f"illegal move {col}: {reason}")
        self.play_unchecked(col)

    def play_unchecked(self, col: int) -> None:
        """:meth:`play` without the legality check (for solvers that checked already)."""
        geometry = self.geometry
        player = self.to_move
        self.discs[player] |= 1 << (col * geometry.height + self.heights[col])
        self.heights[col] += 1
        self.moves.append(col)
        self.to_move = 1 - player
        if has_line(self.discs[player], geometry):
            self.winner = player

    def undo(self) -> None:
        """Take back the last move (not a forfeit)."""
        col = self.moves.pop()
        self.heights[col] -= 1
        player = 1 - self.to_move
        self.discs[player] &= ~(1 << (col * self.geometry.height + self.heights[col]))
        self.to_move = player
        self.winner = None

    def forfeit(self, player: int) -> None:
        """``player`` forfeits: the other player wins."""
        self.winner = 1 - player

    # -- views -------------------------------------------------------------------------
    def cell(self, row: int, col: int) -> int | None:
        """The player whose disc is at ``row`` (0 = bottom), ``col``, or None."""
        bit = self.geometry.bit(row, col)
        if self.discs[0] & bit:
            return 0
        if self.discs[1] & bit:
            return 1
        return None

    def key(self) -> tuple[int, int]:
        """A key naming the position uniquely (the mover's discs, all discs)."""
        return self.discs[self.to_move], self.discs[0] | self.discs[1]

    def canonical(self) -> str:
        """A canonical text encoding of the position (what :meth:`digest` hashes)."""
        g = self.geometry
        return json.dumps(
            {
                "rows": g.rows,
                "cols": g.cols,
                "connect": g.connect,
                "moves": self.moves,
                "to_move": self.to_move,
                "winner": self.winner,
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    def digest(self) -> str:
        """sha256 hex of :meth:`canonical`."""
        return hashlib.sha256(self.canonical().encode("utf-8")).hexdigest()
