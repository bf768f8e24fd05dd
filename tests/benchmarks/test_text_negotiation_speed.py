"""Negotiation-v0 speed against the raw engine doing the same moves, in the same run.

Workload: ``EPISODES`` negotiations (default 8 rounds), each a reset at its own seed and
then the oracle's messages (recorded once): every argument, $1 offers while waiting and
the best offer in the last round, so 8 messages a game and resets amortised over games of
that length. ``test_envsuite_text`` goes through ``envsuite.make`` (text, ``history=
"last"``); ``test_raw_engine`` replays the same parsed moves on :class:`Negotiation` (no
parsing, no text). The envsuite row puts ``env_steps_per_s`` and ``ratio_to_raw`` in
``extra_info``. Nothing here asserts a time.
"""

from __future__ import annotations

import time
from typing import Any

import envsuite
from envsuite.families.text.negotiation_oracle import negotiation_oracle
from envsuite.families.text.negotiation_rules import Dealer, Move, Negotiation

ENV_ID = "envsuite/Negotiation-v0"
EPISODES = 50
ROUNDS = 5
MEANS: dict[str, float] = {}


def record() -> list[tuple[Dealer, list[str], list[Move]]]:
    env = envsuite.make(ENV_ID)
    oracle = negotiation_oracle(env)
    games = []
    for seed in range(EPISODES):
        observation, info = env.reset(seed=seed)
        texts: list[str] = []
        moves: list[Move] = []
        done = False
        while not done:
            text = oracle.act(observation, info)
            texts.append(text)
            moves.append(env.unwrapped.parse_move(text))
            observation, _, terminated, truncated, info = env.step(text)
            done = terminated or truncated
        games.append((env.unwrapped.dealer, texts, moves))
    return games


GAMES = record()
STEPS = sum(len(texts) for _, texts, _ in GAMES)


def raw_run() -> int:
    deals = 0
    for dealer, _, moves in GAMES:
        negotiation = Negotiation(dealer)
        for move in moves:
            negotiation.respond(move)
        deals += negotiation.price is not None
    return deals


def env_run(env: Any) -> int:
    deals = 0
    for seed, (_, texts, _) in enumerate(GAMES):
        env.reset(seed=seed)
        for text in texts:
            _, _, terminated, _, info = env.step(text)
        deals += bool(terminated and info["success"])
    return deals


def timed(benchmark: Any, name: str, function: Any) -> float:
    benchmark.group = "text-negotiation"
    started = time.perf_counter()
    deals = benchmark.pedantic(function, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    assert deals == EPISODES
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats is not None else time.perf_counter() - started
    MEANS[name] = mean
    benchmark.extra_info["env_steps_per_s"] = STEPS / mean
    benchmark.extra_info["mean_episode_length"] = STEPS / EPISODES
    return mean


def test_raw_engine(benchmark):
    timed(benchmark, "raw", raw_run)


def test_envsuite_text(benchmark):
    env = envsuite.make(ENV_ID)
    mean = timed(benchmark, "text", lambda: env_run(env))
    if "raw" not in MEANS:
        started = time.perf_counter()
        raw_run()
        MEANS["raw"] = time.perf_counter() - started
    benchmark.extra_info["ratio_to_raw"] = MEANS["raw"] / mean
