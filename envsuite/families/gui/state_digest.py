"""A screen's logical state as canonical data, and its sha256: what two backends compare.

Pixels differ between the Pillow renderer and a real browser; the logical state must not.
It holds every widget (shown or not: a hidden tab keeps its fields), its enabled and
visible flags and its states, the raw values predicates read (a password's characters,
a caret, a button's activation count, a list's opened row), which dialogs are open,
keyboard focus and the event log. Geometry is left out: layout is the backend's business.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from envsuite.families.gui.buttons import Button
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.text_field import TextField


def _widget_state(widget: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "id": widget.element_id,
        "role": widget.role,
        "enabled": widget.enabled,
        "visible": widget.visible,
        **widget.state(),
    }
    if isinstance(widget, TextField):
        state.update(value=widget.value, caret=widget.caret)
    elif isinstance(widget, Button):
        state["activations"] = widget.activations
    elif isinstance(widget, ListBox):
        state["opened"] = widget.opened
    elif isinstance(widget, Dialog):
        state["open"] = widget.is_open
    return state


def screen_state(screen: Screen) -> dict[str, Any]:
    """The logical state of ``screen`` as JSON-ready data (see the module docstring)."""
    return {
        "title": screen.title,
        "focus": screen.focus_id,
        "widgets": [_widget_state(widget) for widget in screen.all_widgets()],
        "events": [list(event) for event in screen.event_log],
    }


def state_digest(screen: Screen) -> str:
    """sha256 (hex) of :func:`screen_state` in canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(
        screen_state(screen), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
