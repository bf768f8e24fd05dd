"""Sokoban-v0 speed against the raw engine loop doing the same moves, in the same run.

Steps and resets are measured apart, since a reset generates and certifies a level (a few
milliseconds at the default 7x7 with 2 boxes, most of it the two optimal searches).

- Steps: ``EPISODES`` default levels (seeds 0..), each reset untimed (pytest-benchmark's
  ``setup``), then a random-legal walk (a fixed script per seed, drawn once from a seeded
  generator among the legal moves) until the level is solved, a detected deadlock ends it,
  or 100 moves: the length a random-legal policy plays. The envsuite rows go through
  ``envsuite.make`` (text mode, last history; vector mode). The raw rows move a
  :class:`SokobanBoard` on the same level; the raw text row also reads each answer, lists
  the legal moves and writes the board the env shows, so the ratio is what the env, the
  base and the wrappers add.
- Resets: ``env.reset(seed)`` over the same seeds against the generator alone.

Each envsuite row puts ``env_steps_per_s`` (or ``resets_per_s``) and ``ratio_to_raw`` (its
mean time over the raw row's, same run) in ``extra_info``. ``pytest
tests/benchmarks/test_text_sokoban_speed.py --benchmark-enable`` prints the tables. The
repo's pytest config passes ``--benchmark-disable``, so in CI each runs once as a plain test
of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.sokoban import MOVE_WORDS
from envsuite.families.text.sokoban_generator import generate
from envsuite.families.text.sokoban_rules import DIRECTIONS, SokobanBoard

SOKOBAN = "envsuite/Sokoban-v0"
EPISODES = 20
MAX_TURNS = 100
RAW_MEANS: dict[str, float] = {}


def levels() -> list[Any]:
    env = envsuite.make(SOKOBAN)
    out = []
    for seed in range(EPISODES):
        env.reset(seed=seed)
        out.append(env.unwrapped.certified.level)
    return out


LEVELS = levels()


def scripts() -> list[list[int]]:
    """Per level, a random-legal walk to the end (solved, deadlock, or the turn limit)."""
    chooser = np.random.default_rng(2024)
    result = []
    for level in LEVELS:
        board = SokobanBoard(level)
        moves: list[int] = []
        while len(moves) < MAX_TURNS:
            legal = board.legal()
            moves.append(legal[int(chooser.integers(len(legal)))])
            pushed = board.move(moves[-1])
            box = board.player + level.step(moves[-1])
            if board.is_solved() or (pushed and board.is_deadlocked(box)):
                break
        result.append(moves)
    return result


SCRIPTS = scripts()
TEXT_SCRIPTS = [[DIRECTIONS[m] for m in script] for script in SCRIPTS]
STEPS = sum(len(script) for script in SCRIPTS)


def raw_episode(level: Any, moves: list[Any], text: bool) -> tuple[int, int]:
    board = SokobanBoard(level)
    for move in moves:
        if text:
            move = MOVE_WORDS[move.strip().lower()]
        assert board.blocked(move) is None
        board.move(move)
        if text:
            shown = f"{DIRECTIONS[move]}.\n{board.text()}\nboxes on targets: {board.on_target}"
            legal = [DIRECTIONS[d] for d in board.legal()]
            assert shown and legal is not None
    return board.player, board.moves


def record(benchmark: Any, key: str, raw: bool, count: int, unit: str) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: nothing was timed
        return
    mean = stats.stats.mean
    benchmark.extra_info[unit] = count / mean
    if raw:
        RAW_MEANS[key] = mean
    elif key in RAW_MEANS:
        benchmark.extra_info["ratio_to_raw"] = mean / RAW_MEANS[key]


def run_rounds(benchmark: Any, play: Any, setup: Any) -> list[Any]:
    """Each round plays one episode after an untimed setup; one pass over every episode
    per iteration of the cycle."""
    seeds = itertools.cycle(range(EPISODES))
    ends: list[Any] = []

    def prepare() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return setup(next(seeds)), {}

    def one(*args: Any) -> None:
        ends.append(play(*args))

    benchmark.pedantic(one, setup=prepare, rounds=3 * EPISODES, iterations=1)
    while len(ends) < EPISODES:  # benchmarks disabled: one round ran; check every episode
        args, _ = prepare()
        one(*args)
    return ends[:EPISODES]


@pytest.fixture(scope="module")
def expected() -> list[tuple[int, int]]:
    return [raw_episode(level, moves, False) for level, moves in zip(LEVELS, SCRIPTS, strict=True)]


def _env_episode(env: Any, actions: list[Any]) -> tuple[int, int]:
    for action in actions:
        env.step(action)
    board = env.unwrapped.board
    return board.player, board.moves


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_sokoban_steps_raw(benchmark: Any, mode: str, expected: Any) -> None:
    benchmark.group = f"sokoban-steps-{mode}"
    scripts = TEXT_SCRIPTS if mode == "text" else SCRIPTS

    def setup(seed: int) -> tuple[Any, ...]:
        return LEVELS[seed], scripts[seed], mode == "text"

    ends = run_rounds(benchmark, raw_episode, setup)
    assert ends == expected
    record(benchmark, mode, True, STEPS / EPISODES, "env_steps_per_s")


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_sokoban_steps_envsuite(benchmark: Any, mode: str, expected: Any) -> None:
    benchmark.group = f"sokoban-steps-{mode}"
    env = envsuite.make(SOKOBAN, observation_mode=mode)
    scripts = TEXT_SCRIPTS if mode == "text" else SCRIPTS

    def setup(seed: int) -> tuple[Any, ...]:
        env.reset(seed=seed)
        return env, scripts[seed]

    ends = run_rounds(benchmark, _env_episode, setup)
    assert ends == expected
    record(benchmark, mode, False, STEPS / EPISODES, "env_steps_per_s")


def raw_resets() -> list[str]:
    """The generator alone, seeded as the env seeds it (train split: most draws land)."""
    out = []
    for seed in range(EPISODES):
        rng = np_random(seed)[0]
        out.append(generate(rng, 7, 7, 2).solution)
    return out


def env_resets(env: Any) -> list[str]:
    out = []
    for seed in range(EPISODES):
        env.reset(seed=seed)
        out.append(env.unwrapped.certified.solution)
    return out


def test_sokoban_resets_raw(benchmark: Any) -> None:
    benchmark.group = "sokoban-resets"
    assert len(benchmark(raw_resets)) == EPISODES
    record(benchmark, "resets", True, EPISODES, "resets_per_s")


def test_sokoban_resets_envsuite(benchmark: Any) -> None:
    benchmark.group = "sokoban-resets"
    env = envsuite.make(SOKOBAN)
    assert len(benchmark(env_resets, env)) == EPISODES
    record(benchmark, "resets", False, EPISODES, "resets_per_s")
