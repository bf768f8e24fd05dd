"""The app every form task runs: screens and reactions delegated to the task.

A form task draws its instance once (words, layout, the records of a mailbox); the
:class:`FormApp` asks the task for each screen and for what an event leads to, and keeps
the dynamic state (what was submitted, which mail was deleted) in :attr:`App.data`, so
both backends see one state. After every action it also lets the task react to changes
that log no event (typed text that refreshes a suggestion list) and applies the seeded
distractors (a pop-up, a layout shift) when their time comes.

A reaction that changes the shown screen in place (a section expanded, a suggestion list
refreshed, a pop-up opened) bumps :attr:`App.revision`, so a backend redraws the screen.
When the pop-up closes, keyboard focus returns to the widget that had it when the pop-up
opened (as browsers return focus when a modal dialog closes).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Protocol

from envsuite.families.gui.app import App
from envsuite.families.gui.screen import Screen

if TYPE_CHECKING:
    from envsuite.families.gui.dialog import Dialog


class FormDelegate(Protocol):
    """What a :class:`FormApp` asks its task (see :class:`~.form_task.FormTask`)."""

    def build_screen(self, screen_id: str) -> Screen:
        """A fresh screen for ``screen_id``."""
        ...

    def on_event(self, kind: str, element_id: str) -> str | None:
        """React to one event; the id of the screen to go to, or None."""
        ...

    def after_step(self) -> bool:
        """React to state changes that logged no event; True if the screen changed."""
        ...

    def make_popup(self) -> Dialog | None:
        """The distractor pop-up to open now, or None."""
        ...

    def shift_layout(self) -> bool:
        """Shift the layout if its time has come (or keep rebuilt widgets shifted)."""
        ...


#: Error of a form app whose task was dropped.
DELEGATE_GONE = "this form app's task no longer exists: keep a reference to the task"


class FormApp(App):
    """An :class:`App` whose screens and reactions come from a form task.

    The app holds its task weakly (the task holds the app): without the cycle, a task
    and its screens are freed as soon as the env draws the next one, instead of waiting
    for the garbage collector, whose passes over that garbage cost a few percent of a
    fast env's time. Keep the task, not only its app.

    Args:
        delegate: The task.
        home_id: Id of the first screen.

    Attributes:
        steps: Actions applied so far (calls of :meth:`after_action`).
    """

    def __init__(self, delegate: FormDelegate, home_id: str = "form") -> None:
        self._delegate = weakref.ref(delegate)
        self.steps = 0
        self._popup: Dialog | None = None
        self._return_focus: str | None = None
        super().__init__(home_id)

    @property
    def delegate(self) -> FormDelegate:
        """The task.

        Raises:
            ReferenceError: the task no longer exists (only its app was kept).
        """
        delegate = self._delegate()
        if delegate is None:
            raise ReferenceError(DELEGATE_GONE)
        return delegate

    def __getstate__(self) -> dict[str, Any]:
        """The app's state, its task held strongly (pickles and copies take it along)."""
        state = self.__dict__.copy()
        state["_delegate"] = self.delegate
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore the state; the task is held weakly again."""
        delegate = state.pop("_delegate")
        self.__dict__.update(state)
        self._delegate = weakref.ref(delegate)

    def build_screen(self, screen_id: str) -> Screen:
        """The task's screen."""
        return self.delegate.build_screen(screen_id)

    def on_event(self, kind: str, element_id: str) -> str | None:
        """The task's reaction."""
        return self.delegate.on_event(kind, element_id)

    def after_action(self, events: list[tuple[str, str]], navigation: str | None) -> None:
        """As :meth:`App.after_action`, then the task's own reaction and the pop-up."""
        shown = self.screen
        super().after_action(events, navigation)
        self.steps += 1
        changed = False
        if self._popup is not None and not (self.screen is shown and self._popup.is_open):
            # As browsers do when a modal dialog closes: focus returns where it was.
            if self.screen is shown and self.screen.focus_id is None and self._return_focus:
                self.screen.focus_id = self._return_focus
                changed = True
            self._popup = None
        delegate = self.delegate
        changed = delegate.after_step() or changed
        changed = delegate.shift_layout() or changed
        popup = delegate.make_popup()
        if popup is not None:
            self.open_popup(popup)
            changed = True
        if changed:
            self.revision += 1

    def open_popup(self, popup: Dialog) -> None:
        """Open a distractor pop-up on the shown screen; focus returns once it closes."""
        self._popup = popup
        self._return_focus = self.screen.focus_id
        self.screen.dialogs.append(popup)
