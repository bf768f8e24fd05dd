"""WerewolfParallel-v0 speed against Werewolf-v0 (the AEC form), in the same run.

Complete 7-player games (one discussion round a day) with a :class:`BeliefBot` in every
seat, each game a reset at its own seed: the Parallel row plays them through
``envsuite.make(..., parallel=True)`` with the oracle's :class:`ParallelSeat` adapters (one
step per block: the night, a vote, a speech), the AEC row through ``envsuite.make`` with
the same bots. ``games_per_s`` is each row's rate and ``ratio_to_aec`` (the AEC row's
time over the Parallel row's, measured in the same run) the Parallel row's extra info.
``pytest tests/benchmarks/test_social_werewolf_parallel_speed.py --benchmark-enable``
prints the table; in CI each runs once as a plain test. Nothing here asserts a time.

Measured (2 shared cores under other helpers' runs): about 87 games/s in the Parallel
form and 87 in the AEC form, ``ratio_to_aec`` 1.03 (the Parallel form builds every agent's
observation each step, but takes a vote or a night in one step).
"""

from __future__ import annotations

from typing import Any

import envsuite
from envsuite.families.social.werewolf_bots import BeliefBot
from envsuite.families.social.werewolf_parallel_oracle import werewolf_parallel_oracle
from tests.benchmarks.paired_timing import peer_mean, timed_mean
from tests.benchmarks.social_play import bot_games

KWARGS = {"num_players": 7}
GAMES = 20
ROUNDS = 3
MEANS: dict[str, float] = {}


def aec_bots(env: Any) -> int:
    return sum(game.winner is not None for game in bot_games(env, BeliefBot, GAMES))


def parallel_bots(env: Any) -> int:
    decided = 0
    seats = werewolf_parallel_oracle(env)
    for seed in range(GAMES):
        observations, infos = env.reset(seed=seed)
        for index, seat in enumerate(seats.values()):
            seat.reset(seed * 100 + index)
        while env.agents:
            actions = {a: seats[a].act(observations[a], infos[a]) for a in env.agents}
            observations, _, _, _, infos = env.step(actions)
        decided += env.unwrapped.game.winner is not None
    return decided


def timed(benchmark: Any, name: str, function: Any) -> float:
    benchmark.group = "social-werewolf-parallel"
    mean = timed_mean(benchmark, MEANS, name, function, ROUNDS)
    benchmark.extra_info["games_per_s"] = GAMES / mean
    return mean


def test_aec_form_bots(benchmark):
    env = envsuite.make("envsuite/Werewolf-v0", **KWARGS)
    timed(benchmark, "aec", lambda: aec_bots(env))


def test_parallel_form_bots(benchmark):
    env = envsuite.make("envsuite/WerewolfParallel-v0", parallel=True, **KWARGS)
    assert parallel_bots(env) >= GAMES - 2  # belief bots decide (nearly) every game
    mean = timed(benchmark, "parallel", lambda: parallel_bots(env))
    aec = peer_mean(MEANS, "aec", lambda: aec_bots(envsuite.make("envsuite/Werewolf-v0", **KWARGS)))
    benchmark.extra_info["ratio_to_aec"] = aec / mean
