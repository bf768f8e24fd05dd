"""Drawing mazes: a perfect maze by randomized depth-first search, optional braiding, placements.

Everything here takes its randomness from a ``numpy.random.Generator`` it is given (the
env's ``np_random``), so a maze is a function of the env's seed.

- :func:`carve_perfect_maze` is the "recursive backtracker": a random spanning tree of the
  cell grid grown by depth-first search from a random cell. Its long winding corridors make
  harder mazes than a uniform spanning tree. A perfect maze has exactly one path between
  any two cells.
- :func:`braid` removes dead ends: each dead end, with probability ``fraction``, loses one
  of its walls, which makes a loop (``fraction=1`` leaves no dead end: a "braid" maze).
- :func:`draw_layout` puts the start and the goal on two distinct random cells, and draws
  until the instance falls in the requested split (a bounded number of tries).

How many distinct instances: every Hamiltonian path of the cell grid is a depth-first tree
(a search that never backtracks), so a ``w`` x ``h`` perfect maze has at least as many
layouts as the grid has undirected Hamiltonian paths (half of OEIS A096969 for squares:
4,324 at 5x5, 229,348 at 6x6, 13,535,280 at 7x7), times ``w*h*(w*h - 1)`` start/goal
placements.
"""

from __future__ import annotations

import numpy as np

from envsuite.families.text.maze_rules import DELTAS, MazeLayout, wall_code
from envsuite.families.text.splits import Split, split_of

#: Draws of a start and goal on one layout before a new layout is carved.
PLACEMENTS_PER_LAYOUT = 8
#: Draws before :func:`draw_layout` gives up (the split is too small for the settings).
MAX_DRAWS = 400


def carve_perfect_maze(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A perfect maze of ``width`` x ``height`` cells as a wall grid (see maze_rules)."""
    walls = np.ones((2 * height + 1, 2 * width + 1), dtype=bool)
    visited = np.zeros((height, width), dtype=bool)
    row, col = int(rng.integers(height)), int(rng.integers(width))
    visited[row, col] = True
    walls[2 * row + 1, 2 * col + 1] = False
    stack = [(row, col)]
    # One uniform number per step of the search, drawn in blocks (a cell is pushed once and
    # popped once, so 2 * cells steps suffice).
    choices = rng.random(2 * width * height)
    for u in choices:
        if not stack:
            break
        row, col = stack[-1]
        options = [
            (r, c)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < height and 0 <= c < width and not visited[r, c]
        ]
        if not options:
            stack.pop()
            continue
        r, c = options[int(u * len(options))]
        visited[r, c] = True
        walls[2 * r + 1, 2 * c + 1] = False
        walls[row + r + 1, col + c + 1] = False  # the passage between the two cells
        stack.append((r, c))
    if stack:  # pragma: no cover - 2 * cells steps always finish the search
        raise AssertionError("depth-first search did not finish")
    return walls


def braid(rng: np.random.Generator, walls: np.ndarray, fraction: float) -> np.ndarray:
    """``walls`` with each dead end opened (one wall knocked out) with probability ``fraction``.

    Dead ends are visited in a random order; one that an earlier opening already joined to
    a loop is skipped. A dead end opens towards another dead end when it can (that removes
    two at once), else towards any neighbouring cell.
    """
    if fraction <= 0.0:
        return walls
    walls = walls.copy()
    rows, cols = walls.shape
    cells = [(r, c) for r in range(1, rows, 2) for c in range(1, cols, 2)]
    order = rng.permutation(len(cells))
    coins = rng.random(len(cells))
    picks = rng.random(len(cells))
    for index, coin, pick in zip(order, coins, picks, strict=True):
        row, col = cells[index]
        if _open_sides(walls, row, col) != 1 or coin >= fraction:
            continue
        closed = [
            (dr, dc)
            for dr, dc in DELTAS
            if walls[row + dr, col + dc] and 0 < row + 2 * dr < rows and 0 < col + 2 * dc < cols
        ]
        dead = [
            (dr, dc) for dr, dc in closed if _open_sides(walls, row + 2 * dr, col + 2 * dc) == 1
        ]
        options = dead or closed
        dr, dc = options[int(pick * len(options))]
        walls[row + dr, col + dc] = False
    return walls


def _open_sides(walls: np.ndarray, row: int, col: int) -> int:
    return sum(not walls[row + dr, col + dc] for dr, dc in DELTAS)


def draw_layout(
    rng: np.random.Generator,
    game: str,
    split: Split,
    width: int,
    height: int,
    braid_fraction: float = 0.0,
) -> MazeLayout:
    """A maze with start and goal on distinct random cells, whose key falls in ``split``.

    Raises:
        RuntimeError: no draw landed in ``split`` within :data:`MAX_DRAWS` (only possible
            for tiny mazes).
    """
    walls = np.ones((1, 1), dtype=bool)
    code = ""
    cells = width * height
    for attempt in range(MAX_DRAWS):
        if attempt % PLACEMENTS_PER_LAYOUT == 0:
            walls = braid(rng, carve_perfect_maze(rng, width, height), braid_fraction)
            code = wall_code(walls)
        first, second = (int(i) for i in rng.choice(cells, size=2, replace=False))
        start = (2 * (first // width) + 1, 2 * (first % width) + 1)
        goal = (2 * (second // width) + 1, 2 * (second % width) + 1)
        layout = MazeLayout(walls, start, goal, code)
        if split_of(game, layout.key()) == split:
            return layout
    raise RuntimeError(
        f"{game}: no {width}x{height} maze of the {split!r} split in {MAX_DRAWS} draws; "
        "the settings allow too few distinct instances for this split"
    )
