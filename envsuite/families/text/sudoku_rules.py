"""Sudoku rules: the geometry of an n x n grid and a board the player fills.

A grid is a flat tuple of ``n * n`` ints, row by row, ``0`` for an empty cell. Boxes are
``box_rows x box_cols`` (2x2 for 4x4, 2x3 for 6x6, 3x3 for 9x9). Digits are bitmasks
inside the solvers (digit ``d`` is bit ``d - 1``). No Gymnasium, no text, no generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import chain

#: Box shape (rows, columns) of each supported grid size.
BOX_SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


@dataclass(frozen=True)
class Geometry:
    """Units and peers of an n x n Sudoku."""

    size: int
    box_rows: int
    box_cols: int
    cells: int = field(init=False)
    #: Every row, column and box, as tuples of cell indices (rows, then columns, then boxes).
    units: tuple[tuple[int, ...], ...] = field(init=False)
    #: The three units (row, column, box) of each cell.
    units_of: tuple[tuple[int, int, int], ...] = field(init=False)
    #: The cells sharing a unit with each cell (itself excluded).
    peers: tuple[tuple[int, ...], ...] = field(init=False)
    full_mask: int = field(init=False)

    def __post_init__(self) -> None:
        n, br, bc = self.size, self.box_rows, self.box_cols
        rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
        boxes = [
            tuple((r0 + r) * n + (c0 + c) for r in range(br) for c in range(bc))
            for r0 in range(0, n, br)
            for c0 in range(0, n, bc)
        ]
        units = tuple(rows + cols + boxes)
        units_of = tuple(
            (i // n, n + i % n, 2 * n + (i // n) // br * (n // bc) + (i % n) // bc)
            for i in range(n * n)
        )
        peers = tuple(
            tuple(sorted({p for u in units_of[i] for p in units[u]} - {i})) for i in range(n * n)
        )
        object.__setattr__(self, "cells", n * n)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "units_of", units_of)
        object.__setattr__(self, "peers", peers)
        object.__setattr__(self, "full_mask", (1 << n) - 1)

    def box_of(self, cell: int) -> int:
        """The box index (0-based, row-major) holding ``cell``."""
        return self.units_of[cell][2] - 2 * self.size


@cache
def geometry(size: int) -> Geometry:
    """The geometry of a ``size`` x ``size`` Sudoku (4, 6 or 9)."""
    if size not in BOX_SHAPES:
        raise ValueError(f"size must be one of {sorted(BOX_SHAPES)}; got {size!r}")
    return Geometry(size, *BOX_SHAPES[size])


@cache
def digits_of(size: int) -> tuple[tuple[int, ...], ...]:
    """``digits_of(n)[mask]``: the digits of a bitmask, in increasing order."""
    return tuple(tuple(d + 1 for d in range(size) if mask >> d & 1) for mask in range(1 << size))


def conflicts(geo: Geometry, grid: tuple[int, ...] | list[int], cell: int, digit: int) -> int:
    """A peer of ``cell`` already holding ``digit`` (its index), or -1 when there is none."""
    for peer in geo.peers[cell]:
        if grid[peer] == digit:
            return peer
    return -1


def is_valid_solution(geo: Geometry, grid: tuple[int, ...] | list[int]) -> bool:
    """Whether ``grid`` is full and every row, column and box holds each digit once."""
    want = set(range(1, geo.size + 1))
    return all({grid[i] for i in unit} == want for unit in geo.units)


class SudokuBoard:
    """The player's board: the givens, the player's digits, placements and erasures.

    The board never holds two equal digits in a unit (the env refuses such a placement),
    so each unit's digits are a bitmask, and a full board is the puzzle's solution.

    Args:
        size: 4, 6 or 9.
        puzzle: The givens (flat, 0 for an empty cell).
    """

    def __init__(self, size: int, puzzle: tuple[int, ...]) -> None:
        self.geo = geometry(size)
        if len(puzzle) != self.geo.cells:
            raise ValueError(f"a {size}x{size} puzzle has {self.geo.cells} cells")
        self.puzzle = tuple(puzzle)
        self.grid = list(puzzle)
        self.empty = sum(1 for d in puzzle if d == 0)
        #: The cells the player may write in (not givens).
        self.free = tuple(i for i, d in enumerate(puzzle) if d == 0)
        #: Digits (bitmasks) in each unit: rows, then columns, then boxes.
        self.used = [0] * (3 * size)
        for cell, d in enumerate(puzzle):
            if d:
                if self.conflict(cell, d) >= 0:
                    raise ValueError(f"the puzzle repeats {d} in a unit of cell {cell}")
                self._mark(cell, d)
        self._digits = digits_of(size)
        self._is_free = [d == 0 for d in puzzle]
        #: Per cell, its legal moves as ``cell * (n + 1) + value`` (kept up to date).
        self.moves_of: list[list[int]] = [[] for _ in puzzle]
        for cell in self.free:
            self._refresh(cell)

    def _mark(self, cell: int, digit: int) -> None:
        bit = 1 << (digit - 1)
        for u in self.geo.units_of[cell]:
            self.used[u] ^= bit

    def is_given(self, cell: int) -> bool:
        """Whether ``cell`` holds a given."""
        return self.puzzle[cell] != 0

    def candidates(self, cell: int) -> int:
        """Digits (bitmask) the rules allow in ``cell`` besides the one it holds."""
        r, c, b = self.geo.units_of[cell]
        return self.geo.full_mask & ~(self.used[r] | self.used[c] | self.used[b])

    def conflict(self, cell: int, digit: int) -> int:
        """A peer holding ``digit`` (its index), or -1: placing it at ``cell`` breaks no rule."""
        return conflicts(self.geo, self.grid, cell, digit)

    def place(self, cell: int, digit: int) -> None:
        """Write ``digit`` (1..n) in ``cell``, or erase it (``digit == 0``); no checks here."""
        before = self.grid[cell]
        if before:
            self._mark(cell, before)
        self.grid[cell] = digit
        if digit:
            self._mark(cell, digit)
        self.empty += (digit == 0) - (before == 0)
        is_free = self._is_free
        self._refresh(cell)
        for peer in self.geo.peers[cell]:
            if is_free[peer]:
                self._refresh(peer)

    def is_full(self) -> bool:
        """Whether no cell is empty (then the grid is the solution)."""
        return self.empty == 0

    def _refresh(self, cell: int) -> None:
        """Recompute the legal moves of ``cell`` (a free cell)."""
        r, c, b = self.geo.units_of[cell]
        used, base = self.used, cell * (self.geo.size + 1)
        mask = self.geo.full_mask & ~(used[r] | used[c] | used[b])
        moves = [base + d for d in self._digits[mask]]
        if self.grid[cell]:
            moves.insert(0, base)
        self.moves_of[cell] = moves

    def legal_indices(self) -> list[int]:
        """Every legal (cell, value) as ``cell * (n + 1) + value``, in cell order.

        Legal: a non-given cell, a digit no peer holds (value 0 erases the player's
        digit), never the value the cell holds now.
        """
        return list(chain.from_iterable(self.moves_of))

    def legal_placements(self) -> list[tuple[int, int]]:
        """:meth:`legal_indices` as ``(cell, value)`` pairs."""
        return [divmod(i, self.geo.size + 1) for i in self.legal_indices()]
