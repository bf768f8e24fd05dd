"""The oracle of the GUI envs: the task's own shortest solution, one action at a time.

Closed-loop: before every step it asks the live task
(:meth:`~envsuite.families.gui.task.GuiTask.oracle_action`, reading hidden state from
``env.unwrapped``) for the next action from the current state, so it recovers from
whatever happened since the last step. It answers in the env's action mode: the
action's text in ``"text"`` mode; in ``"dict"`` mode a Dict-space element and in
``"discrete"`` mode ``[verb, x, y]`` (a click on an element becomes a click on the centre
of its visible part), or the text when the space cannot say it (typing in discrete mode,
a key outside the choices, a longer text, a scroll of the focused container).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envsuite.families.gui.action_space import KEY_CHOICES
from envsuite.families.gui.actions import ACTION_KINDS, GuiAction
from envsuite.families.gui.discrete_actions import to_discrete
from envsuite.families.gui.placement import place
from envsuite.families.gui.screen import Screen


class GuiOracle:
    """Plays ``task.oracle_action()`` of the env's current task."""

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: every action is planned from the live state."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next action of a shortest solution, in the env's action mode."""
        raw = self.env
        action = raw.task.oracle_action()
        if raw.action_mode == "dict":
            space_action = to_space_action(action, raw.task.app.screen, raw.action_space)
            if space_action is not None:
                return space_action
        if raw.action_mode == "discrete":
            clicks = action.kind in ("click", "double_click")
            vector = to_discrete(action, _point(action, raw.task.app.screen) if clicks else None)
            if vector is not None:
                return vector
        return action.describe()


def to_space_action(action: GuiAction, screen: Screen, space: Any) -> dict[str, Any] | None:
    """``action`` as an element of the Dict action space, or None when it cannot be one.

    Every key is filled (those the kind does not use with zeros), so the element is in
    the space.
    """
    element: dict[str, Any] = {
        "kind": ACTION_KINDS.index(action.kind),
        "point": np.zeros(2, np.int64),
        "end": np.zeros(2, np.int64),
        "scroll": np.zeros(2, np.int64),
        "text": "",
        "key": 0,
    }
    if action.kind in ("click", "double_click", "drag") or action.x is not None:
        point = _point(action, screen)
        if point is None:
            return None
        element["point"] = np.array(point, np.int64)
    if action.kind == "drag":
        element["end"] = np.array([action.dx, action.dy], np.int64)
    elif action.kind == "scroll":
        element["scroll"] = np.array([action.dx, action.dy], np.int64)
        if action.x is None:
            return None  # a scroll with no point (the focused container) is text only
    elif action.kind == "type":
        element["text"] = action.text or ""
    elif action.kind == "key":
        if action.key not in KEY_CHOICES:
            return None
        element["key"] = KEY_CHOICES.index(action.key)
    return element if space.contains(element) else None


def _point(action: GuiAction, screen: Screen) -> tuple[int, int] | None:
    if action.element_id is None:
        return (action.x or 0, action.y or 0)
    shown = next((p for p in place(screen) if p.widget.element_id == action.element_id), None)
    if shown is None or shown.visible is None:
        return None
    return shown.visible.center


def gui_oracle(env: Any) -> GuiOracle:
    """The oracle of ``GuiForm-v0`` and ``GuiApp-v0`` (see :class:`GuiOracle`)."""
    return GuiOracle(env)
