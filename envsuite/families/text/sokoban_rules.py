"""Sokoban rules: a level (walls, targets, start) and the board a player pushes boxes on.

Cells are flat indices ``row * width + col``; the outer ring of every level is wall. The
standard characters: ``#`` wall, `` `` floor, ``.`` target, ``$`` box, ``*`` box on a
target, ``@`` player, ``+`` player on a target. No Gymnasium, no text beyond that, no
generator.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

#: The moves, in the vector mode's order.
DIRECTIONS = ("up", "down", "left", "right")
#: One letter per move (the LURD notation of Sokoban solutions, lower case).
LETTERS = ("u", "d", "l", "r")
#: Cost of an unreachable cell in :attr:`Level.push_distance`.
FAR = 1 << 20


@dataclass(frozen=True)
class Level:
    """A Sokoban level: its walls, targets, boxes and the player's start."""

    width: int
    height: int
    walls: frozenset[int]
    targets: frozenset[int]
    boxes: tuple[int, ...]
    player: int
    #: Per cell, the fewest pushes that bring a box there to some target, on an empty
    #: board (:data:`FAR` where none can: a dead square).
    push_distance: tuple[int, ...] = field(init=False, compare=False, repr=False)
    #: Per cell, its neighbours that are not walls.
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    #: The board without boxes and player (cell ``i`` is character ``i + i // width``).
    empty_text: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "push_distance", _push_distances(self))
        size, walls = self.width * self.height, self.walls
        near = tuple(
            tuple(i + d for d in self.offsets if 0 <= i + d < size and i + d not in walls)
            for i in range(size)
        )
        object.__setattr__(self, "neighbours", near)
        text = layout_text(self.width, self.height, walls, self.targets)
        object.__setattr__(self, "empty_text", text)

    def step(self, direction: int) -> int:
        """The cell offset of a move (0 up, 1 down, 2 left, 3 right)."""
        return (-self.width, self.width, -1, 1)[direction]

    @property
    def offsets(self) -> tuple[int, int, int, int]:
        """Cell offsets of up, down, left and right."""
        return (-self.width, self.width, -1, 1)

    def is_dead(self, cell: int) -> bool:
        """Whether a box on ``cell`` can never reach a target."""
        return self.push_distance[cell] >= FAR

    def text(self, boxes: frozenset[int] | set[int], player: int) -> str:
        """The board in the standard characters, one row a line."""
        chars = list(self.empty_text)
        w, targets = self.width, self.targets
        for b in boxes:
            chars[b + b // w] = "*" if b in targets else "$"
        chars[player + player // w] = "+" if player in targets else "@"
        return "".join(chars)


def layout_text(
    width: int, height: int, walls: frozenset[int], targets: frozenset[int] = frozenset()
) -> str:
    """A room's walls, floor and targets in the standard characters (no boxes, no player)."""
    rows = (
        "".join(
            "#" if i in walls else "." if i in targets else " "
            for i in range(r * width, (r + 1) * width)
        )
        for r in range(height)
    )
    return "\n".join(rows)


def _push_distances(level: Level) -> tuple[int, ...]:
    """Fewest pushes from each cell to a target, by pulling boxes back from the targets."""
    size = level.width * level.height
    walls = level.walls
    dist = [FAR] * size
    queue: deque[int] = deque()
    for t in level.targets:
        dist[t] = 0
        queue.append(t)
    offsets = level.offsets
    while queue:
        cell = queue.popleft()
        for d in offsets:
            # a box at cell - d, pushed by a player at cell - 2d, lands on cell
            before, behind = cell - d, cell - 2 * d
            free = 0 <= behind < size and before not in walls and behind not in walls
            if free and dist[before] == FAR:
                dist[before] = dist[cell] + 1
                queue.append(before)
    return tuple(dist)


def parse_level(text: str) -> Level:
    """A level from its standard characters (rows padded to one width with walls)."""
    lines = text.splitlines()
    width = max(len(line) for line in lines)
    walls, targets, boxes = set(), set(), []
    player = -1
    for r, line in enumerate(lines):
        for c, ch in enumerate(line.ljust(width, "#")):
            i = r * width + c
            if ch == "#":
                walls.add(i)
            if ch in ".*+":
                targets.add(i)
            if ch in "$*":
                boxes.append(i)
            if ch in "@+":
                player = i
    return Level(width, len(lines), frozenset(walls), frozenset(targets), tuple(boxes), player)


class SokobanBoard:
    """Boxes and player on a level; moves, pushes and the outcome.

    Args:
        level: The level; the board starts at its start position.
    """

    def __init__(self, level: Level) -> None:
        self.level = level
        self.boxes: set[int] = set(level.boxes)
        self.player = level.player
        self.moves = 0
        self.pushes = 0
        self.on_target = sum(1 for b in self.boxes if b in level.targets)

    def blocked(self, direction: int) -> str | None:
        """Why the move is illegal (``wall``, ``box against wall``, ``two boxes``), or None."""
        d = self.level.step(direction)
        nxt = self.player + d
        if nxt in self.level.walls:
            return "wall"
        if nxt in self.boxes:
            beyond = nxt + d
            if beyond in self.level.walls:
                return "box against wall"
            if beyond in self.boxes:
                return "two boxes"
        return None

    def legal(self) -> list[int]:
        """The directions whose move is legal."""
        return [d for d in range(4) if self.blocked(d) is None]

    def move(self, direction: int) -> bool:
        """Make a legal move; whether it pushed a box."""
        d = self.level.step(direction)
        nxt = self.player + d
        self.player = nxt
        self.moves += 1
        if nxt not in self.boxes:
            return False
        targets = self.level.targets
        self.boxes.remove(nxt)
        self.boxes.add(nxt + d)
        self.on_target += (nxt + d in targets) - (nxt in targets)
        self.pushes += 1
        return True

    def is_solved(self) -> bool:
        """Whether every box is on a target."""
        return self.on_target == len(self.boxes)

    def is_deadlocked(self, box: int) -> bool:
        """Whether the box just pushed to ``box`` makes the level unsolvable.

        Two sound tests: a box off target on a dead square, or a 2x2 block of walls and
        boxes holding a box off target (frozen for good). Other deadlocks go unseen.
        """
        level = self.level
        if box not in level.targets and level.is_dead(box):
            return True
        walls, boxes, targets, w = level.walls, self.boxes, level.targets, level.width
        for corner in (box, box - 1, box - w, box - w - 1):
            square = (corner, corner + 1, corner + w, corner + w + 1)
            if all(c in walls or c in boxes for c in square) and any(
                c in boxes and c not in targets for c in square
            ):
                return True
        return False

    def text(self) -> str:
        """The board in the standard characters."""
        return self.level.text(self.boxes, self.player)
