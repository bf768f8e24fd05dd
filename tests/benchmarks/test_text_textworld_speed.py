"""TextWorld-v0 speed against TextWorld's own gym env on the same games, in the same run.

Workload: ``GAMES`` games of the ``medium`` bank (5 rooms, 10 objects, quest length 5), each
reset ``EPISODES_PER_GAME`` times and played by a script recorded beforehand (so no
policy is timed), resets included:

- ``textworld-walkthrough``: TextWorld's walkthrough (5 commands, the last one wins);
- ``textworld-random``: admissible commands drawn from a seeded generator until the game
  ends or ``RANDOM_TURNS`` turns pass.

Rows: ``envsuite`` (``envsuite.make("envsuite/TextWorld-v0")``, one env per game so no row
pays for loading a game: seeded resets, the parser, per-step reward, the text and the
admissible commands in info) against ``raw`` (``textworld.gym.make(
textworld.gym.register_game(path, request_infos))``, one per game: its ``reset()`` and
4-tuple ``step``). Both request the same information from TextWorld (admissible commands,
description, inventory, objective, score, max score, won, lost, walkthrough), which is
what envsuite needs for its observation and info. ``extra_info`` has ``env_steps_per_s``,
``raw_steps_per_s`` and ``raw_ratio`` (envsuite's time over TextWorld's, CPU time, best of
``ROUNDS`` each, timed in turns in one test).

Measured 2026-11-25 (TextWorld 1.7.0, 2 shared cores, ``pytest
tests/benchmarks/test_text_textworld_speed.py --benchmark-enable
--benchmark-timer=time.process_time``): walkthrough envsuite 127 steps/s, TextWorld gym
94 (``raw_ratio`` 0.74); random envsuite 230, gym 213 (0.93). The repo's config passes
``--benchmark-disable``; then each row runs once as a plain test of its result (both
sides end the same episodes the same way). Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.textworld_game import _split_games
from tests.benchmarks.paired_timing import timed_against_raw

TEXTWORLD = "envsuite/TextWorld-v0"
GAMES = 2
EPISODES_PER_GAME = 4
RANDOM_TURNS = 20
ROUNDS = 3
KINDS = ("walkthrough", "random")


def _seeds_by_game() -> dict[int, list[int]]:
    """Seeds that draw the first ``GAMES`` games of the train split, ``EPISODES_PER_GAME`` each.

    Found without resetting: a seeded reset's first draw from ``np_random(seed)`` picks the
    game (checked against the env in :func:`_plan`).
    """
    count = len(_split_games("medium", "train"))
    seeds: dict[int, list[int]] = {}
    for seed in range(100_000):
        index = int(np_random(seed)[0].integers(count))
        if index < GAMES and len(seeds.setdefault(index, [])) < EPISODES_PER_GAME:
            seeds[index].append(seed)
        if sum(map(len, seeds.values())) == GAMES * EPISODES_PER_GAME:
            return dict(sorted(seeds.items()))
    raise AssertionError("no seeds found")


def _plan() -> dict[str, Any]:
    """Per game: the seeds that draw it, its story file and a script per workload."""
    env = envsuite.make(TEXTWORLD, difficulty="medium", max_turns=RANDOM_TURNS)
    chooser = np.random.default_rng(2025)
    games: dict[str, dict[str, Any]] = {}
    for index, seeds in _seeds_by_game().items():
        game = games[f"game{index}"] = {"seeds": seeds, "random": []}
        for seed in seeds:
            _, info = env.reset(seed=seed)
            raw = env.unwrapped
            assert game.setdefault("name", raw.game.name) == raw.game.name
            game["story"], game["walkthrough"] = str(raw.game.story), list(raw.walkthrough)
            moves, done = [], False
            while not done:
                legal = info["admissible_commands"]
                moves.append(legal[int(chooser.integers(len(legal)))])
                _, _, terminated, truncated, info = env.step(moves[-1])
                done = terminated or truncated
            game["random"].append(moves)
    env.close()
    return games


GAME_PLAN = _plan()


def scripts(kind: str, game: dict[str, Any]) -> list[list[str]]:
    if kind == "walkthrough":
        return [game["walkthrough"]] * EPISODES_PER_GAME
    return game["random"]


def envsuite_run(envs: list[Any], kind: str) -> tuple[int, list[bool]]:
    steps, ends = 0, []
    for env, game in zip(envs, GAME_PLAN.values(), strict=True):
        for seed, script in zip(game["seeds"], scripts(kind, game), strict=True):
            env.reset(seed=seed)
            terminated = False
            for command in script:
                _, _, terminated, _, _ = env.step(command)
                steps += 1
            ends.append(bool(terminated))
    return steps, ends


def raw_run(envs: list[Any], kind: str) -> tuple[int, list[bool]]:
    steps, ends = 0, []
    for env, game in zip(envs, GAME_PLAN.values(), strict=True):
        for script in scripts(kind, game):
            env.reset()
            done = False
            for command in script:
                _, _, done, _ = env.step(command)
                steps += 1
            ends.append(bool(done))
    return steps, ends


@pytest.mark.parametrize("kind", KINDS)
def test_textworld_envsuite_against_textworld_gym(benchmark: Any, kind: str) -> None:
    benchmark.group = f"textworld-{kind}"
    import textworld
    import textworld.gym

    infos = textworld.EnvInfos(
        admissible_commands=True,
        description=True,
        inventory=True,
        objective=True,
        max_score=True,
        score=True,
        won=True,
        lost=True,
        extras=["walkthrough"],
    )
    raw_envs = [
        textworld.gym.make(textworld.gym.register_game(game["story"], request_infos=infos))
        for game in GAME_PLAN.values()
    ]
    envs = [
        envsuite.make(TEXTWORLD, difficulty="medium", max_turns=RANDOM_TURNS) for _ in GAME_PLAN
    ]
    expected = raw_run(raw_envs, kind)
    if kind == "walkthrough":
        assert all(expected[1])  # every walkthrough wins in TextWorld itself
    if benchmark.disabled:
        assert envsuite_run(envs, kind) == expected
    else:
        result = timed_against_raw(
            benchmark, lambda: envsuite_run(envs, kind), lambda: raw_run(raw_envs, kind), ROUNDS
        )
        assert result == expected
    for env in [*envs, *raw_envs]:
        env.close()
