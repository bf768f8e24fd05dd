"""TextQuest-v0 speed against its raw engine and against TextWorld, side by side in one run.

Two workloads, each a benchmark group:

- ``text-quest-walkthrough``: ``EPISODES`` episodes, each a reset and the certified
  shortest walkthrough (about 11 commands at the default ``medium`` difficulty: 5 rooms,
  2 goal objects, 4 distractors, 1 lock), so a reset every 11 steps;
- ``text-quest-random``: ``EPISODES`` episodes of random admissible commands (drawn once
  from a seeded generator among ``info["admissible_commands"]``) until the quest is won or
  ``RANDOM_TURNS`` turns pass.

Rows of each group: ``test_quest_raw`` (the engine alone: draw the same worlds with
:func:`draw_world`, which plans the walkthrough too, and apply the same commands to a
:class:`QuestGame`, listing the legal commands after each as the env does; no text),
``test_quest_envsuite`` (``envsuite.make`` in text mode: the parser, the room text, the
admissible commands in info and the wrappers; ``extra_info`` has ``ratio_to_raw``, its
mean time over the raw row's), and, where TextWorld is installed, ``test_textworld`` and
``test_textworld_gym``. The envsuite row then adds ``textworld_steps_per_s``,
``textworld_gym_steps_per_s`` and ``speedup_vs_textworld`` / ``speedup_vs_textworld_gym``
(envsuite's steps/s over TextWorld's, measured in this run).

The TextWorld games are the first ``TW_GAMES`` of ``TextWorld-v0``'s ``medium`` bank
(``datasets/text/textworld/v1``, made offline by TextWorld's own generator,
``textworld.generator.make_game`` + ``compile_game``: 5 rooms, 10 objects, quests of 5
commands; TextWorld counts keys and containers among its objects), replayed in turn for
``TW_EPISODES`` episodes (rates are compared per step); a TextWorld reset restarts the
compiled game, while an envsuite reset draws and plans a new world. (The figures below
were measured on games this module made itself with a quest of 8 actions, before the bank
existed.) Both sides request the admissible commands at every step
(``EnvInfos(admissible_commands=True)``) and replay scripts recorded beforehand, so no
policy is timed. ``test_textworld`` drives ``textworld.start(...)`` (its
``reset()`` / ``step(command) -> (state, score, done)``); ``test_textworld_gym`` drives
``textworld.gym.make(textworld.gym.register_game(...))`` (the old 4-tuple API).

TextWorld is the ``textworld`` extra (in ``.[test]``); its rows are skipped where it is
absent. To run the comparison, from the repo root::

    pytest -p no:cacheprovider tests/benchmarks/test_text_quest_speed.py --benchmark-enable \\
        --benchmark-timer=time.process_time --benchmark-columns=mean,rounds

Measured 2026-11-24 (TextWorld 1.7.0, process time on one of 2 shared cores, steps/s):
walkthrough workload: raw engine 22.8k, envsuite 13.5k (1.7x the raw time), TextWorld 330,
TextWorld gym 243: envsuite 41x TextWorld (56x its gym API); random workload: raw 78k,
envsuite 36k (2.2x), TextWorld 553, gym 464: envsuite 65x (78x).

The repo's pytest config passes ``--benchmark-disable``, so without ``--benchmark-enable``
every row runs once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.text.text_quest import DIFFICULTIES
from envsuite.families.text.text_quest_generator import draw_world
from envsuite.families.text.text_quest_rules import QuestGame

QUEST = "envsuite/TextQuest-v0"
EPISODES = 40
RANDOM_TURNS = 50
TW_GAMES = 4
#: Episodes of the TextWorld rows (their rates are compared per step, so fewer suffice;
#: TextWorld runs a few hundred steps/s and these rows run in every CI run).
TW_EPISODES = 8
KINDS = ("walkthrough", "random")
SETTINGS = DIFFICULTIES["medium"][:4]
MEANS: dict[str, float] = {}


def record_scripts() -> dict[str, list[tuple[list[str], list[tuple]]]]:
    """Per workload and seed: the command texts and the engine's commands."""
    env = envsuite.make(QUEST, max_turns=RANDOM_TURNS)
    raw = env.unwrapped
    chooser = np.random.default_rng(2024)
    result: dict[str, list[tuple[list[str], list[tuple]]]] = {kind: [] for kind in KINDS}
    for seed in range(EPISODES):
        env.reset(seed=seed)
        walk = list(raw.walkthrough)
        result["walkthrough"].append(([raw.command_text(c) for c in walk], walk))
        env.reset(seed=seed)
        texts, commands, done = [], [], False
        while not done:
            legal = raw.game.legal_commands()
            command = legal[int(chooser.integers(len(legal)))]
            texts.append(raw.command_text(command))
            commands.append(command)
            _, _, terminated, truncated, _ = env.step(texts[-1])
            done = terminated or truncated
        result["random"].append((texts, commands))
    return result


SCRIPTS = record_scripts()
STEPS = {kind: sum(len(texts) for texts, _ in SCRIPTS[kind]) for kind in KINDS}


def env_run(env: Any, kind: str) -> list[Any]:
    ends = []
    for seed, (texts, _) in enumerate(SCRIPTS[kind]):
        env.reset(seed=seed)
        for text in texts:
            env.step(text)
        ends.append(env.unwrapped.game.state())
    return ends


