"""The GUI envs' vector action form: ``MultiDiscrete([verbs, width, height])`` for classic RL.

An action is ``[verb, x, y]``: a verb of :data:`VERBS` and a point on the screen (logical
pixels). Pointer verbs use the point (``click``, ``double_click``, the four scrolls of
:data:`SCROLL_PIXELS` at that point); key verbs and ``back`` / ``home`` / ``done`` ignore
it. Typing has no verb: tasks that need text take the text or Dict forms, which the env
accepts in every action mode. Stable-Baselines3 and other libraries without Dict or text
action spaces hold this one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.families.gui.action_grammar import DEFAULT_WHEEL_CLICKS, WHEEL_STEP
from envsuite.families.gui.actions import GuiAction, GuiActionError

#: Pixels one scroll verb moves.
SCROLL_PIXELS = WHEEL_STEP * DEFAULT_WHEEL_CLICKS
#: Scroll verbs and their (dx, dy).
SCROLLS: dict[str, tuple[int, int]] = {
    "scroll_up": (0, -SCROLL_PIXELS),
    "scroll_down": (0, SCROLL_PIXELS),
    "scroll_left": (-SCROLL_PIXELS, 0),
    "scroll_right": (SCROLL_PIXELS, 0),
}
#: Keys a verb presses.
KEY_VERBS: tuple[str, ...] = ("tab", "shift+tab", "enter", "escape", "space")
#: Every verb, by index.
VERBS: tuple[str, ...] = (
    "click",
    "double_click",
    *SCROLLS,
    *KEY_VERBS,
    "back",
    "home",
    "done",
)


def discrete_space(width: int, height: int) -> spaces.MultiDiscrete:
    """``MultiDiscrete([len(VERBS), width, height])``."""
    return spaces.MultiDiscrete(np.array([len(VERBS), width, height], dtype=np.int64))


def from_discrete(action: Any, width: int, height: int) -> GuiAction:
    """The :class:`GuiAction` a ``[verb, x, y]`` element stands for.

    Raises:
        GuiActionError: not three integers, or one outside the space.
    """
    try:
        array = np.asarray(action)
    except Exception:
        raise GuiActionError("expected [verb, x, y] as three integers") from None
    if array.shape != (3,) or array.dtype.kind not in "iu":
        raise GuiActionError(
            f"expected [verb, x, y] as three integers, got shape {array.shape} of {array.dtype}"
        )
    verb_index, x, y = (int(value) for value in array)
    if not 0 <= verb_index < len(VERBS):
        raise GuiActionError(f"verb {verb_index} is outside [0, {len(VERBS)})")
    if not (0 <= x < width and 0 <= y < height):
        raise GuiActionError(f"point ({x}, {y}) is outside the {width}x{height} screen")
    verb = VERBS[verb_index]
    if verb in ("click", "double_click"):
        return GuiAction(verb, x=x, y=y)
    if verb in SCROLLS:
        dx, dy = SCROLLS[verb]
        return GuiAction("scroll", x=x, y=y, dx=dx, dy=dy)
    if verb in KEY_VERBS:
        return GuiAction("key", key=verb)
    return GuiAction(verb)


def to_discrete(action: GuiAction, point: tuple[int, int] | None) -> np.ndarray | None:
    """``action`` as ``[verb, x, y]``, or None when no verb says it.

    ``point`` is where a click lands (the centre of a clicked element); typing, other keys
    and scrolls of other amounts have no verb.
    """
    x, y = point if point is not None else (0, 0)
    if action.kind in ("click", "double_click"):
        if point is None:
            return None
        verb = action.kind
    elif action.kind == "scroll":
        verb = next((name for name, step in SCROLLS.items() if step == (action.dx, action.dy)), "")
        if not verb or action.x is None or action.y is None:
            return None
        x, y = action.x, action.y
    elif action.kind == "key":
        if action.key not in KEY_VERBS:
            return None
        verb = str(action.key)
    elif action.kind in ("back", "home", "done"):
        verb = action.kind
    else:
        return None
    return np.array([VERBS.index(verb), x, y], dtype=np.int64)
