"""The base of every web-form task: theme, layout split, distractors, oracle helpers.

A concrete task fills in four hooks (Minigrid's template method): :meth:`FormTask.generate`
draws the instance from the generator and sets the goal and the fewest steps,
:meth:`FormTask.build_screen` builds a screen from it, :meth:`FormTask.judge` reads the
app's state, :meth:`FormTask.solve` gives the next oracle action. Multi-screen tasks also
give :meth:`FormTask.on_event`; tasks whose screen reacts to typing give
:meth:`FormTask.after_step`.

Seeded distractors (off by default; see :mod:`.distractors`): with ``popup_rate`` > 0
a modal pop-up opens, with that probability, after a seeded number of actions ``k``
between 0 (on the first screen) and the fewest steps less one, so it always shows before
the task can be finished; :attr:`GuiTask.optimal_steps` counts the one action closing it
takes. With ``shift_rate`` > 0 a banner pushes the shown screen's layout down after a
seeded action between the first and the last but one (tasks of one step, and those
that rebuild their layout in place, :attr:`FormTask.layout_shifts` False, have none); it
costs no action. Everything the distractors need is drawn after the instance, so a seed
gives the same goal and form with or without them.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.forms.distractors import (
    BANNER_TEXTS,
    POPUP_BUTTONS,
    POPUP_ID,
    POPUP_TEXTS,
    popup_dialog,
    shift_layout,
)
from envsuite.families.gui.forms.form_app import FormApp
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.placement import place
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.task import GuiTask, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.theme import THEMES, Theme
from envsuite.families.gui.widget import Widget

#: Element id of a form's Submit button.
SUBMIT_ID = "submit"
#: Smallest screen the forms are laid out for.
MIN_WIDTH, MIN_HEIGHT = 200, 200


def click(element_id: str) -> GuiAction:
    """``click(element_id)``."""
    return GuiAction("click", element_id=element_id)


def type_text(text: str) -> GuiAction:
    """``type(text)``."""
    return GuiAction("type", text=text)


def submit_button(rect: Rect, label: str = "Submit") -> Button:
    """The form's primary Submit button (:data:`SUBMIT_ID`)."""
    return Button(SUBMIT_ID, rect, name=label, primary=True)


def key(name: str) -> GuiAction:
    """``key(name)``."""
    return GuiAction("key", key=name)


