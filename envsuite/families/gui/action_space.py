"""The Dict space form of GUI actions, for RL agents.

Keys: ``kind`` (index into :data:`~envsuite.families.gui.actions.ACTION_KINDS`),
``point`` (``[x, y]``: click and double-click target, drag start, scroll position),
``end`` (``[x, y]``: drag end), ``scroll`` (``[dx, dy]`` pixels), ``text`` (for
``type``), ``key`` (index into :data:`KEY_CHOICES`). Keys a kind does not use are
ignored. Clicks by element id are a text-mode convenience; RL agents click points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.families.gui.actions import ACTION_KINDS, MAX_TYPE_CHARS, GuiAction, GuiActionError
from envsuite.spaces import UnicodeText

#: Keys an RL agent can press, by index.
KEY_CHOICES: tuple[str, ...] = (
    "enter", "tab", "shift+tab", "escape", "backspace", "delete", "space",
    "up", "down", "left", "right", "home", "end", "pageup", "pagedown",
)  # fmt: skip
#: Largest scroll in one action, in pixels.
MAX_SCROLL = 512


def action_space(width: int, height: int, max_text: int = 32) -> spaces.Dict:
    """The Dict space of actions on a ``width`` x ``height`` screen."""
    point = spaces.Box(low=0, high=np.array([width - 1, height - 1]), shape=(2,), dtype=np.int64)
    return spaces.Dict(
        {
            "kind": spaces.Discrete(len(ACTION_KINDS)),
            "point": point,
            "end": point,
            "scroll": spaces.Box(-MAX_SCROLL, MAX_SCROLL, shape=(2,), dtype=np.int64),
            "text": UnicodeText(min(max_text, MAX_TYPE_CHARS)),
            "key": spaces.Discrete(len(KEY_CHOICES)),
        }
    )


def _pair(value: Any, what: str) -> tuple[int, int]:
    if type(value) is np.ndarray and value.shape == (2,) and value.dtype.kind in "iu":
        first, second = value.tolist()  # what the space samples: the checks below hold
        return round(float(first)), round(float(second))
    try:
        array = np.asarray(value)
        if array.shape != (2,) or not np.issubdtype(array.dtype, np.number):
            raise GuiActionError(f"'{what}' must be two numbers, got shape {array.shape}")
        if not np.all(np.isfinite(array)):
            raise GuiActionError(f"'{what}' must be finite")
        return round(float(array[0])), round(float(array[1]))
    except GuiActionError:
        raise
    except Exception as exc:
        raise GuiActionError(f"'{what}' must be two numbers ({type(exc).__name__})") from None


#: Exact integer types an index arrives as (what ``Discrete`` samples): read directly.
_INTEGER_TYPES = frozenset({int, np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32})


def _index(value: Any) -> int:
    """An integer index from a Python or numpy integer, or a one-item array."""
    if type(value) in _INTEGER_TYPES:
        return int(value)
    return int(np.asarray(value).item())


def from_space_action(action: Mapping[str, Any]) -> GuiAction:
    """The :class:`GuiAction` an element of :func:`action_space` stands for.

    Raises:
        GuiActionError: not a mapping, or a key the kind needs is missing or malformed.
    """
    if not isinstance(action, Mapping):
        raise GuiActionError(f"expected a dict action, got {type(action).__name__}")
    try:
        index = _index(action["kind"])
    except Exception:
        raise GuiActionError("'kind' must be an integer action index") from None
    if not 0 <= index < len(ACTION_KINDS):
        raise GuiActionError(f"'kind' {index} is outside [0, {len(ACTION_KINDS)})")
    kind = ACTION_KINDS[index]

    def need(key: str) -> Any:
        if key not in action:
            raise GuiActionError(f"{kind} needs '{key}'")
        return action[key]

    if kind in ("click", "double_click"):
        x, y = _pair(need("point"), "point")
        return GuiAction(kind, x=x, y=y)
    if kind == "drag":
        x, y = _pair(need("point"), "point")
        ex, ey = _pair(need("end"), "end")
        return GuiAction(kind, x=x, y=y, dx=ex, dy=ey)
    if kind == "scroll":
        dx, dy = _pair(need("scroll"), "scroll")
        if "point" not in action:
            return GuiAction(kind, dx=dx, dy=dy)
        x, y = _pair(action["point"], "point")
        return GuiAction(kind, x=x, y=y, dx=dx, dy=dy)
    if kind == "type":
        text = need("text")
        if not isinstance(text, str):
            raise GuiActionError("'text' must be a string")
        return GuiAction(kind, text=text[:MAX_TYPE_CHARS])
    if kind == "key":
        try:
            key_index = _index(need("key"))
        except GuiActionError:
            raise
        except Exception:
            raise GuiActionError("'key' must be an integer key index") from None
        if not 0 <= key_index < len(KEY_CHOICES):
            raise GuiActionError(f"'key' {key_index} is outside [0, {len(KEY_CHOICES)})")
        return GuiAction(kind, key=KEY_CHOICES[key_index])
    return GuiAction(kind)
