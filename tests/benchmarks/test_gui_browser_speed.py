"""GUI browser backend speed: Chromium steps/s next to the simulator's, in the same run.

Workload: ``EPISODES`` episodes of the form task ``login-user`` (a distractor pop-up
closed first, then clicks, typing and a submit), each reset from a fixed seed and played
by the task's oracle, through ``envsuite.make``; the envs are made once, outside the
timing (the browser's start-up has its own row).

- ``gui-browser``: ``envsuite/GuiFormBrowser-v0`` with a 256 x 256 screenshot per step
  (``browser_steps``) against ``envsuite/GuiForm-v0`` on the simulator doing the same
  (``simulator_steps``); ``raw_ratio`` is browser time over simulator time.
- ``gui-browser-no-pixels``: the same with the instruction as the only observation (no
  screenshot taken), so the row shows the cost of real input and state read-back alone.
- ``gui-browser-start``: starting Chromium, opening the page and closing it again.

Times are wall clock (the browser works in other processes, so this process's CPU time
would leave most of it out), taken in turns, best of ``ROUNDS``; both rates and their
ratio go into ``extra_info``. ``pytest tests/benchmarks/test_gui_browser_speed.py
--benchmark-enable`` prints the tables; with the repo's ``--benchmark-disable`` each runs
once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

import envsuite
from envsuite.families.gui.browser import BrowserScreen
from envsuite.families.gui.showcase import showcase_screen
from tests.benchmarks.paired_timing import timing_rounds
from tests.families.gui.browser.conftest import require_chromium

ROUNDS = 3
EPISODES = 4
TASK = {"task": "login-user", "popup_rate": 1.0}


def episodes(env: Any) -> Callable[[], tuple[int, list[str]]]:
    """Play ``EPISODES`` oracle episodes in ``env``; (steps, final state digests)."""

    def run() -> tuple[int, list[str]]:
        steps, digests = 0, []
        for seed in range(EPISODES):
            env.reset(seed=seed)
            task = env.unwrapped.task
            while True:
                _, _, terminated, truncated, _ = env.step(task.oracle_action())
                steps += 1
                if terminated or truncated:
                    break
            digests.append(env.unwrapped.state_digest())
        return steps, digests

    return run


def wall_seconds(function: Callable[[], Any]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def timed_against_simulator(
    benchmark: Any, browser: Callable[[], Any], simulator: Callable[[], Any]
) -> Any:
    """Benchmark ``browser``; then time it and ``simulator`` in turns (wall clock, best of
    ``ROUNDS``) and put both rates and their ratio into ``extra_info``."""
    result = benchmark.pedantic(browser, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    browser_best = simulator_best = float("inf")
    for _ in range(timing_rounds(benchmark, ROUNDS)):
        browser_best = min(browser_best, wall_seconds(browser))
        simulator_best = min(simulator_best, wall_seconds(simulator))
    steps = result[0]
    benchmark.extra_info["env_steps_per_s"] = steps / browser_best
    benchmark.extra_info["raw_steps_per_s"] = steps / simulator_best
    benchmark.extra_info["raw_ratio"] = browser_best / simulator_best
    return result


@pytest.fixture(scope="module")
def envs():
    require_chromium()
    made: dict[str, Any] = {}
    for mode in ("screenshot", "instruction"):
        made[f"browser-{mode}"] = envsuite.make(
            "envsuite/GuiFormBrowser-v0", observation_mode=mode, **TASK
        )
        made[f"simulator-{mode}"] = envsuite.make(
            "envsuite/GuiForm-v0", observation_mode=mode, **TASK
        )
    yield made
    for env in made.values():
        env.close()


@pytest.mark.benchmark(group="gui-browser")
def test_gui_browser_steps_with_screenshots(benchmark: Any, envs: dict[str, Any]) -> None:
    browser = episodes(envs["browser-screenshot"])
    simulator = episodes(envs["simulator-screenshot"])
    steps, digests = timed_against_simulator(benchmark, browser, simulator)
    assert steps >= EPISODES * 3 and digests == simulator()[1]  # the same logical states


@pytest.mark.benchmark(group="gui-browser-no-pixels")
def test_gui_browser_steps_without_screenshots(benchmark: Any, envs: dict[str, Any]) -> None:
    browser = episodes(envs["browser-instruction"])
    simulator = episodes(envs["simulator-instruction"])
    steps, digests = timed_against_simulator(benchmark, browser, simulator)
    assert steps >= EPISODES * 3 and digests == simulator()[1]


@pytest.mark.benchmark(group="gui-browser-start")
def test_gui_browser_start_and_close(benchmark: Any) -> None:
    require_chromium()

    def start_and_close() -> bool:
        with BrowserScreen() as browser:
            browser.show(showcase_screen())
            return browser.process is not None and browser.process.alive()

    assert benchmark.pedantic(start_and_close, rounds=ROUNDS, iterations=1)
