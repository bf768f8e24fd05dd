"""Sokoban solvers: fewest moves (A* over push states) and fewest pushes (BFS).

Both search states "boxes + player"; a transition is one push, preceded by the shortest
walk to the pushing spot. :func:`solve_moves` weighs a push by that walk plus one and
gives a move-optimal solution; :func:`min_pushes` counts pushes only, with the player
normalised to the region it can reach. Boxes are never pushed onto dead squares (cells
from which no push sequence reaches a target on an empty board: pruning them loses no
solution). The heuristic, each box's push distance to its nearest target, never
overestimates either cost, so both answers are optimal. A state budget bounds each search.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Iterator

from envsuite.families.text.sokoban_rules import FAR, LETTERS, Level

#: States a search may expand before it gives up.
MAX_STATES = 200_000


class SearchBudgetExceeded(RuntimeError):
    """The search expanded :data:`MAX_STATES` states without an answer."""


def _walk(level: Level, boxes: frozenset[int], start: int) -> dict[int, int]:
    """Cells the player reaches from ``start`` without pushing, with their parent cell."""
    neighbours = level.neighbours
    parent = {start: -1}
    queue = [start]
    for cell in queue:
        for nxt in neighbours[cell]:
            if nxt not in parent and nxt not in boxes:
                parent[nxt] = cell
                queue.append(nxt)
    return parent


def _walk_distances(level: Level, boxes: frozenset[int], start: int) -> dict[int, int]:
    neighbours = level.neighbours
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        step = dist[cell] + 1
        for nxt in neighbours[cell]:
            if nxt not in dist and nxt not in boxes:
                dist[nxt] = step
                queue.append(nxt)
    return dist


def _heuristic(level: Level, boxes: Iterable[int]) -> int:
    return sum(level.push_distance[b] for b in boxes)


def _pushes(
    level: Level, boxes: frozenset[int], reach: Iterable[int]
) -> Iterator[tuple[int, int, int, frozenset[int]]]:
    """Every push from the player's reachable cells: (spot, direction, box, new boxes)."""
    walls, dist = level.walls, level.push_distance
    reachable = set(reach)
    for box in boxes:
        for k, d in enumerate(level.offsets):
            spot, dest = box - d, box + d
            if spot in reachable and dest not in walls and dest not in boxes and dist[dest] < FAR:
                yield spot, k, box, (boxes - {box}) | {dest}


def solve_moves(level: Level, max_states: int = MAX_STATES) -> str | None:
    """A move-optimal solution in LURD letters (lower case), or None if there is none.

    Raises:
        SearchBudgetExceeded: more than ``max_states`` states were expanded.
    """
    start = (frozenset(level.boxes), level.player)
    if _heuristic(level, start[0]) >= FAR:
        return None
    best = {start: 0}
    parent: dict[tuple[frozenset[int], int], tuple[tuple[frozenset[int], int], int, int]] = {}
    heap = [(_heuristic(level, start[0]), 0, 0, start)]
    tie = 0
    expanded = 0
    targets = level.targets
    while heap:
        _, cost, _, state = heapq.heappop(heap)
        if cost > best[state]:
            continue
        boxes, player = state
        if boxes <= targets:
            return _moves_of(level, parent, state)
        expanded += 1
        if expanded > max_states:
            raise SearchBudgetExceeded(f"more than {max_states} states")
        dist = _walk_distances(level, boxes, player)
        for spot, k, box, after in _pushes(level, boxes, dist):
            nxt = (after, box)
            new = cost + dist[spot] + 1
            if new < best.get(nxt, FAR):
                best[nxt] = new
                parent[nxt] = (state, spot, k)
                tie += 1
                heapq.heappush(heap, (new + _heuristic(level, after), new, tie, nxt))
    return None


def _moves_of(level: Level, parent: dict, state: tuple[frozenset[int], int]) -> str:
    """The moves from the start to ``state`` along the search's parents."""
    pushes = []
    while state in parent:
        prev, spot, k = parent[state]
        pushes.append((prev, spot, k))
        state = prev
    letters: list[str] = []
    offsets = level.offsets
    for (boxes, player), spot, k in reversed(pushes):
        tree = _walk(level, boxes, player)
        path = []
        cell = spot
        while cell != player:
            prev = tree[cell]
            path.append(LETTERS[offsets.index(cell - prev)])
            cell = prev
        letters.extend(reversed(path))
        letters.append(LETTERS[k])
    return "".join(letters)


def min_pushes(level: Level, max_states: int = MAX_STATES) -> int | None:
    """The fewest pushes that solve ``level``, or None if it has no solution.

    Raises:
        SearchBudgetExceeded: more than ``max_states`` states were expanded.
    """
    boxes = frozenset(level.boxes)
    h = _heuristic(level, boxes)
    if h >= FAR:
        return None
    region = _walk(level, boxes, level.player)
    start = (boxes, min(region))
    best = {start: 0}
    heap = [(h, 0, 0, start, region)]
    tie = 0
    expanded = 0
    targets = level.targets
    while heap:
        _, depth, _, key, region = heapq.heappop(heap)
        if depth > best[key]:
            continue
        boxes = key[0]
        if boxes <= targets:
            return depth
        expanded += 1
        if expanded > max_states:
            raise SearchBudgetExceeded(f"more than {max_states} states")
        for _, _, box, after in _pushes(level, boxes, region):
            reach = _walk(level, after, box)
            nxt = (after, min(reach))
            if depth + 1 < best.get(nxt, FAR):
                best[nxt] = depth + 1
                tie += 1
                f = depth + 1 + _heuristic(level, after)
                heapq.heappush(heap, (f, depth + 1, tie, nxt, reach))
    return None
