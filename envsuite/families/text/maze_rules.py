"""The rules of Maze: a tile grid of walls and floor, a walker, a goal, and BFS distances.

A maze is a :class:`MazeLayout` (walls, start, goal) on a tile grid: tile ``(row, col)``
with row 0 at the top; a maze of ``width`` x ``height`` cells is a grid of
``2 * height + 1`` rows and ``2 * width + 1`` columns, cells at odd coordinates and the
passages between them on the tiles in between, walls all round. A move goes one tile up,
down, left or right; a move into a wall is illegal. :class:`MazeGame` holds the walker's
position. No text, no Gymnasium, no generator here: the env, the oracle, the tests and the
vector observation all use these classes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

#: The four moves, in the order of the vector mode's actions.
DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
#: The compass name of each move (same order).
COMPASS: tuple[str, ...] = ("north", "south", "west", "east")
#: (row, column) change of each move (same order).
DELTAS: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class MazeLayout:
    """One maze instance: the walls, where the walker starts and where the goal is.

    Attributes:
        walls: bool array (rows, cols), True for a wall; the border is all wall.
        start: The walker's first tile (row, col).
        goal: The goal's tile (row, col).
    """

    walls: np.ndarray
    start: tuple[int, int]
    goal: tuple[int, int]
    _wall_code: str = field(default="", compare=False, repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols) of the tile grid."""
        return (int(self.walls.shape[0]), int(self.walls.shape[1]))

    def key(self) -> str:
        """The canonical name of the instance: size, walls bit by bit, start, goal."""
        code = self._wall_code or wall_code(self.walls)
        (sr, sc), (gr, gc) = self.start, self.goal
        return f"{code}:{sr},{sc}:{gr},{gc}"


def wall_code(walls: np.ndarray) -> str:
    """``rowsxcols:`` then the walls as packed bits in hex (the layout part of a key)."""
    rows, cols = walls.shape
    return f"{rows}x{cols}:{np.packbits(walls.astype(np.uint8)).tobytes().hex()}"


class MazeGame:
    """A walker in a maze: where it is, where it may go, and whether it reached the goal."""

    def __init__(self, layout: MazeLayout) -> None:
        self.layout = layout
        self._walls = layout.walls
        self.position: tuple[int, int] = layout.start
        #: Moves made so far.
        self.moves = 0

    @property
    def won(self) -> bool:
        """Whether the walker stands on the goal."""
        return self.position == self.layout.goal

    def blocked(self, direction: int) -> bool:
        """Whether a wall stops the walker going ``direction`` (an index of DIRECTIONS)."""
        dr, dc = DELTAS[direction]
        row, col = self.position
        return bool(self._walls[row + dr, col + dc])

    def legal_directions(self) -> list[int]:
        """The directions the walker can go now, in DIRECTIONS order."""
        row, col = self.position
        walls = self._walls
        return [d for d, (dr, dc) in enumerate(DELTAS) if not walls[row + dr, col + dc]]

    def move(self, direction: int) -> bool:
        """Step one tile ``direction``; return whether the goal is reached.

        Raises:
            ValueError: a wall is in the way (the env checks this before, naming the rule).
        """
        if self.blocked(direction):
            raise ValueError(f"a wall blocks the move {DIRECTIONS[direction]}")
        dr, dc = DELTAS[direction]
        self.position = (self.position[0] + dr, self.position[1] + dc)
        self.moves += 1
        return self.won


def distances_to(walls: np.ndarray, target: tuple[int, int]) -> np.ndarray:
    """Breadth-first distances (in moves) from every tile to ``target``; -1 where unreachable."""
    rows, cols = walls.shape
    distance = np.full((rows, cols), -1, dtype=np.int32)
    distance[target] = 0
    queue = deque([target])
    open_tiles = ~walls
    while queue:
        row, col = queue.popleft()
        step = distance[row, col] + 1
        for dr, dc in DELTAS:
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols and open_tiles[r, c] and distance[r, c] < 0:
                distance[r, c] = step
                queue.append((r, c))
    return distance


def downhill_direction(distance: np.ndarray, position: tuple[int, int]) -> int:
    """The first direction (DIRECTIONS order) from ``position`` one move closer to the target.

    Raises:
        ValueError: ``position`` is the target or cannot reach it.
    """
    here = int(distance[position])
    if here <= 0:
        raise ValueError(f"no move from {position} gets closer (distance {here})")
    row, col = position
    for d, (dr, dc) in enumerate(DELTAS):
        if distance[row + dr, col + dc] == here - 1:
            return d
    raise ValueError(f"the distances around {position} are inconsistent")  # pragma: no cover


def shortest_path(layout: MazeLayout) -> list[int]:
    """A shortest sequence of moves (DIRECTIONS indices) from start to goal."""
    distance = distances_to(layout.walls, layout.goal)
    if distance[layout.start] < 0:
        raise ValueError("the goal cannot be reached from the start")
    position, path = layout.start, []
    while position != layout.goal:
        d = downhill_direction(distance, position)
        path.append(d)
        position = (position[0] + DELTAS[d][0], position[1] + DELTAS[d][1])
    return path
