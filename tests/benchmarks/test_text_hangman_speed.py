"""Hangman-v0 speed against the raw engine loop doing the same moves, in the same run.

Workload: ``EPISODES`` games (words of 4 to 7 letters, 6 lives) from one seeded reset
(later resets continue the generator), each played by a random-legal policy: the 26
letters in an order drawn in advance, until the word is found or the lives run out;
resets included in the time.

- ``hangman-text``: ``envsuite.make`` in text mode (history ``last``; ``legal_actions``
  in every info) against the raw loop: the same words from the same generator, the
  engine's :class:`~envsuite.families.text.hangman_rules.HangmanGame` checking and playing
  each letter, the feedback line written as the env writes it and the unguessed letters
  listed.
- ``hangman-vector``: vector mode (letter indices; the observation vector and the action
  mask) against the raw loop doing the same plus that vector and mask in numpy.

Each envsuite row puts ``env_steps_per_s``, ``raw_steps_per_s`` and ``raw_ratio`` (its time
over the raw loop's, both timed in the same test, in turns, by CPU time) in ``extra_info``.
``pytest tests/benchmarks/test_text_hangman_speed.py --benchmark-enable`` prints the tables;
add ``--benchmark-timer=time.process_time`` on a shared machine. The repo's config passes
``--benchmark-disable``, so in CI each runs once as a plain test of its result. Nothing
here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.text.hangman import VECTOR_SIZE, split_words
from envsuite.families.text.hangman_rules import LETTERS, HangmanGame
from envsuite.seeding import make_generator
from tests.benchmarks.paired_timing import timed_against_raw

HANGMAN = "envsuite/Hangman-v0"
EPISODES = 300
SEED = 778
ROUNDS = 5
SCRIPTS: list[list[int]] = [
    make_generator(0, "hangman-benchmark", str(e)).permutation(26).tolist() for e in range(EPISODES)
]
TEXT_SCRIPTS = [[LETTERS[i] for i in script] for script in SCRIPTS]


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
    """The same games on the bare engine: draws, checks, play, feedback or vector and mask."""
    rng = np.random.Generator(np.random.PCG64(SEED))
    words = split_words(None, "train")
    steps = wins = 0
    for script in scripts:
        game = HangmanGame(words[int(rng.integers(len(words)))], 6)
        for index in script:
            letter = LETTERS[index].strip().lower() if text else LETTERS[index]
            if game.refusal(letter) is not None:
                raise AssertionError("the scripts hold legal guesses only")
            hit = game.guess(letter)
            if text:
                what = f"{letter}: {game.word.count(letter)} in the word" if hit else letter
                feedback = f"{what} -> {' '.join(game.pattern)}; {game.lives} lives left"
                assert feedback and game.unguessed()
            else:
                vector = np.zeros(VECTOR_SIZE, dtype=np.float32)
                for position, shown in enumerate(game.pattern):
                    vector[position * 28 + (26 if shown == "_" else ord(shown) - 97)] = 1.0
                mask = np.ones(26, dtype=np.int8)
                for guessed in game.letters:
                    mask[ord(guessed) - 97] = 0
                    vector[7 * 28 + ord(guessed) - 97] = 1.0
            steps += 1
            if game.over:
                wins += game.won
                break
    return steps, wins


@pytest.fixture(scope="module")
def expected() -> tuple[int, int]:
    return raw_episodes(SCRIPTS, text=False)


@pytest.mark.benchmark(group="hangman-text")
def test_hangman_text_envsuite(benchmark: Any, expected: tuple[int, int]) -> None:
    env = envsuite.make(HANGMAN)
    result = timed_against_raw(
        benchmark,
        lambda: envsuite_episodes(env, TEXT_SCRIPTS),
        lambda: raw_episodes(SCRIPTS, text=True),
        rounds=ROUNDS,
    )
    assert result == expected


@pytest.mark.benchmark(group="hangman-text")
def test_hangman_text_raw(benchmark: Any, expected: tuple[int, int]) -> None:
    assert benchmark(raw_episodes, SCRIPTS, text=True) == expected


@pytest.mark.benchmark(group="hangman-vector")
def test_hangman_vector_envsuite(benchmark: Any, expected: tuple[int, int]) -> None:
    env = envsuite.make(HANGMAN, observation_mode="vector")
    result = timed_against_raw(
        benchmark,
        lambda: envsuite_episodes(env, SCRIPTS),
        lambda: raw_episodes(SCRIPTS, text=False),
        rounds=ROUNDS,
    )
    assert result == expected


@pytest.mark.benchmark(group="hangman-vector")
def test_hangman_vector_raw(benchmark: Any, expected: tuple[int, int]) -> None:
    assert benchmark(raw_episodes, SCRIPTS, text=False) == expected


def test_the_raw_loop_draws_the_envs_words() -> None:
    env = envsuite.make(HANGMAN)
    rng = np.random.Generator(np.random.PCG64(SEED))
    words = split_words(None, "train")
    env.reset(seed=SEED)
    for _ in range(20):
        assert env.unwrapped.game.word == words[int(rng.integers(len(words)))]
        env.reset()