class FormTask(GuiTask):
    """A web-form task (MiniWoB++ style) on a :class:`FormApp`.

    Args:
        rng: The env's generator; the only source of randomness.
        split: ``"train"`` or ``"test"``: which part of each word pool and which
            layouts are drawn (:attr:`layouts`).
        width: Screen width in pixels (at least 200).
        height: Screen height in pixels (at least 200).
        popup_rate: Probability of the distractor pop-up (see the module docstring).
        shift_rate: Probability of the layout shift (see the module docstring).

    Attributes:
        theme: The theme drawn (light or dark, in both splits).
        layout: The arrangement drawn from :attr:`layouts` for the split.
        popup_at: After how many actions the pop-up opens, or None without one.
        shift_at: After how many actions the layout shifts, or None without a shift.

    Raises:
        ValueError: an unknown split, a screen below 200 x 200, or a rate outside [0, 1].
    """

    app: FormApp
    #: Arrangements each split draws from (the test split's are held out).
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("default",), "test": ("default",)}
    #: Goal fields whose values come from split word pools (test values never train ones).
    held_out_fields: ClassVar[tuple[str, ...]] = ()
    #: Id of the first screen.
    home_id: ClassVar[str] = "form"
    #: Whether the layout shift applies (not to tasks that rebuild their layout in place).
    layout_shifts: ClassVar[bool] = True
    #: Whether ``enter`` in a text field submits the form (as in an HTML form).
    enter_submits: ClassVar[bool] = True

    def __init__(
        self,
        rng: np.random.Generator,
        split: str = "train",
        width: int = 256,
        height: int = 256,
        *,
        popup_rate: float = 0.0,
        shift_rate: float = 0.0,
    ) -> None:
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            raise ValueError(f"form tasks need at least {MIN_WIDTH}x{MIN_HEIGHT} pixels")
        for label, rate in (("popup_rate", popup_rate), ("shift_rate", shift_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{label} must lie in [0, 1], not {rate}")
        self.popup_rate = popup_rate
        self.shift_rate = shift_rate
        self.shift_at: int | None = None
        self._shift = (0, BANNER_TEXTS[0])
        self._changed = False
        self.popup_at: int | None = None
        self._popup_text = POPUP_TEXTS[0]
        self._popup_button = POPUP_BUTTONS[0]
        self._popup_rect = Rect(0, 0, 0, 0)
        super().__init__(rng, split, width, height)

    # -- the template ---------------------------------------------------------------

    def setup(self, rng: np.random.Generator) -> None:
        """Theme, layout, the task's own instance, the app, then the distractors' draws."""
        names = sorted(THEMES)
        self.theme: Theme = THEMES[names[int(rng.integers(len(names)))]]
        choices = self.layouts[self.split]
        self.layout: str = choices[int(rng.integers(len(choices)))]
        self.generate(rng)
        self.app = FormApp(self, self.home_id)
        self.app.theme = self.theme
        if self.popup_rate > 0 and rng.random() < self.popup_rate:
            self._draw_popup(rng)
            if self.popup_at == 0:
                self.app.open_popup(self._popup_dialog())
        if (
            self.layout_shifts
            and self.shift_rate > 0
            and rng.random() < self.shift_rate
            and self.optimal_steps > 1
        ):
            self.shift_at = int(rng.integers(1, self.optimal_steps))
            text = BANNER_TEXTS[int(rng.integers(len(BANNER_TEXTS)))]
            self._shift = (int(rng.integers(16, 49)), text)

    @abc.abstractmethod
    def generate(self, rng: np.random.Generator) -> None:
        """Draw the instance; set :attr:`goal` and :attr:`optimal_steps` (no pop-up)."""

    @abc.abstractmethod
    def build_screen(self, screen_id: str) -> Screen:
        """A fresh screen for ``screen_id`` from the instance and ``app.data``."""

    def on_event(self, kind: str, element_id: str) -> str | None:
        """React to one event-log entry; the id of the screen to go to, or None.

        By default the form's Submit button (:data:`SUBMIT_ID`), or ``enter`` in one of
        its text fields, records :meth:`form_values` as ``app.data["submitted"]``.
        """
        if (kind == "activate" and element_id == SUBMIT_ID) or (
            kind == "submit" and self.enter_submits
        ):
            self.app.data["submitted"] = self.form_values()
        return None

    def form_values(self) -> dict[str, str]:
        """What a submission records (the tasks with a Submit button say what)."""
        return {}

    def submitted(self) -> dict[str, str] | None:
        """The values recorded by the first submission, or None before one."""
        return self.app.data.get("submitted")

    def judge_submission(self, expected: dict[str, str]) -> Outcome | None:
        """Success if the submission recorded ``expected``, failure if anything else."""
        values = self.submitted()
        if values is None:
            return None
        return "success" if values == expected else "failure"

    def mark_changed(self) -> None:
        """Note that a reaction rebuilt part of the shown screen (the app bumps revision)."""
        self._changed = True

    def after_step(self) -> bool:
        """React to changes that logged no event; True if the shown screen changed.

        Subclasses that override it return ``super().after_step() or ...``.
        """
        changed, self._changed = self._changed, False
        return changed

    @abc.abstractmethod
    def judge(self) -> Outcome | None:
        """``"success"`` / ``"failure"`` from the app's state, or None while undecided."""

    @abc.abstractmethod
    def solve(self) -> GuiAction:
        """The next action of a shortest solution (no pop-up open)."""

    # -- GuiTask ----------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """:meth:`judge`; saying ``done`` before the task is decided is a failure."""
        verdict = self.judge()
        if verdict is None and self.app.done:
            return "failure"
        return verdict

    def oracle_action(self) -> GuiAction:
        """Close the pop-up if it is open, else :meth:`solve`."""
        popup = self.app.screen.find(POPUP_ID)
        if isinstance(popup, Dialog) and popup.is_open:
            return click(f"{POPUP_ID}/close")
        return self.solve()

    # -- the pop-up -------------------------------------------------------------------

    def _draw_popup(self, rng: np.random.Generator) -> None:
        moments = self.popup_moments()
        self.popup_at = moments[int(rng.integers(len(moments)))]
        self.optimal_steps += 1
        self._popup_text = POPUP_TEXTS[int(rng.integers(len(POPUP_TEXTS)))]
        self._popup_button = POPUP_BUTTONS[int(rng.integers(len(POPUP_BUTTONS)))]
        width = min(self.width - 16, 224)
        height = 96
        x = int(rng.integers(4, self.width - width - 4 + 1))
        y = int(rng.integers(4, self.height - height - 4 + 1))
        self._popup_rect = Rect(x, y, width, height)

    def popup_moments(self) -> list[int]:
        """After how many oracle actions the pop-up may open (it then costs one action).

        Every moment before the last action, by default; a task leaves out moments where
        the pop-up would cost more (an open dropdown list closes under it).
        """
        return list(range(self.optimal_steps))

    def _popup_dialog(self) -> Dialog:
        title, text = self._popup_text
        return popup_dialog(self._popup_rect, title, text, self._popup_button)

    def shift_layout(self) -> bool:
        """Shift the shown screen's layout when its time comes; True if it moved."""
        if self.shift_at is None or self.app.steps != self.shift_at:
            return False
        return shift_layout(self.app.screen, *self._shift) > 0

    def make_popup(self) -> Dialog | None:
        """The pop-up once :attr:`popup_at` actions are done (the app asks after each)."""
        if self.popup_at is not None and self.popup_at > 0 and self.app.steps == self.popup_at:
            return self._popup_dialog()
        return None

    # -- helpers for the tasks ----------------------------------------------------------

    def app_data(self) -> dict[str, Any]:
        """``app.data``, or an empty dict while the app builds its first screen."""
        app = getattr(self, "app", None)
        return app.data if app is not None else {}

    def widget(self, element_id: str) -> Widget | None:
        """The widget ``element_id`` on the shown screen, or None."""
        return self.app.screen.find(element_id)

    def activations(self) -> list[str]:
        """Ids of the buttons and links activated on the shown screen, in order.

        The pop-up's buttons are left out: closing it is never a move in the task.
        """
        log = self.app.screen.event_log
        if not log:  # most steps: judged every step, before anything is pressed
            return []
        prefix = f"{POPUP_ID}/"
        return [
            element_id
            for kind, element_id in log
            if kind == "activate" and not element_id.startswith(prefix)
        ]

    def reach(self, element_id: str) -> GuiAction:
        """Click ``element_id``, or first scroll its container so that some of it shows.

        The scroll moves the container just far enough to show the whole element (its top
        at the viewport's top when it is taller than the viewport).
        """
        placed = {p.widget.element_id: p for p in place(self.app.screen)}
        item = placed.get(element_id)
        if item is None or item.visible is not None:
            return click(element_id)
        parent = placed.get(item.parent_id) if item.parent_id else None
        while parent is not None and not isinstance(parent.widget, ScrollContainer):
            parent = placed.get(parent.parent_id) if parent.parent_id else None
        if parent is None or parent.visible is None:
            return click(element_id)
        view = parent.visible
        if item.rect.y < view.y:
            dy = item.rect.y - view.y
        else:
            dy = min(item.rect.bottom - view.bottom, item.rect.y - view.y)
        cx, cy = view.center
        return GuiAction("scroll", x=cx, y=cy, dx=0, dy=dy)

    def fill(self, field_id: str, text: str) -> GuiAction | None:
        """The next action that makes field ``field_id`` hold ``text``, or None if it does.

        Focus it (a click puts the caret at the end), clear a wrong value with
        ``ctrl+backspace``, then type what is missing: two actions for an empty field.
        """
        field = self.widget(field_id)
        assert isinstance(field, TextField), field_id
        if field.value == text:
            return None
        if self.app.screen.focus_id != field_id:
            return click(field_id)
        if not text.startswith(field.value):
            return key("ctrl+backspace")
        if field.caret != len(field.value):
            return key("end")
        return type_text(text[len(field.value) :])
