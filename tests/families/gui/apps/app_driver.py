"""Driving an app task the way the simulator env does: dispatch, then ``after_action``."""

from __future__ import annotations

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.app import App
from envsuite.families.gui.apps import APP_TASKS
from envsuite.families.gui.apps.tasks import AppTask
from envsuite.families.gui.events import dispatch


def step(app: App, action: GuiAction) -> None:
    """Apply ``action`` to the shown screen, then let the app react."""
    before = len(app.screen.event_log)
    result = dispatch(app.screen, action)
    app.after_action(app.screen.event_log[before:], result.navigation)


def make(name: str, seed: int, **kwargs: object) -> AppTask:
    """Task ``name`` drawn from a generator seeded with ``seed``."""
    task = APP_TASKS[name](np.random.default_rng(seed), **kwargs)
    assert isinstance(task, AppTask)
    return task


def run_oracle(task: AppTask, limit: int = 200) -> list[GuiAction]:
    """Follow the oracle until the task is decided; the actions taken."""
    actions = []
    while task.outcome() is None and len(actions) < limit:
        action = task.oracle_action()
        actions.append(action)
        step(task.app, action)
    return actions
