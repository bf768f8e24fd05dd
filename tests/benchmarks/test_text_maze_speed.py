"""Maze-v0 speed against the raw engine loop doing the same moves, in the same run.

Workload: ``EPISODES`` episodes of the default 7x7 maze, each a reset at its own seed and
then a random-legal walk (a fixed script per seed, drawn once from a seeded generator among
the moves the walls allow) until the goal or the turn limit (196 turns): about 170 moves
an episode, so resets are amortised over episodes of the length a random-legal policy
plays. The envsuite rows go through ``envsuite.make`` (text mode, full map and a radius-2
window; vector mode likewise). The raw rows draw the same mazes with the generator
functions and move a :class:`MazeGame`; the raw text row also reads each answer and writes
the map the env shows, so the ratio is what the env, the base and the wrappers add.

Each envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` (its mean time over the raw
row's, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_text_maze_speed.py --benchmark-enable`` prints the tables. The repo's
pytest config passes ``--benchmark-disable``, so in CI each runs once as a plain test of
its result. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.maze import MOVE_WORDS, SYMBOLS
from envsuite.families.text.maze_generator import draw_layout
from envsuite.families.text.maze_rules import DIRECTIONS, MazeGame

MAZE = "envsuite/Maze-v0"
EPISODES = 20
SIZE = 7
MAX_TURNS = 4 * SIZE * SIZE
RAW_MEANS: dict[str, float] = {}


def scripts() -> list[list[int]]:
    """Per seed, a random-legal walk until the goal or the turn limit."""
    chooser = np.random.default_rng(2024)
    result = []
    for seed in range(EPISODES):
        game = MazeGame(draw_layout(np_random(seed)[0], "maze", "train", SIZE, SIZE))
        moves: list[int] = []
        while not game.won and len(moves) < MAX_TURNS:
            legal = game.legal_directions()
            moves.append(legal[int(chooser.integers(len(legal)))])
            game.move(moves[-1])
        result.append(moves)
    return result


SCRIPTS = scripts()
STEPS = sum(len(moves) for moves in SCRIPTS)


def env_run(env: Any, scripts: list[list[Any]]) -> list[tuple[int, int]]:
    ends = []
    for seed, actions in enumerate(scripts):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        ends.append(env.unwrapped.game.position)
    return ends


def raw_run(text: bool, radius: int | None) -> list[tuple[int, int]]:
    ends = []
    for seed, moves in enumerate(SCRIPTS):
        layout = draw_layout(np_random(seed)[0], "maze", "train", SIZE, SIZE)
        game = MazeGame(layout)
        if text:
            pad = radius or 0
            codes = np.pad(np.where(layout.walls, 1, 0), pad, constant_values=1)
            codes[layout.goal[0] + pad, layout.goal[1] + pad] = 2
            rows = ["".join(SYMBOLS[v] for v in line) for line in codes.tolist()]
        for move in moves:
            if text:
                move = MOVE_WORDS[DIRECTIONS[move].lower()]
            game.move(move)
            if text:
                r, c = game.position
                if radius is None:
                    lines = list(rows)
                    lines[r] = lines[r][:c] + "@" + lines[r][c + 1 :]
                else:
                    lines = [line[c : c + 2 * radius + 1] for line in rows[r : r + 2 * radius + 1]]
                assert "\n".join(lines)
        ends.append(game.position)
    return ends


def record(benchmark: Any, key: str, raw: bool) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: nothing was timed
        return
    mean = stats.stats.mean
    benchmark.extra_info["env_steps_per_s"] = STEPS / mean
    if raw:
        RAW_MEANS[key] = mean
    elif key in RAW_MEANS:
        benchmark.extra_info["ratio_to_raw"] = mean / RAW_MEANS[key]


CASES = [("text", None), ("text", 2), ("vector", None), ("vector", 2)]
IDS = [f"{mode}-{'full' if radius is None else 'window'}" for mode, radius in CASES]


@pytest.fixture(scope="module")
def expected() -> list[tuple[int, int]]:
    return raw_run(False, None)


@pytest.mark.parametrize(("mode", "radius"), CASES, ids=IDS)
def test_maze_raw(benchmark: Any, mode: str, radius: int | None, expected: Any) -> None:
    benchmark.group = f"maze-{mode}"
    assert benchmark(raw_run, mode == "text", radius) == expected
    record(benchmark, f"{mode}-{radius}", raw=True)


@pytest.mark.parametrize(("mode", "radius"), CASES, ids=IDS)
def test_maze_envsuite(benchmark: Any, mode: str, radius: int | None, expected: Any) -> None:
    benchmark.group = f"maze-{mode}"
    env = envsuite.make(MAZE, observation_mode=mode, view_radius=radius)
    actions = SCRIPTS if mode == "vector" else [[DIRECTIONS[m] for m in s] for s in SCRIPTS]
    assert benchmark(env_run, env, actions) == expected
    record(benchmark, f"{mode}-{radius}", raw=False)
