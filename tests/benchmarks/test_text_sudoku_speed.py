"""Sudoku-v0 speed against the raw engine loop doing the same moves, in the same run.

Workload: ``EPISODES`` episodes of the default 9x9 easy puzzles (bank source), each a reset
at its own seed and then a scripted fill: the solution's digit in every empty cell, in
reading order, after one rule-breaking placement that is refused (about 45 steps an
episode, the length the oracle plays; a random-legal policy jams the board and runs to the
turn limit instead). Resets are inside the timed loop, so they are amortised over the
episodes. The envsuite rows go through ``envsuite.make`` (text mode with
``legal_actions``, last history; vector mode with ``action_mask``). The raw rows draw the
same puzzles from the bank and fill a :class:`SudokuBoard`; the raw text row also reads
each answer, lists the legal placements and writes the board the env shows, so the ratio
is what the env, the base and the wrappers add.

Each envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` (its mean time over the raw
row's, same run) in ``extra_info``. ``pytest tests/benchmarks/test_text_sudoku_speed.py
--benchmark-enable`` prints the tables. The repo's pytest config passes
``--benchmark-disable``, so in CI each runs once as a plain test of its result. Nothing
here asserts a time.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import envsuite
from envsuite.families.text.sudoku_rules import SudokuBoard

SUDOKU = "envsuite/Sudoku-v0"
EPISODES = 20
RAW_MEANS: dict[str, float] = {}
PLACEMENT = re.compile(r"^r(\d+)c(\d+)=(\d+)$")
NAMES = [f"r{i // 10 // 9 + 1}c{i // 10 % 9 + 1}={i % 10}" for i in range(810)]


def puzzles() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    env = envsuite.make(SUDOKU)
    out = []
    for seed in range(EPISODES):
        env.reset(seed=seed)
        out.append((env.unwrapped.board.puzzle, env.unwrapped.solution))
    return out


PUZZLES = puzzles()


def script(puzzle: tuple[int, ...], solution: tuple[int, ...]) -> list[tuple[int, int]]:
    """A refused placement (a given's digit in the first empty cell's row), then the fill."""
    blanks = [i for i, d in enumerate(puzzle) if not d]
    first = blanks[0]
    row = range(first - first % 9, first - first % 9 + 9)
    clash = next(puzzle[i] for i in row if puzzle[i])
    return [(first, clash)] + [(i, solution[i]) for i in blanks]


SCRIPTS = [script(*pair) for pair in PUZZLES]
TEXT_SCRIPTS = [[f"r{c // 9 + 1}c{c % 9 + 1}={d}" for c, d in moves] for moves in SCRIPTS]
VECTOR_SCRIPTS = [[c * 10 + d for c, d in moves] for moves in SCRIPTS]
STEPS = sum(len(moves) for moves in SCRIPTS)


def env_run(env: Any, scripts: list[list[Any]]) -> list[tuple[int, ...]]:
    ends = []
    for seed, actions in enumerate(scripts):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        ends.append(tuple(env.unwrapped.board.grid))
    return ends


#: A plain 9x9 board with one ``{}`` per cell, as a raw loop would write it.
TEMPLATE = "\n".join(" ".join(["{}"] * 9) for _ in range(9))
TOKENS = (".", *"123456789")


def raw_run(text: bool) -> list[tuple[int, ...]]:
    ends = []
    for (puzzle, _), moves in zip(PUZZLES, SCRIPTS, strict=True):
        board = SudokuBoard(9, puzzle)
        for cell, digit in moves:
            if text:
                r, c, d = PLACEMENT.match(f"r{cell // 9 + 1}c{cell % 9 + 1}={digit}").groups()
                cell, digit = (int(r) - 1) * 9 + int(c) - 1, int(d)
            if board.conflict(cell, digit) >= 0:
                continue
            board.place(cell, digit)
            if text:
                shown = TEMPLATE.format(*[TOKENS[d] for d in board.grid])
                legal = [NAMES[i] for i in board.legal_indices()]
                assert shown and legal is not None
        ends.append(tuple(board.grid))
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


@pytest.fixture(scope="module")
def expected() -> list[tuple[int, ...]]:
    return [solution for _, solution in PUZZLES]


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_sudoku_raw(benchmark: Any, mode: str, expected: Any) -> None:
    benchmark.group = f"sudoku-{mode}"
    assert benchmark(raw_run, mode == "text") == expected
    record(benchmark, mode, raw=True)


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_sudoku_envsuite(benchmark: Any, mode: str, expected: Any) -> None:
    benchmark.group = f"sudoku-{mode}"
    env = envsuite.make(SUDOKU, observation_mode=mode)
    actions = TEXT_SCRIPTS if mode == "text" else VECTOR_SCRIPTS
    assert benchmark(env_run, env, actions) == expected
    record(benchmark, mode, raw=False)
