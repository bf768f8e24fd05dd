"""KuhnPoker-v0 against TextArena's KuhnPoker-v0, side by side in the same run.

Group ``text-textarena-kuhnpoker``; rows replay ``STEPS`` recorded actions each, resets
included (the house style of :mod:`tests.benchmarks.test_text_textarena_speed`, whose
timing helpers this module uses; read its docstring for the TextArena venv):

- ``test_textarena_kuhn_raw``: ``ta.make("KuhnPoker-v0-raw")`` (no wrappers),
  ``reset(num_players=2, seed=...)``, then ``get_observation()`` + ``step(action)`` per
  action. TextArena's episode is a match of ``max_rounds=3`` hands (its default), so one
  reset serves about 6 actions;
- ``test_textarena_kuhn_llm``: the same behind TextArena's default wrappers (the whole
  history as one string per step);
- ``test_envsuite_kuhn``: ``envsuite.make("envsuite/KuhnPoker-v0")`` in text mode, an AEC
  env whose episode is one hand: ``reset(seed=...)`` then ``step(word)`` per action and
  ``observe(agent)`` for the next agent to act (about 2 actions per reset, so envsuite
  pays three times as many resets per step as TextArena here).

Recorded actions: uniformly random among the legal ones (TextArena's legal-action tree;
envsuite's ``info["legal_actions"]``), drawn from ``random.Random(seed)``, each checked
to be accepted. Each envsuite row's ``extra_info`` has ``ratio_vs_textarena_raw`` and
``ratio_vs_textarena_llm`` (envsuite's steps/s over TextArena's). Skipped where
TextArena is not installed. Nothing here asserts a time.

TextArena's Kuhn poker differs from the standard game (Kuhn, 1950) in ways that matter
to an evaluation: the first player alternates between hands, starting with Player 1;
the whole match is won on the chip total; it draws cards with the process-wide
``random``; and it does not offer a raise, so the games agree on every hand's betting.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import envsuite
import tests.benchmarks.test_text_textarena_speed as house

STEPS = house.STEPS
EPISODES = 12
GROUP = "text-textarena-kuhnpoker"
RATES: dict[str, float] = {}

Episode = tuple[int, list[str]]
_RECORDED: dict[str, Any] = {}


def textarena_kuhn() -> tuple[Any, list[Any], list[Episode]]:
    ta = house.textarena()
    if "textarena" not in _RECORDED:
        from textarena.envs.registration import ENV_REGISTRY

        env = ta.make("KuhnPoker-v0-raw")
        wrappers = list(ENV_REGISTRY["KuhnPoker-v0"].default_wrappers or [])
        episodes = [record_textarena(env, seed) for seed in range(EPISODES)]
        _RECORDED["textarena"] = (env, wrappers, episodes)
    return _RECORDED["textarena"]


def record_textarena(env: Any, seed: int) -> Episode:
    env.reset(num_players=2, seed=seed)
    rng = random.Random(seed)
    actions: list[str] = []
    done = False
    while not done:
        env.get_observation()
        legal = sorted(env.state.game_state["current_legal_action_tree"])
        action = f"[{rng.choice(legal)}]"
        actions.append(action)
        done, _ = env.step(action)
        assert env.state.error_count == 0, f"TextArena refused {action!r}"
    env.close()
    return seed, actions


def replay_textarena(env: Any, wrappers: list[Any], episodes: list[Episode]) -> int:
    steps = 0
    for begun, (seed, actions) in enumerate(itertools.cycle(episodes), start=1):
        played = env
        for wrapper in wrappers:
            played = wrapper(played)
        played.reset(num_players=2, seed=seed)
        for number, action in enumerate(actions, start=1):
            played.get_observation()
            done, _ = played.step(action)
            steps += 1
            if done:
                assert number == len(actions), "TextArena ended an episode early"
                played.close()
            if steps == STEPS:
                return begun
            if done:
                break
    raise AssertionError("unreachable")


def envsuite_episodes() -> list[Episode]:
    if "envsuite" not in _RECORDED:
        env = envsuite.make("envsuite/KuhnPoker-v0")
        episodes = []
        for seed in range(EPISODES):
            rng = random.Random(seed)
            env.reset(seed=seed)
            actions = []
            while not all(env.terminations.values()):
                agent = env.agent_selection
                action = rng.choice(env.infos[agent]["legal_actions"])
                actions.append(action)
                env.step(action)
                assert env.infos[agent]["parse_error"] is None
            episodes.append((seed, actions))
        _RECORDED["envsuite"] = episodes
    return _RECORDED["envsuite"]


def replay_envsuite(env: Any, episodes: list[Episode]) -> int:
    steps = 0
    for begun, (seed, actions) in enumerate(itertools.cycle(episodes), start=1):
        env.reset(seed=seed)
        env.observe(env.agent_selection)
        for number, action in enumerate(actions, start=1):
            env.step(action)
            env.observe(env.agent_selection)
            steps += 1
            done = all(env.terminations.values())
            if done:
                assert number == len(actions), "envsuite ended an episode early"
            if steps == STEPS:
                return begun
            if done:
                break
    raise AssertionError("unreachable")


@pytest.mark.parametrize("row", ["raw", "llm"])
def test_textarena_kuhn(benchmark: Any, row: str) -> None:
    env, wrappers, episodes = textarena_kuhn()
    used = wrappers if row == "llm" else []
    RATES[row] = house.run(benchmark, GROUP, lambda: replay_textarena(env, used, episodes))


def test_envsuite_kuhn(benchmark: Any) -> None:
    env, wrappers, arena = textarena_kuhn()
    episodes = envsuite_episodes()
    made = envsuite.make("envsuite/KuhnPoker-v0")
    rate = house.run(benchmark, GROUP, lambda: replay_envsuite(made, episodes))
    for row, used in (("raw", []), ("llm", wrappers)):
        if row not in RATES:
            RATES[row] = STEPS / min(_timed(env, used, arena) for _ in range(3))
        benchmark.extra_info[f"textarena_{row}_steps_per_s"] = RATES[row]
        benchmark.extra_info[f"ratio_vs_textarena_{row}"] = rate / RATES[row]


def _timed(env: Any, wrappers: list[Any], episodes: list[Episode]) -> float:
    import time

    started = time.perf_counter()
    replay_textarena(env, wrappers, episodes)
    return time.perf_counter() - started
