"""A running GUI app: the screen shown, a back stack, and the state a task's predicates read.

Backend-independent. After every action a backend reports what happened to the app in
the same form, so the app's logic (which screen comes next) and the task's predicates
run on the same Python objects in every backend:

- the Pillow simulator applies the action with
  :func:`~envsuite.families.gui.events.dispatch`, which mutates :attr:`App.screen`;
- the browser backend performs the action in the page, then writes the page's widget
  state (values, checks, focus, dialogs, new event-log entries) back into
  :attr:`App.screen`.

Both then call :meth:`App.after_action` with the event-log entries the action added and
the navigation request (``"back"``, ``"home"``, ``"done"`` or None). An app that moves
to another screen replaces :attr:`App.screen` (a backend notices by comparing
:attr:`App.screen_id`, or :attr:`App.revision`, and shows the new screen).

A subclass gives :meth:`App.build_screen` (the screen for an id, built fresh on every
visit, so a screen is generated only when it is shown) and, where activating a widget
leads somewhere, :meth:`App.on_event`.
"""

from __future__ import annotations

import abc
import hashlib
import json
from typing import Any

from envsuite.families.gui.screen import Screen
from envsuite.families.gui.state_digest import screen_state
from envsuite.families.gui.theme import LIGHT, Theme

#: Navigation requests an action can make (see :class:`~.events.DispatchResult`).
NAVIGATION_KINDS = ("back", "home", "done")


class App(abc.ABC):
    """A GUI app: screens by id, the one shown, the back stack, and app-level data.

    Args:
        home_id: Id of the screen shown first and after ``home``.

    Attributes:
        screen: The screen shown now.
        screen_id: Its id.
        history: Ids of the screens ``back`` returns to, oldest first.
        revision: Counts screen changes (a new screen, or the same id built again).
        done: Whether the agent has said ``done``.
        data: App-level state predicates read besides the screen (a form's submitted
            values, a mailbox's contents); JSON-ready, part of :meth:`state`.
        theme: The theme every backend draws the app in (a task may draw it per split).
    """

    def __init__(self, home_id: str) -> None:
        self.home_id = home_id
        self.history: list[str] = []
        self.revision = 0
        self.done = False
        self.data: dict[str, Any] = {}
        self.theme: Theme = LIGHT
        self.screen_id = home_id
        self.screen: Screen = self.build_screen(home_id)

    @abc.abstractmethod
    def build_screen(self, screen_id: str) -> Screen:
        """A fresh :class:`Screen` for ``screen_id`` (drawn from the app's own data)."""

    def on_event(self, kind: str, element_id: str) -> str | None:
        """React to one event-log entry (``("activate", id)``, ``("submit", id)``, ...).

        Returns:
            The id of the screen to go to (pushed on the back stack), or None to stay.
        """
        return None

    def go(self, screen_id: str, push: bool = True) -> None:
        """Show ``screen_id``; with ``push``, the screen left is pushed on the back stack."""
        if push:
            self.history.append(self.screen_id)
        self.screen_id = screen_id
        self.screen = self.build_screen(screen_id)
        self.revision += 1

    def after_action(self, events: list[tuple[str, str]], navigation: str | None) -> None:
        """Apply the consequences of one action (see the module docstring).

        ``events`` are the entries the action added to ``screen.event_log``, oldest first;
        the first one that leads to another screen moves there and the rest are dropped
        (they belonged to the screen left). ``back`` pops the back stack (a no-op on an
        empty stack), ``home`` clears it and shows the home screen, ``done`` sets
        :attr:`done`.
        """
        for kind, element_id in events:
            target = self.on_event(kind, element_id)
            if target is not None:
                self.go(target)
                break
        if navigation == "back" and self.history:
            self.go(self.history.pop(), push=False)
        elif navigation == "home" and (self.history or self.screen_id != self.home_id):
            self.history.clear()
            self.go(self.home_id, push=False)
        elif navigation == "done":
            self.done = True

    def state(self) -> dict[str, Any]:
        """The app's logical state as JSON-ready data: what two backends must agree on."""
        return {
            "screen_id": self.screen_id,
            "history": list(self.history),
            "done": self.done,
            "data": self.data,
            "screen": screen_state(self.screen),
        }

    def state_digest(self) -> str:
        """sha256 (hex) of :meth:`state` in canonical JSON (sorted keys, no spaces)."""
        text = json.dumps(self.state(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
