"""Mastermind-v0 speed against the raw engine loop making the same guesses, in the same run.

Workload: ``EPISODES`` episodes of the classic game (4 pegs, 6 colours, repeats, 10
guesses), each a reset at its own seed and then a random-legal policy's guesses (a fixed
script per seed, drawn once from a seeded generator among the codes not yet guessed) until
the code is cracked or the 10 guesses are spent: almost always 10 guesses, so resets
(which also replay the oracle's cached strategy tree for ``optimal_steps``) are amortised
over 10 steps. The envsuite rows go through ``envsuite.make`` in text and vector mode. The
raw rows draw the same secrets and score the same guesses on a :class:`MastermindGame`;
the raw text row also reads each answer and writes the feedback line the env shows.

Each envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` (its mean time over the raw
row's, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_text_mastermind_speed.py --benchmark-enable`` prints the tables. The
repo's pytest config passes ``--benchmark-disable``, so in CI each runs once as a plain
test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.mastermind import code_text, split_codes
from envsuite.families.text.mastermind_rules import MastermindGame, MastermindRules

MASTERMIND = "envsuite/Mastermind-v0"
EPISODES = 200
RULES = MastermindRules()
TABLE = RULES.codes()
MEMBERS = split_codes("mastermind", RULES, "train")
RAW_MEANS: dict[str, float] = {}


def secret_of(seed: int) -> int:
    return int(MEMBERS[np_random(seed)[0].integers(len(MEMBERS))])


def scripts() -> list[list[int]]:
    """Per seed, random distinct guesses until the code is cracked or 10 are made."""
    chooser = np.random.default_rng(2024)
    result = []
    for seed in range(EPISODES):
        secret = secret_of(seed)
        guesses = chooser.permutation(RULES.count)[:10].tolist()
        if secret in guesses:
            guesses = guesses[: guesses.index(secret) + 1]
        result.append(guesses)
    return result


SCRIPTS = scripts()
STEPS = sum(len(guesses) for guesses in SCRIPTS)
TEXT_SCRIPTS = [[code_text(TABLE.codes[g]) for g in guesses] for guesses in SCRIPTS]


def env_run(env: Any, scripts: list[list[Any]]) -> list[int]:
    pegs = []
    for seed, actions in enumerate(scripts):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        pegs.append(sum(black for _, (black, _) in env.unwrapped.game.guesses))
    return pegs


def raw_run(text: bool) -> list[int]:
    pegs = []
    for seed, guesses in enumerate(TEXT_SCRIPTS if text else SCRIPTS):
        game = MastermindGame(RULES, TABLE.codes[secret_of(seed)], 10)
        for guess in guesses:
            if text:
                code = tuple(int(token) - 1 for token in guess.split())
                black, white = game.guess(code)
                said = f"Guess {len(game.guesses)}: {guess} -> {black} black, {white} white."
                assert said
            else:
                game.guess(TABLE.codes[guess])
        pegs.append(sum(black for _, (black, _) in game.guesses))
    return pegs


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
def test_mastermind_raw(benchmark: Any, mode: str, expected: list[int]) -> None:
    benchmark.group = f"mastermind-{mode}"
    assert benchmark(raw_run, mode == "text") == expected
    record(benchmark, mode, raw=True)


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_mastermind_envsuite(benchmark: Any, mode: str, expected: list[int]) -> None:
    benchmark.group = f"mastermind-{mode}"
    env = envsuite.make(MASTERMIND, observation_mode=mode)
    assert benchmark(env_run, env, TEXT_SCRIPTS if mode == "text" else SCRIPTS) == expected
    record(benchmark, mode, raw=False)
