"""A form app holds its task weakly: tasks are freed without the garbage collector."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref

import numpy as np
import pytest

from envsuite.families.gui.form_env import GuiFormEnv
from envsuite.families.gui.forms.click_button import ClickButton
from envsuite.families.gui.forms.form_app import DELEGATE_GONE


def test_an_env_frees_the_last_task_by_reference_counting() -> None:
    env = GuiFormEnv(task="login-user", observation_mode="instruction")
    env.reset(seed=0)
    old = weakref.ref(env.task)
    screen = weakref.ref(env.task.app.screen)  # type: ignore[union-attr]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        env.reset()
        assert old() is None and screen() is None
    finally:
        if was_enabled:
            gc.enable()


def test_copies_and_pickles_of_a_task_keep_their_app_working() -> None:
    task = ClickButton(np.random.default_rng(3))
    for twin in (copy.deepcopy(task), pickle.loads(pickle.dumps(task))):
        assert twin.app.delegate is twin
        assert twin.app.screen.find("button-0") is not None
        twin.app.after_action([], None)
        assert twin.app.steps == 1


def test_an_app_whose_task_was_dropped_says_so() -> None:
    app = ClickButton(np.random.default_rng(3)).app
    gc.collect()
    with pytest.raises(ReferenceError, match="keep a reference to the task"):
        app.after_action([], None)
    assert "task" in DELEGATE_GONE