def raw_run(kind: str) -> list[Any]:
    ends = []
    for seed, (_, commands) in enumerate(SCRIPTS[kind]):
        world, _ = draw_world(np_random(seed)[0], "text_quest", "train", *SETTINGS)
        game = QuestGame(world)
        game.legal_commands()
        for command in commands:
            game.apply(command)
            game.legal_commands()
        ends.append(game.state())
    return ends


def record(benchmark: Any, key: str, steps: int) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: nothing was timed
        return
    mean = stats.stats.mean
    MEANS[key] = mean
    benchmark.extra_info["env_steps_per_s"] = steps / mean
    kind = key.split(":")[1]
    if key.startswith("envsuite"):
        if f"raw:{kind}" in MEANS:
            benchmark.extra_info["ratio_to_raw"] = mean / MEANS[f"raw:{kind}"]
        for row in ("textworld", "textworld_gym"):
            if f"{row}:{kind}" in MEANS:
                theirs = TW_STEPS[kind] / MEANS[f"{row}:{kind}"]
                benchmark.extra_info[f"{row}_steps_per_s"] = theirs
                benchmark.extra_info[f"speedup_vs_{row}"] = (steps / mean) / theirs


@pytest.mark.parametrize("kind", KINDS)
def test_quest_raw(benchmark: Any, kind: str) -> None:
    benchmark.group = f"text-quest-{kind}"
    expected = raw_run(kind)
    assert benchmark(raw_run, kind) == expected
    record(benchmark, f"raw:{kind}", STEPS[kind])


# -- TextWorld ----------------------------------------------------------------------------
TW_STEPS: dict[str, int] = {}


@pytest.fixture(scope="module")
def textworld_games() -> dict[str, Any]:
    """``TW_GAMES`` games of TextWorld-v0's bank and their scripts per workload."""
    textworld = pytest.importorskip("textworld")
    from envsuite.families.text.textworld_bank import load_bank

    infos = textworld.EnvInfos(admissible_commands=True)
    chooser = np.random.default_rng(2024)
    paths, scripts = [], {kind: [] for kind in KINDS}
    for game in load_bank("medium")[:TW_GAMES]:
        paths.append(str(game.story))
        description = json.loads(game.story.with_suffix(".json").read_text())
        scripts["walkthrough"].append(list(description["metadata"]["walkthrough"]))
        env = textworld.start(paths[-1], request_infos=infos)
        state, done, moves = env.reset(), False, []
        while not done and len(moves) < RANDOM_TURNS:
            legal = state["admissible_commands"]
            moves.append(legal[int(chooser.integers(len(legal)))])
            state, _, done = env.step(moves[-1])
        scripts["random"].append(moves)
        env.close()
    for kind in KINDS:
        TW_STEPS[kind] = sum(len(scripts[kind][ep % TW_GAMES]) for ep in range(TW_EPISODES))
    return {"textworld": textworld, "paths": paths, "scripts": scripts, "infos": infos}


def textworld_run(envs: list[Any], scripts: list[list[str]]) -> list[bool]:
    ends = []
    for episode in range(TW_EPISODES):
        env = envs[episode % TW_GAMES]
        env.reset()
        done = False
        for command in scripts[episode % TW_GAMES]:
            _, _, done = env.step(command)
        ends.append(bool(done))
    return ends


def textworld_gym_run(envs: list[Any], scripts: list[list[str]]) -> list[bool]:
    ends = []
    for episode in range(TW_EPISODES):
        env = envs[episode % TW_GAMES]
        env.reset()
        done = False
        for command in scripts[episode % TW_GAMES]:
            _, _, done, _ = env.step(command)
        ends.append(bool(done))
    return ends


@pytest.mark.parametrize("kind", KINDS)
def test_textworld(benchmark: Any, kind: str, textworld_games: dict[str, Any]) -> None:
    benchmark.group = f"text-quest-{kind}"
    tw = textworld_games["textworld"]
    envs = [
        tw.start(path, request_infos=textworld_games["infos"]) for path in textworld_games["paths"]
    ]
    ends = benchmark(textworld_run, envs, textworld_games["scripts"][kind])
    if kind == "walkthrough":
        assert all(ends)  # every walkthrough wins
    record(benchmark, f"textworld:{kind}", TW_STEPS[kind])
    for env in envs:
        env.close()


@pytest.mark.parametrize("kind", KINDS)
def test_textworld_gym(benchmark: Any, kind: str, textworld_games: dict[str, Any]) -> None:
    benchmark.group = f"text-quest-{kind}"
    tw = textworld_games["textworld"]
    import textworld.gym

    envs = [
        textworld.gym.make(
            textworld.gym.register_game(
                path, request_infos=textworld_games["infos"], max_episode_steps=RANDOM_TURNS
            )
        )
        for path in textworld_games["paths"]
    ]
    assert tw is textworld
    ends = benchmark(textworld_gym_run, envs, textworld_games["scripts"][kind])
    if kind == "walkthrough":
        assert all(ends)
    record(benchmark, f"textworld_gym:{kind}", TW_STEPS[kind])
    for env in envs:
        env.close()


# -- envsuite (last, so the ratios can read the rows above) ---------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_quest_envsuite(benchmark: Any, kind: str) -> None:
    benchmark.group = f"text-quest-{kind}"
    env = envsuite.make(QUEST, max_turns=RANDOM_TURNS)
    expected = raw_run(kind)
    assert benchmark(env_run, env, kind) == expected
    record(benchmark, f"envsuite:{kind}", STEPS[kind])
