"""Werewolf-v0 speed against the raw rules engine, in the same run.

Two workloads on 7-player games (1 werewolf, a seer, a doctor, 4 villagers; one
discussion round a day), each game a reset at its own seed:

- ``bots``: complete games with a :class:`BeliefBot` in every seat. The envsuite row
  plays through ``envsuite.make`` in text mode (each bot asked for its seat's command,
  which the env parses); the raw row drives a bare :class:`WerewolfGame` with the same
  bots (``choose(game, seat)``), the same deal and the same chance draws, so both play
  the same games. ``games_per_s`` is the headline figure (issue target: 100 per core).
- ``random``: agent-steps of random-legal play, scripts drawn once per seed from a seeded
  generator and replayed: the envsuite rows step the AEC env (vector mode with
  ``last()``, and text mode), the raw row applies the same actions to the engine.
  ``env_steps_per_s`` is the headline figure (issue target: 100,000).

Each envsuite row puts its rate and ``ratio_to_raw`` (the raw row's mean time over its
own, measured in the same run) in ``extra_info``. ``test_textarena_secret_mafia_random``
times TextArena 0.7.4's SecretMafia-v0 (7 players, random legal players: the workload of
``test_social_mafia_speed.py``) in the same run, skipped where TextArena is absent (CI);
when it ran, the random rows add ``ratio_vs_textarena`` (their agent-steps/s over
SecretMafia's; the games differ, so the rates compare per step). The random rows and
TextArena's also give ``cpu_steps_per_s`` (agent-steps per CPU second, best of the rounds:
on a loaded machine the wall-clock mean counts the time other jobs hold the core, the
CPU time does not) and the envsuite rows ``cpu_ratio_vs_textarena``. ``pytest
tests/benchmarks/test_social_werewolf_speed.py --benchmark-enable`` prints the tables
(``--benchmark-json`` keeps ``extra_info``); in CI each runs once as a plain test.
Nothing here asserts a time.

Measured (third speed pass; 2 cores shared with other jobs, load average 3.5; CPU time,
best of 7 rounds of the random workload, five runs timed in turns with the tree before):
random agents 91-103k agent-steps/s in text mode (median 97.3k) and 91-103k in vector mode
(median 99.8k), against 84-94k and 86-93k for the tree before (which gave 96.0k and 91.7k
at load 1.2); the raw engine 196-213k; TextArena's SecretMafia 130-153k in this file's
runs. **The issue's 100,000 agent-steps/s is not shown met on a quiet machine**: scaled by
the tree before's quiet figures, about 105k (text) and 103k (vector), not measured.
Scripted belief bots (an earlier pass; CPU time, best of 5): about 340 complete games/s
through the env (the raw engine with the same bots: 490).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.social.werewolf_bots import BeliefBot
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import NAMES, Action, Phase, WerewolfSetup
from tests.benchmarks import social_play
from tests.benchmarks.paired_timing import peer_mean, process_seconds, timed_mean, timing_rounds
from tests.benchmarks.test_social_mafia_speed import textarena_games

ENV_ID = "envsuite/Werewolf-v0"
KWARGS = {"num_players": 7}
SETUP = WerewolfSetup(num_players=7, num_werewolves=1, max_days=7, names=NAMES[:7])
GAMES = 40
ROUNDS = 3
MEANS: dict[str, float] = {}
#: TextArena's SecretMafia agent-steps/s (wall clock and CPU), when its row ran in this session.
TEXTARENA: dict[str, float] = {}
#: Each random row's agent-steps per CPU second (see :func:`cpu_rate`).
CPU: dict[str, float] = {}


def start(seed: int) -> tuple[WerewolfGame, np.random.Generator]:
    """The game the env deals at ``seed``, with the generator its chance draws continue."""
    rng = np_random(seed)[0]
    base = SETUP.base_roles()
    order = rng.permutation(len(base))
    return WerewolfGame(SETUP, tuple(base[int(i)] for i in order)), rng


def draw(game: WerewolfGame, rng: np.random.Generator) -> None:
    social_play.draw(game, rng, Phase.CHANCE)


def scripts() -> list[list[Action]]:
    chooser = np.random.default_rng(2026)
    result = []
    for seed in range(GAMES):
        game, rng = start(seed)
        draw(game, rng)
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
        draw(game, rng)
        for action in actions:
            game.legal_actions(game.to_move)
            game.apply(game.to_move, action)
            draw(game, rng)
        ended += game.over
    return ended


def encode(env: Any) -> list[list[Any]]:
    """The scripts in ``env``'s action form (the mover of each step found by replaying)."""
    result = []
    for seed, actions in enumerate(SCRIPTS):
        game, rng = start(seed)
        draw(game, rng)
        encoded = []
        for action in actions:
            agent = f"player_{game.to_move}"
            encoded.append(env.unwrapped.encode_action(agent, action))
            game.apply(game.to_move, action)
            draw(game, rng)
        result.append(encoded)
    return result


