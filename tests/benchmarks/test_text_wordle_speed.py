"""Wordle-v0 speed against the raw engine loop doing the same moves, in the same run.

Workload: ``EPISODES`` games from one seeded reset (later resets continue the generator),
each played by a random-legal policy: six distinct allowed words drawn in advance (so a
game lasts six guesses unless a draw hits the answer), resets included in the time.

- ``wordle-text``: ``envsuite.make`` in text mode (history ``last``; the words sent bare)
  against the raw loop: the same answers from the same generator, the engine's
  :class:`~envsuite.families.text.wordle_rules.WordleGame` checking and marking each guess
  and the feedback line written as the env writes it.
- ``wordle-vector``: vector mode (word indices; the board and the action mask) against the
  raw loop doing the same plus the board and mask updates in numpy.

Each envsuite row puts ``env_steps_per_s``, ``raw_steps_per_s`` and ``raw_ratio`` (its time
over the raw loop's, both timed in the same test, in turns, by CPU time) in ``extra_info``.
``pytest tests/benchmarks/test_text_wordle_speed.py --benchmark-enable`` prints the tables;
add ``--benchmark-timer=time.process_time`` on a shared machine. The repo's config passes
``--benchmark-disable``, so in CI each runs once as a plain test of its result. Nothing
here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.text.wordle import split_answers
from envsuite.families.text.wordle_rules import MARK_NAMES, MARK_SYMBOLS, WordleGame, lexicon
from envsuite.seeding import make_generator
from tests.benchmarks.paired_timing import timed_against_raw

WORDLE = "envsuite/Wordle-v0"
EPISODES = 300
SEED = 777
ROUNDS = 5
LEX = lexicon(5)
SCRIPTS: list[list[int]] = [
    make_generator(0, "wordle-benchmark", str(e))
    .choice(len(LEX.guesses), 6, replace=False)
    .tolist()
    for e in range(EPISODES)
]
TEXT_SCRIPTS = [[LEX.guesses[i] for i in script] for script in SCRIPTS]


def envsuite_episodes(env: Any, scripts: list[list[Any]]) -> tuple[int, int]:
    """Play every script (one per episode); return (steps, wins)."""
    steps = wins = 0
    env.reset(seed=SEED)
    for episode, script in enumerate(scripts):
        if episode:
            env.reset()
        for action in script:
            _, _, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                wins += bool(info["success"])
                break
    return steps, wins


def raw_episodes(scripts: list[list[int]], *, text: bool) -> tuple[int, int]:
    """The same games on the bare engine: draws, checks, marks, feedback or board and mask."""
    rng = np.random.Generator(np.random.PCG64(SEED))
    answers = split_answers(5, "train")
    steps = wins = 0
    board = np.zeros((6, 5, 29), dtype=np.int8)
    mask = np.ones(len(LEX.guesses), dtype=np.int8)
    positions = np.arange(5)
    for script in scripts:
        game = WordleGame(answers[int(rng.integers(len(answers)))], LEX.guess_index, 6, False)
        board[:] = 0
        mask[:] = 1
        for index in script:
            word = LEX.guesses[index] if not text else LEX.guesses[index].strip().lower()
            if game.refusal(word) is not None:
                raise AssertionError("the scripts hold legal guesses only")
            marks = game.guess(word)
            if text:
                words = ", ".join(f"{c} {MARK_NAMES[m]}" for c, m in zip(word, marks, strict=True))
                feedback = f"{word} -> {' '.join(MARK_SYMBOLS[m] for m in marks)}  ({words})"
                assert feedback
            else:
                row = board[len(game.guesses) - 1]
                row[positions, LEX.letters[index]] = 1
                row[positions, 26 + np.asarray(marks)] = 1
                mask[index] = 0
                _ = board.copy(), mask.copy()
            steps += 1
            if game.over:
                wins += game.won
                break
    return steps, wins


@pytest.fixture(scope="module")
def expected() -> tuple[int, int]:
    return raw_episodes(SCRIPTS, text=False)


@pytest.mark.benchmark(group="wordle-text")
def test_wordle_text_envsuite(benchmark: Any, expected: tuple[int, int]) -> None:
    env = envsuite.make(WORDLE)
    result = timed_against_raw(
        benchmark,
        lambda: envsuite_episodes(env, TEXT_SCRIPTS),
        lambda: raw_episodes(SCRIPTS, text=True),
        rounds=ROUNDS,
    )
    assert result == expected


@pytest.mark.benchmark(group="wordle-text")
def test_wordle_text_raw(benchmark: Any, expected: tuple[int, int]) -> None:
    assert benchmark(raw_episodes, SCRIPTS, text=True) == expected


@pytest.mark.benchmark(group="wordle-vector")
def test_wordle_vector_envsuite(benchmark: Any, expected: tuple[int, int]) -> None:
    env = envsuite.make(WORDLE, observation_mode="vector")
    result = timed_against_raw(
        benchmark,
        lambda: envsuite_episodes(env, SCRIPTS),
        lambda: raw_episodes(SCRIPTS, text=False),
        rounds=ROUNDS,
    )
    assert result == expected


@pytest.mark.benchmark(group="wordle-vector")
def test_wordle_vector_raw(benchmark: Any, expected: tuple[int, int]) -> None:
    assert benchmark(raw_episodes, SCRIPTS, text=False) == expected


def test_the_raw_loop_draws_the_envs_answers() -> None:
    env = envsuite.make(WORDLE)
    rng = np.random.Generator(np.random.PCG64(SEED))
    answers = split_answers(5, "train")
    env.reset(seed=SEED)
    for _ in range(20):
        assert env.unwrapped.game.answer == answers[int(rng.integers(len(answers)))]
        env.reset()
