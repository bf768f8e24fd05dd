"""Every task type: the oracle solves it in the browser, in step with the simulator.

Both envs draw the same instance from the same seed. At every step the browser env's own
(closed-loop) oracle picks the action, which must be the simulator's oracle's action too;
both envs take it, and their apps' logical state (``app.state_digest()``), rewards and
terminations must agree, ending in success.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import envsuite
from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.browser.backend import BrowserBackend
from envsuite.families.gui.gui_env import GuiEnv
from envsuite.families.gui.tasks_index import all_tasks, form_tasks
from tests.families.gui.browser.conftest import require_chromium
from tests.families.gui.browser.test_parity import random_action


@pytest.fixture(scope="module")
def backend():
    require_chromium()
    shared = BrowserBackend()
    yield shared
    shared.close()


def env_pair(task: str, backend: BrowserBackend) -> tuple[GuiEnv, GuiEnv]:
    # Every distractor on: pop-ups, and layout shifts made by the app outside the browser.
    options = (
        {"popup_rate": 1.0, "shift_rate": 1.0} if task in form_tasks() else {"distractors": True}
    )
    sim = GuiEnv(task=task, observation_mode="instruction", task_options=options)
    real = GuiEnv(task=task, observation_mode="instruction", task_options=options)
    real.backend = backend  # one browser for the module (each env would start its own)
    return sim, real


@pytest.mark.parametrize("task", sorted(all_tasks()))
def test_the_oracle_solves_every_task_in_both_backends_in_step(task, backend):
    for seed in (3, 4):
        sim, real = env_pair(task, backend)
        sim.reset(seed=seed)
        real.reset(seed=seed)
        assert real.state_digest() == sim.state_digest()
        for step in range(200):
            action = real.task.oracle_action()
            assert action == sim.task.oracle_action(), f"seed {seed} step {step}"
            _, r_real, term_real, trunc_real, info_real = real.step(action)
            _, r_sim, term_sim, trunc_sim, info_sim = sim.step(action)
            where = f"seed {seed} step {step}: {action.describe()}"
            assert info_real["parse_error"] is None, where
            assert real.state_digest() == sim.state_digest(), where
            assert (r_real, term_real, trunc_real) == (r_sim, term_sim, trunc_sim), where
            if term_real or trunc_real:
                break
        assert info_real["success"] and info_sim["success"], f"seed {seed}"


def test_the_registered_browser_spec_plays_and_closes_its_browser():
    require_chromium()
    env = envsuite.make("envsuite/GuiFormBrowser-v0", task="enter-text", screenshot_size=128)
    assert env.spec.nondeterministic
    observation, _ = env.reset(seed=1)
    assert observation["screenshot"].shape == (128, 128, 3)
    assert observation["screenshot"].std() > 10  # a drawn page, not a blank one
    task = env.unwrapped.task
    while True:
        observation, reward, terminated, truncated, info = env.step(task.oracle_action())
        if terminated or truncated:
            break
    assert reward == 1.0 and info["success"]
    process = env.unwrapped.backend.browser.process
    assert process is not None and process.alive()
    env.close()
    assert not process.alive()


def test_a_malformed_action_is_a_penalty_in_the_browser_too():
    require_chromium()
    env = envsuite.make("envsuite/GuiFormBrowser-v0", observation_mode="a11y")
    env.reset(seed=2)
    before = env.unwrapped.state_digest()
    _, reward, terminated, _, info = env.step("click(9999, 3)")
    assert info["parse_error"] and reward < 0 and not terminated
    assert env.unwrapped.state_digest() == before
    _, _, _, _, info = env.step("frobnicate(")
    assert info["parse_error"]
    env.close()


def test_screenshots_of_a_task_differ_between_backends_only_in_rendering():
    require_chromium()
    sim = envsuite.make("envsuite/GuiForm-v0", task="login-user", observation_mode="screenshot")
    real = envsuite.make(
        "envsuite/GuiFormBrowser-v0", task="login-user", observation_mode="screenshot"
    )
    a, _ = sim.reset(seed=5)
    b, _ = real.reset(seed=5)
    close = (np.abs(a.astype(int) - b.astype(int)).max(axis=2) <= 40).mean()
    assert close > 0.85
    real.close()
    sim.close()


@pytest.mark.parametrize("task", sorted(all_tasks()))
def test_random_actions_on_every_task_keep_both_backends_in_step(task, backend):
    rng = np.random.default_rng(np.random.SeedSequence([29, zlib.crc32(task.encode())]))
    sim, real = env_pair(task, backend)
    seed, steps = 0, 0
    sim.reset(seed=seed)
    real.reset(seed=seed)
    while steps < 40:
        roll = rng.random()
        if roll < 0.03:
            action = GuiAction("home")
        elif roll < 0.05:
            action = GuiAction("done")
        else:
            action = random_action(rng, sim.task.app.screen)
        _, r_real, term_real, trunc_real, info_real = real.step(action)
        _, r_sim, term_sim, trunc_sim, info_sim = sim.step(action)
        where = f"seed {seed} step {steps}: {action.describe()}"
        assert real.state_digest() == sim.state_digest(), where
        assert (r_real, term_real, trunc_real) == (r_sim, term_sim, trunc_sim), where
        assert info_real["parse_error"] == info_sim["parse_error"], where
        steps += 1
        if term_real or trunc_real:
            seed += 1
            sim.reset(seed=seed)
            real.reset(seed=seed)


def test_each_browser_spec_is_a_nondeterministic_twin_of_a_simulator_spec():
    from envsuite.families.gui.specs import BROWSER_SPECS, GUI_SPECS

    twins = {spec.entry_point: spec for spec in GUI_SPECS}
    assert {spec.id for spec in BROWSER_SPECS} == {
        "envsuite/GuiFormBrowser-v0",
        "envsuite/GuiAppBrowser-v0",
    }
    for spec in BROWSER_SPECS:
        twin = twins[spec.entry_point]
        assert spec.nondeterministic and not twin.nondeterministic
        assert spec.kwargs == {**twin.kwargs, "backend": "browser"}
        assert spec.oracle == twin.oracle and spec.test_kwargs == twin.test_kwargs
