"""AmongUs-v0 speed against the raw rules engine, in the same run.

Two workloads on 5-player games (one impostor; the defaults otherwise), each game a reset
at its own seed:

- ``bots``: complete games with a :class:`BeliefBot` in every seat. The envsuite row
  plays through ``envsuite.make`` in text mode (each bot asked for its seat's command,
  which the env parses); the raw row drives a bare :class:`AmongUsGame` with the same
  bots (``choose(game, seat)``), the same deal and the same chance draws, so both play
  the same games. ``games_per_s`` is the headline figure.
- ``random``: agent-steps of random-legal play, scripts drawn once per seed from a seeded
  generator and replayed: the envsuite rows step the AEC env (vector mode with
  ``last()``, and text mode), the raw row applies the same actions to the engine.
  ``env_steps_per_s`` is the headline figure.

Each envsuite row puts its rate and ``ratio_to_raw`` (the raw row's mean time over its
own, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_social_amongus_speed.py --benchmark-enable`` prints the tables; in
CI each runs once as a plain test. Nothing here asserts a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.social.amongus import AmongUsEnv
from envsuite.families.social.amongus_bots import BeliefBot
from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import Action, Phase
from tests.benchmarks import social_play
from tests.benchmarks.paired_timing import peer_mean, timed_mean

ENV_ID = "envsuite/AmongUs-v0"
KWARGS = {"num_players": 5}
DEALER = AmongUsEnv(**KWARGS)
GAMES = 30
ROUNDS = 3
MEANS: dict[str, float] = {}


def start(seed: int) -> tuple[AmongUsGame, np.random.Generator]:
    """The game the env deals at ``seed``, with the generator its chance draws continue."""
    rng = np_random(seed)[0]
    return DEALER._deal(rng), rng


def draw(game: AmongUsGame, rng: np.random.Generator) -> None:
    social_play.draw(game, rng, Phase.CHANCE)


def scripts() -> list[list[Action]]:
    chooser = np.random.default_rng(2026)
    result = []
    for seed in range(GAMES):
        game, rng = start(seed)
        actions = []
        while not game.over:
            legal = [a for a in game.legal_actions(game.to_move) if a.kind != "say"]
            action = legal[int(chooser.integers(len(legal)))]
            actions.append(action)
            game.apply(game.to_move, action)
            draw(game, rng)
        result.append(actions)
    return result


SCRIPTS = scripts()
STEPS = sum(len(actions) for actions in SCRIPTS)


def raw_random() -> int:
    ended = 0
    for seed, actions in enumerate(SCRIPTS):
        game, rng = start(seed)
        for action in actions:
            game.legal_actions(game.to_move)
            game.apply(game.to_move, action)
            draw(game, rng)
        ended += game.over
    return ended


def encode(env: Any) -> list[list[Any]]:
    """The scripts in ``env``'s action form (the mover and phase found by replaying)."""
    result = []
    for seed, actions in enumerate(SCRIPTS):
        env.reset(seed=seed)
        encoded = []
        for action in actions:
            agent = env.agent_selection
            encoded.append(env.unwrapped.encode_action(agent, action))
            env.step(encoded[-1])
        result.append(encoded)
    return result


def raw_bots() -> int:
    decided = 0
    for seed in range(GAMES):
        game, rng = start(seed)
        bots = [BeliefBot() for _ in range(DEALER.setup.num_players)]
        for index, bot in enumerate(bots):
            bot.reset(seed * 100 + index)
        while not game.over:
            seat = game.to_move
            game.apply(seat, bots[seat].choose(game, seat))
            draw(game, rng)
        decided += game.winner is not None
    return decided


def env_bots(env: Any) -> int:
    return sum(game.winner is not None for game in social_play.bot_games(env, BeliefBot, GAMES))


def timed(benchmark: Any, name: str, function: Callable[[], int], group: str) -> float:
    benchmark.group = f"social-amongus-{group}"
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
    assert env_bots(env) == raw_bots()  # the same games are decided
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
