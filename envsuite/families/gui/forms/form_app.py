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

from typing import TYPE_CHECKING, Protocol

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


class FormApp(App):
    """An :class:`App` whose screens and reactions come from a form task.

    Args:
        delegate: The task.
        home_id: Id of the first screen.

    Attributes:
        steps: Actions applied so far (calls of :meth:`after_action`).
    """

    def __init__(self, delegate: FormDelegate, home_id: str = "form") -> None:
        self.delegate = delegate
        self.steps = 0
        self._popup: Dialog | None = None
        self._return_focus: str | None = None
        super().__init__(home_id)

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
        changed = self.delegate.after_step() or changed
        changed = self.delegate.shift_layout() or changed
        popup = self.delegate.make_popup()
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
