"""Avalon-v0 speed against its raw rules engine, in the same run.

Two workloads on 7-player games (Merlin, Percival, two servants; Morgana, the assassin
and a minion; one discussion round before each proposal), each game a reset at its own
seed:

- ``bots``: complete games with a :class:`BeliefBot` in every seat. The envsuite row
  plays through ``envsuite.make`` in text mode (each bot asked for its seat's command,
  which the env parses); the raw row drives a bare :class:`AvalonGame` with the same
  bots (``choose(game, seat)``), the same deal and the same first leader, so both play
  the same games. ``games_per_s`` is the headline figure.
- ``random``: agent-steps of random-legal play, scripts drawn once per seed from a seeded
  generator and replayed: the envsuite rows step the AEC env (vector mode with
  ``last()``, and text mode), the raw row applies the same actions to the engine.
  ``env_steps_per_s`` is the headline figure.

Each envsuite row puts its rate and ``ratio_to_raw`` (the raw row's mean time over its
own, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_social_avalon_speed.py --benchmark-enable`` prints the tables; in
CI each runs once as a plain test. Nothing here asserts a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.social.avalon_bots import BeliefBot
from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import NAMES, AvalonAction, AvalonSetup
from tests.benchmarks import social_play
from tests.benchmarks.paired_timing import peer_mean, timed_mean

ENV_ID = "envsuite/Avalon-v0"
KWARGS = {"num_players": 7}
SETUP = AvalonSetup(num_players=7, names=NAMES[:7])
GAMES = 30
ROUNDS = 3
MEANS: dict[str, float] = {}


def start(seed: int) -> AvalonGame:
    """The game the env deals at ``seed``, its first leader drawn as the env draws it."""
    rng = np_random(seed)[0]
    base = SETUP.base_roles()
    order = rng.permutation(len(base))
    game = AvalonGame(SETUP, tuple(base[int(i)] for i in order))
    options = game.chance_outcomes()
    game.apply_chance(options[int(rng.integers(len(options)))])
    return game


def scripts() -> list[list[AvalonAction]]:
    chooser = np.random.default_rng(2026)
    result = []
    for seed in range(GAMES):
        game = start(seed)
        actions = []
        while not game.over:
            legal = [a for a in game.legal_actions(game.to_move) if a.kind != "say"]
            action = legal[int(chooser.integers(len(legal)))]
            actions.append(action)
            game.apply(game.to_move, action)
        result.append(actions)
    return result


SCRIPTS = scripts()
STEPS = sum(len(actions) for actions in SCRIPTS)


def raw_random() -> int:
    ended = 0
    for seed, actions in enumerate(SCRIPTS):
        game = start(seed)
        for action in actions:
            game.legal_actions(game.to_move)
            game.apply(game.to_move, action)
        ended += game.over
    return ended


def encode(env: Any) -> list[list[Any]]:
    """The scripts in ``env``'s action form (the mover of each step found by replaying)."""
    result = []
    for seed, actions in enumerate(SCRIPTS):
        game = start(seed)
        encoded = []
        for action in actions:
            encoded.append(env.unwrapped.encode_action(f"player_{game.to_move}", action))
            game.apply(game.to_move, action)
        result.append(encoded)
    return result


def raw_bots() -> int:
    good = 0
    for seed in range(GAMES):
        game = start(seed)
        bots = [BeliefBot() for _ in range(SETUP.num_players)]
        for index, bot in enumerate(bots):
            bot.reset(seed * 100 + index)
        while not game.over:
            seat = game.to_move
            game.apply(seat, bots[seat].choose(game, seat))
        good += game.winner == "good"
    return good


def env_bots(env: Any) -> int:
    return sum(game.winner == "good" for game in social_play.bot_games(env, BeliefBot, GAMES))


def timed(benchmark: Any, name: str, function: Callable[[], int], group: str) -> float:
    benchmark.group = f"social-avalon-{group}"
    mean = timed_mean(benchmark, MEANS, name, function, ROUNDS)
    if group == "bots":
        benchmark.extra_info["games_per_s"] = GAMES / mean
    else:
        benchmark.extra_info["env_steps_per_s"] = STEPS / mean
    return mean


def compare(benchmark: Any, mean: float, raw_name: str, raw: Callable[[], int]) -> None:
    benchmark.extra_info["ratio_to_raw"] = peer_mean(MEANS, raw_name, raw) / mean


def test_raw_engine_bots(benchmark):
    timed(benchmark, "raw_bots", raw_bots, "bots")


def test_envsuite_bots(benchmark):
    env = envsuite.make(ENV_ID, **KWARGS)
    assert env_bots(env) == raw_bots()  # the same games, the same winners
    compare(
        benchmark, timed(benchmark, "env_bots", lambda: env_bots(env), "bots"), "raw_bots", raw_bots
    )


def test_raw_engine_random(benchmark):
    timed(benchmark, "raw_random", raw_random, "random")


def test_envsuite_vector_random(benchmark):
    env = envsuite.make(ENV_ID, observation_mode="vector", **KWARGS)
    encoded = encode(env)
    mean = timed(benchmark, "vector", lambda: social_play.env_random(env, encoded), "random")
    compare(benchmark, mean, "raw_random", raw_random)


def test_envsuite_text_random(benchmark):
    env = envsuite.make(ENV_ID, **KWARGS)
    encoded = encode(env)
    mean = timed(benchmark, "text", lambda: social_play.env_random(env, encoded), "random")
    compare(benchmark, mean, "raw_random", raw_random)
