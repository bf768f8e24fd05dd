"""GUI env speed through ``envsuite.make``, against the raw simulator loop in the same run.

Workloads (each over ``TASKS``: the click-button and login-user forms and a generated app
of 10-100 screens):

- ``gui-env-reset``: ``RESETS`` resets of each env in ``"screenshot"`` mode (a task drawn
  from the seed, its app built, the first 256 x 256 screenshot drawn), against the raw
  loop building the same tasks from the same generators and drawing them.
  ``reset_ms`` is the env's mean reset time (issue 17's target: at most 1 ms).
- ``gui-env-screenshot``: ``STEPS`` steps of a fixed action script (clicks at seeded
  points, tab, typing, scrolling; a reset whenever an episode ends) with a 256 x 256
  screenshot every step (target: at least 1,000 steps/s), against the raw loop doing the
  same: :func:`dispatch`, ``after_action``, the outcome, :func:`render_screen`.
- ``gui-env-no-render``: the same script in ``"instruction"`` mode (nothing drawn or
  described; target: at least 50,000 steps/s), against the raw loop without drawing.
  The text actions repeat (as an agent's vocabulary does), so the env's parse cache holds
  them; ``gui-env-no-render-dict`` sends Dict-space elements instead (each one copied and
  converted every step).

Each envsuite row puts ``env_steps_per_s`` (``env_resets_per_s`` for resets),
``raw_steps_per_s`` and ``raw_ratio`` (env time over raw time, timed in turns in the same
test by CPU time) in ``extra_info``. ``pytest tests/benchmarks/test_gui_env_speed.py
--benchmark-enable`` prints the tables; the repo's config passes ``--benchmark-disable``,
so in CI each runs once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite
from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.action_space import action_space
from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.renderer import render_screen
from envsuite.families.gui.task import GuiTask
from envsuite.families.gui.tasks_index import task_class
from envsuite.seeding import seed_sequence
from tests.benchmarks.paired_timing import timed_against_raw

ROUNDS = 3
#: (env id, kwargs) of each workload's envs.
TASKS: list[tuple[str, dict[str, Any]]] = [
    ("envsuite/GuiForm-v0", {"task": "click-button"}),
    ("envsuite/GuiForm-v0", {"task": "login-user"}),
    ("envsuite/GuiApp-v0", {"task": "app-navigation"}),
]
RESETS = 100
STEPS = 1_000


def script() -> list[str]:
    """Text actions: clicks at seeded points, then tab, typing and a scroll, repeated."""
    rng = np.random.default_rng(17)
    points = [f"click({x}, {y})" for x, y in rng.integers(0, 256, size=(28, 2))]
    return [*points, "key(tab)", 'type("ab")', "key(tab)", "scroll(0, 40)"]


def dict_script() -> list[dict[str, Any]]:
    """As many Dict-space elements, sampled from the seeded space."""
    space = action_space(256, 256)
    space.seed(17)
    return [space.sample() for _ in SCRIPT]


SCRIPT = script()
DICT_SCRIPT = dict_script()


def _task(name: str, options: dict[str, Any], rng: np.random.Generator) -> GuiTask:
    """The task the env would draw from its generator ``rng`` (see ``GuiEnv.new_episode``)."""
    root = int(rng.integers(0, 2**63))
    if name not in _KEYS:
        _KEYS[name] = seed_sequence(0, "gui-task", name).spawn_key
    key = _KEYS[name]
    sequence = np.random.SeedSequence(root, spawn_key=key)
    return task_class(name)(np.random.Generator(np.random.PCG64(sequence)), **options)


_KEYS: dict[str, tuple[int, ...]] = {}


def _options(kwargs: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    name = kwargs["task"]
    if name.startswith("app-"):
        return name, {"min_screens": 10, "max_screens": 100, "distractors": False}
    return name, {"popup_rate": 0.0}


# -- resets -----------------------------------------------------------------------------
def env_resets() -> tuple[int, int]:
    count = 0
    for env_id, kwargs in TASKS:
        env = envsuite.make(env_id, observation_mode="screenshot", **kwargs)
        env.reset(seed=0)
        for _ in range(RESETS):
            env.reset()
            count += 1
        env.close()
    return count, 0


def raw_resets() -> tuple[int, int]:
    count = 0
    for _, kwargs in TASKS:
        name, options = _options(kwargs)
        rng = np_random(0)[0]
        for _ in range(RESETS + 1):
            task = _task(name, options, rng)
            render_screen(task.app.screen, task.app.theme)
            count += 1
    return count - len(TASKS), 0


# -- steps ------------------------------------------------------------------------------
def env_steps(mode: str, actions: list[Any]) -> tuple[int, int]:
    total = ends = 0
    for env_id, kwargs in TASKS:
        env = envsuite.make(env_id, observation_mode=mode, **kwargs)
        env.reset(seed=0)
        for index in range(STEPS):
            _, _, terminated, truncated, _ = env.step(actions[index % len(actions)])
            if terminated or truncated:
                env.reset()
                ends += 1
        total += STEPS
        env.close()
    return total, ends


def raw_steps(render: bool, actions: list[Any]) -> tuple[int, int]:
    """The same steps without the env: parse once, dispatch, react, judge (and draw)."""
    parsed: list[GuiAction] = [parse_gui_action(action) for action in actions]
    total = ends = 0
    for _, kwargs in TASKS:
        name, options = _options(kwargs)
        rng = np_random(0)[0]
        task = _task(name, options, rng)
        steps = 0
        limit = max(20, 4 * task.optimal_steps)
        for index in range(STEPS):
            app = task.app
            log = app.screen.event_log
            before = len(log)
            try:
                result = dispatch(app.screen, parsed[index % len(parsed)])
            except Exception:  # an inapplicable action: the env's penalty, nothing changes
                outcome = None
            else:
                app.after_action(log[before:], result.navigation)
                outcome = task.outcome()
            steps += 1
            if render:
                render_screen(app.screen, app.theme)
            if outcome is not None or steps >= limit:
                task = _task(name, options, rng)
                steps, limit = 0, max(20, 4 * task.optimal_steps)
                ends += 1
        total += STEPS
    return total, ends


@pytest.mark.benchmark(group="gui-env-reset")
def test_gui_env_reset(benchmark: Any) -> None:
    count, _ = timed_against_raw(benchmark, env_resets, raw_resets, ROUNDS)
    assert count == RESETS * len(TASKS)
    benchmark.extra_info["env_resets_per_s"] = benchmark.extra_info.pop("env_steps_per_s")
    benchmark.extra_info["reset_ms"] = 1000 / benchmark.extra_info["env_resets_per_s"]


@pytest.mark.benchmark(group="gui-env-screenshot")
def test_gui_env_steps_with_screenshots(benchmark: Any) -> None:
    steps, ends = timed_against_raw(
        benchmark,
        lambda: env_steps("screenshot", SCRIPT),
        lambda: raw_steps(True, SCRIPT),
        ROUNDS,
    )
    assert steps == STEPS * len(TASKS) and ends == raw_steps(False, SCRIPT)[1] > 0


@pytest.mark.benchmark(group="gui-env-no-render")
def test_gui_env_steps_without_rendering(benchmark: Any) -> None:
    steps, ends = timed_against_raw(
        benchmark,
        lambda: env_steps("instruction", SCRIPT),
        lambda: raw_steps(False, SCRIPT),
        ROUNDS,
    )
    assert steps == STEPS * len(TASKS) and ends == raw_steps(False, SCRIPT)[1] > 0


@pytest.mark.benchmark(group="gui-env-no-render-dict")
def test_gui_env_steps_without_rendering_dict_actions(benchmark: Any) -> None:
    steps, ends = timed_against_raw(
        benchmark,
        lambda: env_steps("instruction", DICT_SCRIPT),
        lambda: raw_steps(False, DICT_SCRIPT),
        ROUNDS,
    )
    assert steps == STEPS * len(TASKS) and ends == raw_steps(False, DICT_SCRIPT)[1]
