"""Sokoban engine, solvers and generator: pushes, deadlocks, optimality, certified levels."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import numpy as np
import pytest

from envsuite.families.text.sokoban_generator import generate
from envsuite.families.text.sokoban_rules import LETTERS, Level, SokobanBoard, parse_level
from envsuite.families.text.sokoban_solver import SearchBudgetExceeded, min_pushes, solve_moves

CORRIDOR = """\
#######
#@ $ .#
#######"""

TWO = """\
######
#    #
# $$ #
#.@ .#
######"""


def brute_force_moves(level: Level) -> int | None:
    """Fewest moves by plain BFS over (player, boxes): the reference for the solver."""
    start = (level.player, frozenset(level.boxes))
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (player, boxes), depth = queue.popleft()
        if boxes <= level.targets:
            return depth
        for d in level.offsets:
            nxt = player + d
            if nxt in level.walls:
                continue
            moved = boxes
            if nxt in boxes:
                if nxt + d in level.walls or nxt + d in boxes:
                    continue
                moved = (boxes - {nxt}) | {nxt + d}
            state = (nxt, moved)
            if state not in seen:
                seen.add(state)
                queue.append((state, depth + 1))
    return None


def brute_force_pushes(level: Level) -> int | None:
    """Fewest pushes by 0-1 BFS over (player, boxes): walks cost 0, pushes 1."""
    start = (level.player, frozenset(level.boxes))
    best = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        player, boxes = state
        cost = best[state]
        if boxes <= level.targets:
            return cost
        for d in level.offsets:
            nxt = player + d
            if nxt in level.walls:
                continue
            moved, step = boxes, 0
            if nxt in boxes:
                if nxt + d in level.walls or nxt + d in boxes:
                    continue
                moved, step = (boxes - {nxt}) | {nxt + d}, 1
            new = (nxt, moved)
            if cost + step < best.get(new, 1 << 30):
                best[new] = cost + step
                queue.appendleft(new) if step == 0 else queue.append(new)
    return None


def test_parse_and_draw_in_standard_characters():
    level = parse_level(TWO)
    board = SokobanBoard(level)
    assert board.text() == TWO
    assert len(level.targets) == 2 and len(level.boxes) == 2


def test_moves_pushes_and_the_three_illegal_moves():
    board = SokobanBoard(parse_level(CORRIDOR))
    assert board.blocked(0) == "wall" and board.legal() == [3]
    assert board.move(3) is False and board.move(3) is True
    assert board.blocked(3) is None and board.move(3) is True
    assert board.is_solved() and (board.moves, board.pushes) == (3, 2)
    assert board.blocked(3) == "box against wall"
    two = SokobanBoard(parse_level("#####\n#@$$.#\n#####"))
    assert two.blocked(3) == "two boxes"


def test_dead_squares_and_frozen_blocks_are_deadlocks():
    level = parse_level("#####\n#   #\n#@$.#\n#   #\n#####")
    board = SokobanBoard(level)
    board.move(0)  # up
    board.move(3)  # right, above the box
    board.move(1)  # push it down into the bottom row: a dead square
    assert board.is_deadlocked(board.player + level.width)
    assert not SokobanBoard(level).is_deadlocked(level.boxes[0])
    frozen = parse_level("######\n#.$$ #\n#.$$@#\n######")
    assert SokobanBoard(frozen).is_deadlocked(frozen.boxes[0])


def test_the_solver_is_optimal_against_brute_force():
    rng = np.random.default_rng(0)
    levels = [parse_level(CORRIDOR), parse_level(TWO)]
    levels += [generate(rng, 7, 7, 2).level for _ in range(12)]
    levels += [generate(rng, 6, 6, 1).level for _ in range(6)]
    for level in levels:
        solution = solve_moves(level)
        assert solution is not None and len(solution) == brute_force_moves(level)
        assert min_pushes(level) == brute_force_pushes(level)
        board = SokobanBoard(level)
        for letter in solution:
            assert board.blocked(LETTERS.index(letter)) is None
            board.move(LETTERS.index(letter))
        assert board.is_solved()


def test_unsolvable_levels_and_the_search_budget():
    stuck = parse_level("#####\n#$ .#\n#@  #\n#####")  # the box sits in a corner
    assert solve_moves(stuck) is None and min_pushes(stuck) is None
    level = generate(np.random.default_rng(1), 8, 8, 3).level
    with pytest.raises(SearchBudgetExceeded):
        solve_moves(level, max_states=1)
    assert solve_moves(replace(level)) is not None


def test_generated_levels_are_certified_and_deterministic():
    for seed in range(5):
        found = generate(np.random.default_rng(seed), 7, 7, 2)
        again = generate(np.random.default_rng(seed), 7, 7, 2)
        assert found == again
        level = found.level
        assert found.optimal_moves == len(found.solution) == brute_force_moves(level)
        assert found.optimal_pushes == brute_force_pushes(level) >= 4
        assert not SokobanBoard(level).is_solved()
        border = [
            i
            for i in range(level.width * level.height)
            if i // level.width in (0, level.height - 1) or i % level.width in (0, level.width - 1)
        ]
        assert all(i in level.walls for i in border)


def test_generation_is_bounded_and_raises():
    with pytest.raises(RuntimeError, match="in 3 attempts"):
        generate(np.random.default_rng(0), 5, 5, 4, max_attempts=3)
