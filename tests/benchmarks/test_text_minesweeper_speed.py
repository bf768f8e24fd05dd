"""Minesweeper-v0 speed against the raw engine loop making the same moves, in the same run.

Workload: ``EPISODES`` beginner games (9x9, 10 mines), each a reset at its own seed (which
draws candidate boards and certifies one with the no-guess solver) and then the oracle's
reveals, recorded once per seed as a fixed script (about 18 reveals a game, every one
safe, ending in a win): resets are amortised over episodes of the length a logical player
needs. The envsuite rows go through ``envsuite.make`` in text and vector mode. The raw
rows draw and certify the same boards with the generator and reveal the same cells on a
:class:`MinesweeperGame`; the raw text row also reads each answer and writes the board the
env shows.

Each envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` (its mean time over the raw
row's, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_text_minesweeper_speed.py --benchmark-enable`` prints the tables. The
repo's pytest config passes ``--benchmark-disable``, so in CI each runs once as a plain
test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.minesweeper_generator import draw_board
from envsuite.families.text.minesweeper_oracle import minesweeper_oracle
from envsuite.families.text.minesweeper_rules import MinesweeperGame

MINESWEEPER = "envsuite/Minesweeper-v0"
EPISODES = 50
ROWS, COLS, MINES = 9, 9, 10
RAW_MEANS: dict[str, float] = {}


def scripts() -> list[list[int]]:
    """Per seed, the cells the oracle reveals (vector actions)."""
    env = envsuite.make(MINESWEEPER, observation_mode="vector")
    oracle = minesweeper_oracle(env)
    result = []
    for seed in range(EPISODES):
        observation, info = env.reset(seed=seed)
        oracle.reset(seed=seed)
        cells: list[int] = []
        done = False
        while not done:
            cells.append(oracle.act(observation, info))
            observation, _, done, _, info = env.step(cells[-1])
        result.append(cells)
    return result


SCRIPTS = scripts()
STEPS = sum(len(cells) for cells in SCRIPTS)
TEXT_SCRIPTS = [[f"reveal {c // COLS + 1} {c % COLS + 1}" for c in cells] for cells in SCRIPTS]


def env_run(env: Any, scripts: list[list[Any]]) -> list[int]:
    revealed = []
    for seed, actions in enumerate(scripts):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        revealed.append(env.unwrapped.game.revealed_count)
    return revealed


def raw_run(text: bool) -> list[int]:
    revealed = []
    for seed, cells in enumerate(TEXT_SCRIPTS if text else SCRIPTS):
        rng = np_random(seed)[0]
        board = draw_board(rng, "minesweeper", "train", ROWS, COLS, MINES, 1000)
        game = MinesweeperGame(board)
        game.reveal(board.start)
        assert board.three_bv > 1  # the env's optimal_steps
        for cell in cells:
            if text:
                _, row, col = cell.split()
                cell = (int(row) - 1) * COLS + int(col) - 1
            game.reveal(cell)
            if text:
                marks = [
                    (str(board.numbers[c]) if board.numbers[c] else ".")
                    if game.revealed[c]
                    else "#"
                    for c in range(board.cells)
                ]
                assert "\n".join(" ".join(marks[r * COLS : (r + 1) * COLS]) for r in range(ROWS))
        revealed.append(game.revealed_count)
    return revealed


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


@pytest.fixture(scope="module")
def expected() -> list[int]:
    return raw_run(False)


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_minesweeper_raw(benchmark: Any, mode: str, expected: list[int]) -> None:
    benchmark.group = f"minesweeper-{mode}"
    assert benchmark(raw_run, mode == "text") == expected
    record(benchmark, mode, raw=True)


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_minesweeper_envsuite(benchmark: Any, mode: str, expected: list[int]) -> None:
    benchmark.group = f"minesweeper-{mode}"
    env = envsuite.make(MINESWEEPER, observation_mode=mode)
    assert benchmark(env_run, env, TEXT_SCRIPTS if mode == "text" else SCRIPTS) == expected
    record(benchmark, mode, raw=False)
