"""Sokoban levels from a seed: a random room, then boxes pulled back from the solved state.

After DeepMind's Boxoban generator (Racanière et al. 2017, "Imagination-augmented
agents"): a walled room is carved by a random walk that stamps small floor patterns;
targets and the player are placed on its floor with a box on every target; then the
player walks at random, pulling boxes behind it (reverse play), and the position that
scores best (box moves times the boxes' distance from their targets) becomes the start.
Reverse play makes solvable levels; the solver then certifies each one and records its
optimal moves and pushes. Attempts are bounded; running out raises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from envsuite.families.text.sokoban_rules import Level, layout_text
from envsuite.families.text.sokoban_solver import SearchBudgetExceeded, min_pushes, solve_moves

#: Floor patterns the room walk stamps around its position (Boxoban's masks).
PATTERNS = (
    ((0, 0, 0), (1, 1, 1), (0, 0, 0)),
    ((0, 1, 0), (0, 1, 0), (0, 1, 0)),
    ((0, 0, 0), (1, 1, 0), (0, 1, 0)),
    ((0, 0, 0), (1, 1, 0), (1, 1, 0)),
    ((0, 0, 0), (0, 1, 1), (0, 1, 0)),
)
_STAMP_CELLS = tuple(
    tuple((i - 1, j - 1) for i in range(3) for j in range(3) if pattern[i][j])
    for pattern in PATTERNS
)
#: A level needs at least this many pushes per box (fewer: too easy, drawn again).
MIN_PUSHES_PER_BOX = 2
#: Levels tried per reset before generation gives up.
MAX_ATTEMPTS = 100
#: Rooms drawn per attempt at most (a split's filter refuses nine in ten at worst).
ROOMS_PER_ATTEMPT = 50
#: Reverse-play steps per attempt.
REVERSE_STEPS = 300
#: Chance that a step away from an adjacent box pulls it along.
PULL_CHANCE = 0.8
#: Reverse walks per room; the best-scoring position of all is kept.
REVERSE_WALKS = 3
#: States the certifying solver may expand per level.
SOLVER_STATES = 50_000


@dataclass(frozen=True)
class CertifiedLevel:
    """A level with what its solver found: a move-optimal solution and the fewest pushes."""

    level: Level
    solution: str
    optimal_moves: int
    optimal_pushes: int


def room(rng: np.random.Generator, width: int, height: int) -> set[int]:
    """Floor cells of a random room inside a ``width`` x ``height`` walled rectangle."""
    steps = int(1.5 * (width + height))
    start_r, start_c = rng.integers(1, height - 1), rng.integers(1, width - 1)
    turns = (rng.random(steps + 1) < 0.35).tolist()
    headings = rng.integers(4, size=steps + 1).tolist()
    stamps = rng.integers(len(PATTERNS), size=steps).tolist()
    moves = ((-1, 0), (1, 0), (0, -1), (0, 1))
    floor: set[int] = set()
    r, c = int(start_r), int(start_c)
    dr, dc = moves[headings[0]]
    for k in range(steps):
        if turns[k + 1]:
            dr, dc = moves[headings[k + 1]]
        r = min(max(r + dr, 1), height - 2)
        c = min(max(c + dc, 1), width - 2)
        for i, j in _STAMP_CELLS[stamps[k]]:
            rr, cc = r + i, c + j
            if 0 < rr < height - 1 and 0 < cc < width - 1:
                floor.add(rr * width + cc)
    return floor


def reverse_play(
    rng: np.random.Generator, width: int, floor: list[int], num_boxes: int
) -> tuple[frozenset[int], tuple[int, ...], int] | None:
    """``(targets, boxes, player)`` after pulling boxes back from the solved state."""
    if len(floor) < num_boxes + 3:
        return None
    picks = rng.choice(len(floor), num_boxes + 1, replace=False).tolist()
    targets = [floor[i] for i in picks[:num_boxes]]
    player = floor[picks[num_boxes]]
    open_cells = set(floor)
    best: tuple[int, tuple[int, ...], int] | None = None
    for _ in range(REVERSE_WALKS):
        best = _walk_back(rng, width, open_cells, targets, player, best)
    if best is None or best[0] <= 0:
        return None
    return frozenset(targets), best[1], best[2]


def _walk_back(
    rng: np.random.Generator,
    width: int,
    open_cells: set[int],
    targets: list[int],
    player: int,
    best: tuple[int, tuple[int, ...], int] | None,
) -> tuple[int, tuple[int, ...], int] | None:
    """One random reverse walk from the solved state; the best-scoring start so far."""
    boxes = list(targets)  # box k started on targets[k]
    offsets = (-width, width, -1, 1)
    swaps, last, displacement = 0, -1, 0
    steps = rng.integers(4, size=REVERSE_STEPS).tolist()
    pulls = (rng.random(REVERSE_STEPS) < PULL_CHANCE).tolist()
    for direction, pull in zip(steps, pulls, strict=True):
        d = offsets[direction]
        nxt = player + d
        if nxt not in open_cells or nxt in boxes:
            continue
        behind = player - d
        if pull and behind in boxes:
            k = boxes.index(behind)
            boxes[k] = player
            if k != last:
                swaps, last = swaps + 1, k
            displacement = sum(
                abs(b % width - t % width) + abs(b // width - t // width)
                for b, t in zip(boxes, targets, strict=True)
            )
            score = swaps * displacement
            if (best is None or score > best[0]) and not any(b in targets for b in boxes):
                best = (score, tuple(sorted(boxes)), nxt)
        player = nxt
    return best


def certify(level: Level, max_states: int = SOLVER_STATES) -> CertifiedLevel:
    """``level`` with a move-optimal solution and its fewest pushes.

    Raises:
        ValueError: the level has no solution.
        SearchBudgetExceeded: a search expanded more than ``max_states`` states.
    """
    solution = solve_moves(level, max_states)
    pushes = min_pushes(level, max_states)
    if solution is None or pushes is None:
        raise ValueError("the level has no solution")
    return CertifiedLevel(level, solution, len(solution), pushes)


def generate(
    rng: np.random.Generator,
    width: int,
    height: int,
    num_boxes: int,
    max_attempts: int = MAX_ATTEMPTS,
    accept: Callable[[str], bool] | None = None,
) -> CertifiedLevel:
    """A level certified solvable by the solver, with its optimal moves and pushes.

    Args:
        rng: The source of randomness.
        width: The level's width, outer walls included.
        height: The level's height, outer walls included.
        num_boxes: Boxes and targets.
        max_attempts: Levels certified (or found too easy) before giving up.
        accept: When given, a room whose walls (:func:`layout_text` without targets) it
            refuses is drawn again before anything else is done (the env keeps a
            split's rooms so); at most ``ROOMS_PER_ATTEMPT`` rooms are drawn per attempt.

    Raises:
        RuntimeError: no attempt of ``max_attempts`` made a certified level.
    """
    attempts = 0
    for _ in range(ROOMS_PER_ATTEMPT * max_attempts):
        floor = sorted(room(rng, width, height))
        walls = frozenset(set(range(width * height)) - set(floor))
        if accept is not None and not accept(layout_text(width, height, walls)):
            continue
        placed = reverse_play(rng, width, floor, num_boxes)
        if placed is None:
            continue
        targets, boxes, player = placed
        attempts += 1
        try:
            found = certify(Level(width, height, walls, targets, boxes, player))
        except (SearchBudgetExceeded, ValueError):  # too hard to certify (or no solution)
            found = None
        if found is not None and found.optimal_pushes >= MIN_PUSHES_PER_BOX * num_boxes:
            return found  # else too easy, or uncertified: drawn again
        if attempts >= max_attempts:
            break
    raise RuntimeError(
        f"no certified {width}x{height} Sokoban level with {num_boxes} boxes in "
        f"{max_attempts} attempts"
    )
