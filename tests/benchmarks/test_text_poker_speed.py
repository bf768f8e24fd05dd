"""KuhnPoker-v0 and LeducHoldem-v0 speed against the raw engine loop, in the same run.

Workload: ``EPISODES`` hands per game, each a reset at its own seed and then a
random-legal script (drawn once from a seeded generator among the legal actions of the
deal the seed gives): about 2 actions a hand in Kuhn poker and 3 to 4 in Leduc hold'em, so
the reset (a deal) is a large share of the work, as in real play. The envsuite rows go
through ``envsuite.make`` (text mode: the action words; vector mode: indices) and step
the AEC env for the agent to move. The raw rows deal the same cards with the same
generator calls and apply the same actions to a
:class:`~envsuite.families.text.poker_rules.PokerState`, so the ratio is what the env,
its observations and the base add.

Each envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` (its mean time over the
raw row's, in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_text_poker_speed.py --benchmark-enable`` prints the tables; in CI
each runs once as a plain test. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.poker import action_word, sample_outcome
from envsuite.families.text.poker_rules import KUHN_POKER, LEDUC_HOLDEM, PokerGame, PokerState

EPISODES = 400
GAMES = {"KuhnPoker": KUHN_POKER, "LeducHoldem": LEDUC_HOLDEM}
RAW_MEANS: dict[str, float] = {}


def deal(state: PokerState, rng: np.random.Generator) -> None:
    """Deal every pending card as the env does (one ``choice`` per chance node)."""
    while state.is_chance():
        state.apply(sample_outcome(state.chance_outcomes(), rng))


def scripts(game: PokerGame) -> list[list[tuple[int, str]]]:
    """Per seed, random-legal actions as (index, word) until the hand ends."""
    chooser = np.random.default_rng(2024)
    result = []
    for seed in range(EPISODES):
        state = game.initial_state()
        rng = np_random(seed)[0]
        deal(state, rng)
        actions = []
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[int(chooser.integers(len(legal)))]
            actions.append((action, action_word(action, state.facing_bet())))
            state.apply(action)
            deal(state, rng)
        result.append(actions)
    return result


SCRIPTS = {name: scripts(game) for name, game in GAMES.items()}
STEPS = {name: sum(len(s) for s in runs) for name, runs in SCRIPTS.items()}


def raw_run(game: PokerGame, runs: list[list[tuple[int, str]]]) -> list[tuple[float, float]]:
    ends = []
    for seed, actions in enumerate(runs):
        rng = np_random(seed)[0]
        state = game.initial_state()
        deal(state, rng)
        for action, _ in actions:
            state.apply(action)
            deal(state, rng)
        ends.append(state.returns())
    return ends


def env_run(env: Any, runs: list[list[Any]]) -> list[tuple[float, float]]:
    ends = []
    for seed, actions in enumerate(runs):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
        ends.append(env.unwrapped.state.returns())
    return ends


def record(benchmark: Any, key: str, steps: int, raw: bool) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: nothing was timed
        return
    mean = stats.stats.mean
    benchmark.extra_info["env_steps_per_s"] = steps / mean
    if raw:
        RAW_MEANS[key] = mean
    elif key in RAW_MEANS:
        benchmark.extra_info["ratio_to_raw"] = mean / RAW_MEANS[key]


@pytest.mark.parametrize("name", list(GAMES))
def test_poker_raw(benchmark: Any, name: str) -> None:
    benchmark.group = f"poker-{name}"
    expected = raw_run(GAMES[name], SCRIPTS[name])
    assert benchmark(raw_run, GAMES[name], SCRIPTS[name]) == expected
    record(benchmark, name, STEPS[name], raw=True)


@pytest.mark.parametrize("mode", ["text", "vector"])
@pytest.mark.parametrize("name", list(GAMES))
def test_poker_envsuite(benchmark: Any, name: str, mode: str) -> None:
    benchmark.group = f"poker-{name}"
    env = envsuite.make(f"envsuite/{name}-v0", observation_mode=mode)
    pick = 1 if mode == "text" else 0
    runs = [[step[pick] for step in actions] for actions in SCRIPTS[name]]
    expected = raw_run(GAMES[name], SCRIPTS[name])
    assert benchmark(env_run, env, runs) == expected
    record(benchmark, name, STEPS[name], raw=False)
