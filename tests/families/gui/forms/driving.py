"""Driving a form task the way the env does: dispatch, after_action, outcome."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

import numpy as np

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.placement import place
from envsuite.families.gui.task import GuiTask

Policy = Callable[[GuiTask], GuiAction]


def make(cls: type[GuiTask], seed: int, split: str = "train", **kwargs) -> GuiTask:
    """An instance from a seeded generator."""
    return cls(np.random.default_rng(seed), split=split, **kwargs)


def step(task: GuiTask, action: GuiAction) -> str | None:
    """Apply one action as the env does; the outcome after it."""
    screen = task.app.screen
    before = len(screen.event_log)
    result = dispatch(screen, action)
    task.app.after_action(screen.event_log[before:], result.navigation)
    return task.outcome()


def run(task: GuiTask, policy: Policy, limit: int = 60) -> tuple[str | None, int]:
    """Follow ``policy`` until the task is decided; the outcome and the steps taken."""
    for count in range(1, limit + 1):
        outcome = step(task, policy(task))
        if outcome is not None:
            return outcome, count
    return None, limit


def oracle(task: GuiTask) -> GuiAction:
    """The task's own oracle."""
    return task.oracle_action()


def drawn(task: GuiTask) -> str:
    """What the task drew besides its first screen (later screens' words, hidden options)."""
    skip = {"app", "goal", "theme"}
    return repr(sorted((k, repr(v)) for k, v in vars(task).items() if k not in skip))


def instance_key(task: GuiTask) -> str:
    """What tells two instances apart: goal, theme, state, names, places."""
    screen = task.app.screen
    names = [(w.element_id, w.name) for w in screen.all_widgets()]
    geometry = [(p.widget.element_id, p.rect.as_list()) for p in place(screen)]
    text = json.dumps(
        [
            task.goal.instruction,
            sorted(task.goal.fields.items()),
            task.app.theme.name,
            task.app.state(),
            names,
            geometry,
            drawn(task),
        ],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def random_actions(task: GuiTask, rng: np.random.Generator, count: int) -> str | None:
    """Random clicks, keys, text and scrolls; actions that cannot apply are skipped."""
    keys = ("tab", "enter", "space", "escape", "down", "up", "backspace", "ctrl+backspace")
    outcome = None
    for _ in range(count):
        kind = int(rng.integers(6))
        if kind <= 2:
            action = GuiAction(
                "click", x=int(rng.integers(task.width)), y=int(rng.integers(task.height))
            )
        elif kind == 3:
            action = GuiAction("key", key=keys[int(rng.integers(len(keys)))])
        elif kind == 4:
            action = GuiAction("type", text="ab")
        else:
            action = GuiAction("scroll", dx=0, dy=int(rng.integers(-60, 61)))
        try:
            outcome = step(task, action)
        except GuiActionError:
            continue
        if outcome is not None:
            return outcome
    return outcome
