"""Backends: what applies an action to a running app and draws its screen.

The GUI env (:class:`~envsuite.families.gui.gui_env.GuiEnv`) owns the loop and the task;
a backend owns only the two things that differ between the Pillow simulator and a real
browser:

- :meth:`GuiBackend.perform`: apply one :class:`~envsuite.families.gui.actions.GuiAction`
  to ``app.screen`` and report what happened (:class:`Performed`: the event-log entries
  the action added and the navigation it asked for). The env then calls
  ``app.after_action(performed.events, performed.navigation)`` and reads the task's
  outcome, the same way for every backend;
- :meth:`GuiBackend.screenshot`: the screen as an RGB array.

:class:`SimulatorBackend` (the default) dispatches in-process with
:func:`~envsuite.families.gui.events.dispatch` and draws with the Pillow renderer; it is
bit-deterministic. Backends are named in :data:`BACKENDS` (``"module:Class"``, imported
when first used), so a browser backend plugs in with one entry and its own module.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar, NamedTuple

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.app import App
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.renderer import render_screen

#: Backend names and their ``"module:Class"`` entry points.
BACKENDS: dict[str, str] = {
    "simulator": "envsuite.families.gui.backend:SimulatorBackend",
    "browser": "envsuite.families.gui.browser.backend:BrowserBackend",
}


class Performed(NamedTuple):
    """What one action did to the app, as every backend reports it (a named tuple).

    Attributes:
        events: Entries the action added to ``app.screen.event_log``, oldest first.
        navigation: ``"back"``, ``"home"`` or ``"done"`` for the app to handle, or None.
        changed: Whether any widget state, focus or dialog changed.
        target: Element id the action went to, or None.
        note: Why nothing changed, or "".
    """

    events: list[tuple[str, str]]
    navigation: str | None
    changed: bool
    target: str | None = None
    note: str = ""


class GuiBackend(abc.ABC):
    """Applies actions to an app and draws it (see the module docstring).

    Attributes:
        deterministic_pixels: Whether the same state always gives the same pixels.
    """

    deterministic_pixels: ClassVar[bool] = True

    def start(self, app: App) -> None:  # noqa: B027 (a hook most backends need not fill)
        """Show ``app`` (a new episode); the simulator needs nothing."""

    @abc.abstractmethod
    def perform(self, app: App, action: GuiAction) -> Performed:
        """Apply ``action`` to ``app.screen``; say what happened.

        Raises:
            GuiActionError: the action cannot apply (a point off the screen, an element
                that is not shown or cannot be reached).
        """

    @abc.abstractmethod
    def screenshot(self, app: App, size: tuple[int, int]) -> np.ndarray:
        """The app's screen as a ``(height, width, 3)`` uint8 array of ``size``."""

    def close(self) -> None:  # noqa: B027 (a hook most backends need not fill)
        """Release what the backend holds (a browser process); the simulator holds nothing."""


class SimulatorBackend(GuiBackend):
    """The in-process Pillow simulator: :func:`dispatch` and the Pillow renderer."""

    def perform(self, app: App, action: GuiAction) -> Performed:
        """Dispatch ``action`` on ``app.screen`` and collect the events it logged."""
        log = app.screen.event_log
        before = len(log)
        changed, target, navigation, note = dispatch(app.screen, action)
        # Performed(...) without the named tuple's Python-level __new__ (every step).
        return tuple.__new__(Performed, (log[before:], navigation, changed, target, note))

    def screenshot(self, app: App, size: tuple[int, int]) -> np.ndarray:
        """The screen drawn in the app's theme at ``size``."""
        return render_screen(app.screen, app.theme, size)


def load_backend(name: str) -> GuiBackend:
    """A new backend of the given name (one of :data:`BACKENDS`).

    Raises:
        ValueError: an unknown name.
    """
    entry = BACKENDS.get(name) if isinstance(name, str) else None
    if entry is None:
        raise ValueError(f"unknown backend {name!r}; known: {', '.join(sorted(BACKENDS))}")
    from envsuite.registry import load_entry_point

    backend_class: Any = load_entry_point(entry, extra="gui")
    return backend_class()
