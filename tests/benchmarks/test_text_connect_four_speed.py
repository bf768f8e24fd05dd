"""ConnectFour-v0 speed against the raw engine and TextArena's ConnectFour-v0, in one run.

Workload: ``EPISODES`` games on the standard 6 x 7 board, each a fixed script of random
legal columns (drawn once from a seeded generator) played until a line or a full board:
about 20 moves a game, so resets are amortised over games of the length random-legal
play gives. One step is one player's move. Rows (group ``text-connect-four``):

- ``test_raw_engine``: the rules alone: :class:`ConnectFourBoard` ``play`` and
  ``legal_moves`` per move (no text, no env);
- ``test_envsuite_text`` / ``test_envsuite_vector``: the AEC env through
  ``envsuite.make`` (``step`` then the next player's ``last()`` observation);
- ``test_textarena_raw`` / ``test_textarena_llm``: TextArena 0.7.4's ``ConnectFour-v0-raw``
  (``reset(num_players=2, seed)``, then ``step("[col c]")`` and ``get_observation()``
  per move) and the same under its default wrappers (a fresh wrapper stack per game, as
  in ``test_text_textarena_speed.py``), skipped where TextArena is absent (the ``bench``
  extra brings it).

Each row puts ``env_steps_per_s`` in ``extra_info``; envsuite rows add ``ratio_to_raw``
(the raw engine's mean time over theirs, measured in the same run) and, when TextArena ran,
``ratio_vs_textarena_raw`` / ``ratio_vs_textarena_llm`` (envsuite's rate over TextArena's).
``pytest tests/benchmarks/test_text_connect_four_speed.py --benchmark-enable`` prints the
tables. Nothing here asserts a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry

ENV_ID = "envsuite/ConnectFour-v0"
EPISODES = 50
ROUNDS = 5
GROUP = "text-connect-four"
MEANS: dict[str, float] = {}


def scripts() -> list[list[int]]:
    """Per game, random legal columns until the game ends."""
    rng = np.random.default_rng(2026)
    games = []
    for _ in range(EPISODES):
        board = ConnectFourBoard(Geometry())
        while not board.over:
            legal = board.legal_moves()
            board.play(legal[int(rng.integers(len(legal)))])
        games.append(list(board.moves))
    return games


SCRIPTS = scripts()
STEPS = sum(len(moves) for moves in SCRIPTS)


def raw_run() -> int:
    ended = 0
    for moves in SCRIPTS:
        board = ConnectFourBoard(Geometry())
        for col in moves:
            board.legal_moves()
            board.play(col)
        ended += board.over
    return ended


def env_run(env: Any, scripts: list[list[Any]]) -> int:
    ended = 0
    for seed, actions in enumerate(scripts):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
            env.last()
        ended += all(env.terminations.values())
    return ended


def textarena_run(wrapped: bool) -> int:
    ta = pytest.importorskip("textarena", reason="TextArena is not installed")
    from textarena.envs.registration import ENV_REGISTRY

    game = ta.make("ConnectFour-v0-raw")
    wrappers = list(ENV_REGISTRY["ConnectFour-v0"].default_wrappers or []) if wrapped else []
    ended = 0
    for seed, moves in enumerate(SCRIPTS):
        played = game
        for wrapper in wrappers:
            played = wrapper(played)
        played.reset(num_players=2, seed=seed)
        played.get_observation()
        done = False
        for col in moves:
            done, _ = played.step(f"[col {col}]")
            if done:
                break
            played.get_observation()
        played.close()
        ended += done
    return ended


def timed(benchmark: Any, name: str, function: Callable[[], int]) -> float:
    benchmark.group = GROUP
    started = time.perf_counter()
    ended = benchmark.pedantic(function, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    assert ended == EPISODES, f"{name}: {ended} of {EPISODES} scripted games ended"
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats is not None else time.perf_counter() - started
    MEANS[name] = mean
    benchmark.extra_info["env_steps_per_s"] = STEPS / mean
    benchmark.extra_info["mean_episode_length"] = STEPS / EPISODES
    return mean


def compare(benchmark: Any, mean: float) -> None:
    raw = MEANS.get("raw")
    if raw is None:
        raw = timed_once(raw_run)
    benchmark.extra_info["ratio_to_raw"] = raw / mean
    for row in ("textarena_raw", "textarena_llm"):
        if row in MEANS:
            benchmark.extra_info[f"ratio_vs_{row}"] = MEANS[row] / mean


def timed_once(function: Callable[[], int]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def test_raw_engine(benchmark):
    timed(benchmark, "raw", raw_run)


def test_textarena_raw(benchmark):
    timed(benchmark, "textarena_raw", lambda: textarena_run(wrapped=False))


def test_textarena_llm(benchmark):
    timed(benchmark, "textarena_llm", lambda: textarena_run(wrapped=True))


def test_envsuite_text(benchmark):
    env = envsuite.make(ENV_ID)
    texts = [[f"column {col + 1}" for col in moves] for moves in SCRIPTS]
    compare(benchmark, timed(benchmark, "text", lambda: env_run(env, texts)))


def test_envsuite_vector(benchmark):
    env = envsuite.make(ENV_ID, observation_mode="vector")
    compare(benchmark, timed(benchmark, "vector", lambda: env_run(env, SCRIPTS)))
