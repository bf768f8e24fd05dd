"""The rules of Minesweeper: a board of hidden mines, numbers, reveals with flood fill, flags.

Cells are numbered row by row: cell ``i`` is row ``i // cols``, column ``i % cols`` (from 0;
the env shows rows and columns from 1). A :class:`MinesweeperBoard` is the instance (where
the mines are, and the start cell whose reveal opens the game); a :class:`MinesweeperGame`
is a game on it (what is revealed and flagged, and whether a mine went off). Revealing a
cell with no mine around it reveals its neighbours too, repeatedly (the flood fill every
Minesweeper has). The game is won when every cell without a mine is revealed; flags are
the player's notes and never required. No text, no Gymnasium, no generator here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field


@functools.cache
def neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For every cell, the cells around it (up to 8), in row-major order."""
    result = []
    for row in range(rows):
        for col in range(cols):
            result.append(
                tuple(
                    r * cols + c
                    for r in range(max(0, row - 1), min(rows, row + 2))
                    for c in range(max(0, col - 1), min(cols, col + 2))
                    if (r, c) != (row, col)
                )
            )
    return tuple(result)


@functools.cache
def neighbour_masks(rows: int, cols: int) -> tuple[int, ...]:
    """For every cell, its neighbours as a bit mask (bit ``i`` for cell ``i``)."""
    return tuple(sum(1 << n for n in around) for around in neighbours(rows, cols))


@dataclass(frozen=True)
class MinesweeperBoard:
    """One instance: the board's size, its mines (cell indices) and the start cell.

    Attributes:
        rows: Rows of cells.
        cols: Columns of cells.
        mines: The mined cells, sorted.
        start: The cell revealed first (no mine on or around it, so it opens an area).
        numbers: For every cell, how many of its neighbours hold a mine.
    """

    rows: int
    cols: int
    mines: tuple[int, ...]
    start: int
    numbers: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts = [0] * (self.rows * self.cols)
        around = neighbours(self.rows, self.cols)
        for mine in self.mines:
            for cell in around[mine]:
                counts[cell] += 1
        object.__setattr__(self, "numbers", tuple(counts))

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.rows * self.cols

    @functools.cached_property
    def mine_set(self) -> frozenset[int]:
        """The mined cells as a set."""
        return frozenset(self.mines)

    def key(self) -> str:
        """The canonical name: size, mine cells and start cell."""
        return f"{self.rows}x{self.cols}:{','.join(map(str, self.mines))}:{self.start}"

    @functools.cached_property
    def three_bv(self) -> int:
        """The board's 3BV: the fewest reveals that clear it (flags never needed).

        Each opening (a connected region of cells with no mine around them, with its
        border) takes one reveal, and each safe cell outside every opening one more.
        """
        around = neighbours(self.rows, self.cols)
        numbers, mines = self.numbers, self.mine_set
        covered = [False] * self.cells
        clicks = 0
        for cell in range(self.cells):
            if covered[cell] or numbers[cell] or cell in mines:
                continue
            clicks += 1
            stack = [cell]
            covered[cell] = True
            while stack:
                here = stack.pop()
                for near in around[here]:
                    if not covered[near]:
                        covered[near] = True
                        if numbers[near] == 0:
                            stack.append(near)
        return clicks + sum(
            1 for cell in range(self.cells) if not covered[cell] and cell not in mines
        )


class MinesweeperGame:
    """A game on a board: revealed and flagged cells, and how it ended."""

    def __init__(self, board: MinesweeperBoard) -> None:
        self.board = board
        self.revealed = [False] * board.cells
        self.flagged = [False] * board.cells
        self.revealed_count = 0
        self.safe_cells = board.cells - len(board.mines)
        self.lost = False
        #: The mine that went off, if one did.
        self.exploded: int | None = None

    @property
    def won(self) -> bool:
        """Whether every cell without a mine is revealed."""
        return self.revealed_count == self.safe_cells and not self.lost

    @property
    def over(self) -> bool:
        """Whether the game is won or lost."""
        return self.lost or self.revealed_count == self.safe_cells

    def reveal(self, cell: int) -> list[int]:
        """Reveal ``cell`` (with the flood fill); return the cells newly revealed.

        A mine ends the game (``lost``) and reveals nothing. Flagged cells are never
        revealed by the flood fill.

        Raises:
            ValueError: the game is over, or the cell is revealed or flagged (the env checks
                these before, naming the rule).
        """
        if self.over:
            raise ValueError("the game is over")
        if self.revealed[cell] or self.flagged[cell]:
            raise ValueError(f"cell {cell} is revealed or flagged")
        if cell in self.board.mine_set:
            self.lost = True
            self.exploded = cell
            return []
        numbers, around = self.board.numbers, neighbours(self.board.rows, self.board.cols)
        revealed, flagged = self.revealed, self.flagged
        revealed[cell] = True
        opened = [cell]
        stack = [cell] if numbers[cell] == 0 else []
        while stack:
            here = stack.pop()
            for near in around[here]:
                if not revealed[near] and not flagged[near]:
                    revealed[near] = True
                    opened.append(near)
                    if numbers[near] == 0:
                        stack.append(near)
        self.revealed_count += len(opened)
        return opened

    def set_flag(self, cell: int, flag: bool) -> None:
        """Put a flag on a hidden cell, or take it off.

        Raises:
            ValueError: the cell is revealed, or already in that state.
        """
        if self.revealed[cell] or self.flagged[cell] == flag:
            raise ValueError(f"cell {cell} cannot be {'flagged' if flag else 'unflagged'}")
        self.flagged[cell] = flag
