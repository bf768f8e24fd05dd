"""What belief probes and the speaking reward cost: Werewolf-v0 with and without them.

Complete 7-player games with a :class:`BeliefBot` in every seat, each a reset at its own
seed, played through ``envsuite.make`` in text mode: once plain, once with
``belief_probes=["night", "vote"]`` (every living player answers from its posterior) and
``speaking_reward=True`` (a belief tracker per village listener, updated around every
speech). The probed games are the same games (probes change nothing in the game). The
measured row puts ``games_per_s`` and ``ratio_to_plain`` (the plain row's mean time over
its own, measured in the same run) in ``extra_info``. ``pytest
tests/benchmarks/test_social_measures_speed.py --benchmark-enable`` prints the table;
in CI each runs once as a plain test. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import envsuite
from envsuite.families.social.werewolf_bots import BeliefBot
from tests.benchmarks.paired_timing import peer_mean, timed_mean
from tests.benchmarks.social_play import bot_games

ENV_ID = "envsuite/Werewolf-v0"
MEASURED = {"belief_probes": ["night", "vote"], "speaking_reward": True}
GAMES = 30
ROUNDS = 3
MEANS: dict[str, float] = {}


def play(env: Any) -> list[str | None]:
    """Play ``GAMES`` games with belief bots; return each game's winner."""
    return [game.winner for game in bot_games(env, BeliefBot, GAMES)]


def timed(benchmark: Any, name: str, env: Any) -> float:
    benchmark.group = "social-measures"
    mean = timed_mean(benchmark, MEANS, name, lambda: play(env), ROUNDS)
    benchmark.extra_info["games_per_s"] = GAMES / mean
    return mean


def test_plain_games(benchmark):
    timed(benchmark, "plain", envsuite.make(ENV_ID, num_players=7))


def test_games_with_probes_and_speaking_reward(benchmark):
    plain = envsuite.make(ENV_ID, num_players=7)
    measured = envsuite.make(ENV_ID, num_players=7, **MEASURED)
    assert play(measured) == play(plain)  # the same games
    mean = timed(benchmark, "measured", measured)
    benchmark.extra_info["ratio_to_plain"] = peer_mean(MEANS, "plain", lambda: play(plain)) / mean