def raw_bots() -> int:
    decided = 0
    for seed in range(GAMES):
        game, rng = start(seed)
        bots = [BeliefBot() for _ in range(SETUP.num_players)]
        for index, bot in enumerate(bots):
            bot.reset(seed * 100 + index)
        draw(game, rng)
        while not game.over:
            seat = game.to_move
            game.apply(seat, bots[seat].choose(game, seat))
            draw(game, rng)
        decided += game.winner is not None
    return decided


def env_bots(env: Any) -> int:
    return sum(game.winner is not None for game in social_play.bot_games(env, BeliefBot, GAMES))


def timed(benchmark: Any, name: str, function: Callable[[], int], group: str) -> float:
    benchmark.group = f"social-werewolf-{group}"
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
    cpu_rate(benchmark, "raw_random", raw_random)


def test_textarena_secret_mafia_random(benchmark):
    """TextArena's SecretMafia-v0 (7 players, random legal players), in this run."""
    benchmark.group = "social-werewolf-random"
    started = time.perf_counter()
    _, steps = benchmark.pedantic(textarena_games, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats is not None else time.perf_counter() - started
    benchmark.extra_info["env_steps_per_s"] = steps / mean
    TEXTARENA["steps_per_s"] = steps / mean
    best = min(process_seconds(textarena_games) for _ in range(timing_rounds(benchmark, ROUNDS)))
    benchmark.extra_info["cpu_steps_per_s"] = TEXTARENA["cpu_steps_per_s"] = steps / best


def test_envsuite_vector_random(benchmark):
    env = envsuite.make(ENV_ID, observation_mode="vector", **KWARGS)
    encoded = encode(env)
    mean = timed(benchmark, "vector", lambda: social_play.env_random(env, encoded), "random")
    compare(benchmark, mean, "raw_random", raw_random)
    beside_textarena(
        benchmark, mean, cpu_rate(benchmark, "vector", lambda: social_play.env_random(env, encoded))
    )


def test_envsuite_text_random(benchmark):
    env = envsuite.make(ENV_ID, **KWARGS)
    encoded = encode(env)
    mean = timed(benchmark, "text", lambda: social_play.env_random(env, encoded), "random")
    compare(benchmark, mean, "raw_random", raw_random)
    beside_textarena(
        benchmark, mean, cpu_rate(benchmark, "text", lambda: social_play.env_random(env, encoded))
    )


def cpu_rate(benchmark: Any, name: str, function: Callable[[], int]) -> float:
    """Agent-steps per CPU second, best of ``ROUNDS`` calls, into ``extra_info``.

    CPU time leaves out the time other jobs hold the core, so on a loaded machine it is
    the steadier figure (the wall-clock mean of the table counts it in).
    """
    rate = STEPS / min(process_seconds(function) for _ in range(timing_rounds(benchmark, ROUNDS)))
    benchmark.extra_info["cpu_steps_per_s"] = CPU[name] = rate
    return rate


def beside_textarena(benchmark: Any, mean: float, cpu: float) -> None:
    """Add ``ratio_vs_textarena`` (this row's agent-steps/s over SecretMafia's) when it ran.

    ``cpu_ratio_vs_textarena`` is the same ratio of the CPU-time rates.
    """
    if "steps_per_s" in TEXTARENA:
        benchmark.extra_info["ratio_vs_textarena"] = STEPS / mean / TEXTARENA["steps_per_s"]
        benchmark.extra_info["cpu_ratio_vs_textarena"] = cpu / TEXTARENA["cpu_steps_per_s"]
