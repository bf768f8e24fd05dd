"""Drawing Minesweeper boards that are solvable without guessing from their start cell.

A candidate board puts the start cell uniformly on the board and the mines uniformly on the
cells that are neither the start nor around it (so the start shows 0 and opens an area).
A candidate whose key does not hash into the requested split is redrawn (cheap); one that
does is kept only if :func:`~.minesweeper_solver.solves_without_guessing` clears it, and
only if the start's opening does not clear it already (there is a game to play). Both
loops are bounded: :func:`draw_board` raises after ``max_attempts`` solver checks.
"""

from __future__ import annotations

import functools

import numpy as np

from envsuite.families.text.minesweeper_rules import MinesweeperBoard, neighbours
from envsuite.families.text.minesweeper_solver import solves_without_guessing
from envsuite.families.text.splits import Split, split_of

#: Named sizes: (rows, cols, mines), the classic Windows levels.
PRESETS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
#: Candidate draws per solver check at most (the test split takes about 10 on average).
DRAWS_PER_CHECK = 200


def draw_candidate(rng: np.random.Generator, rows: int, cols: int, mines: int) -> MinesweeperBoard:
    """A board with a random start cell and ``mines`` mines placed off it and its neighbours."""
    start = int(rng.integers(rows * cols))
    chosen = rng.choice(_mine_cells(rows, cols, start), size=mines, replace=False)
    return MinesweeperBoard(rows, cols, tuple(sorted(int(c) for c in chosen)), start)


@functools.cache
def _mine_cells(rows: int, cols: int, start: int) -> np.ndarray:
    """The cells a mine may take when ``start`` is the start cell."""
    keep_clear = {start, *neighbours(rows, cols)[start]}
    return np.array([c for c in range(rows * cols) if c not in keep_clear], dtype=np.int64)


def draw_board(
    rng: np.random.Generator,
    game: str,
    split: Split,
    rows: int,
    cols: int,
    mines: int,
    max_attempts: int,
) -> MinesweeperBoard:
    """A board of ``split`` that the solver clears from its start without a guess.

    Raises:
        RuntimeError: no candidate passed within ``max_attempts`` solver checks (the
            density is too high for no-guess boards at this size), or the split got no
            candidate within :data:`DRAWS_PER_CHECK` draws (too few boards at this size).
    """
    for _ in range(max_attempts):
        for _ in range(DRAWS_PER_CHECK):
            board = draw_candidate(rng, rows, cols, mines)
            if split_of(game, board.key()) == split:
                break
        else:
            raise RuntimeError(
                f"{game}: no {rows}x{cols} board with {mines} mines of the {split!r} split in "
                f"{DRAWS_PER_CHECK} draws; the settings allow too few boards"
            )
        if board.three_bv > 1 and solves_without_guessing(board):
            return board
    raise RuntimeError(
        f"{game}: no {rows}x{cols} board with {mines} mines could be solved without guessing "
        f"in {max_attempts} attempts; lower the density or raise max_attempts"
    )
