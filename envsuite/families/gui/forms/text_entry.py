"""Typing tasks: focus-text, enter-text, enter-date, enter-password, login-user.

All are one screen of labelled text fields and (except focus-text) a Submit button;
``enter`` in a field submits too, as in an HTML form. Train puts each label left of its
field; test puts it above. Submitting records every field's value; the task compares them
with the goal's fields exactly.

- focus-text: 1 to 3 labelled fields; put keyboard focus in the named one. Success: it
  has focus; failure: another field gets focus first. Fewest steps: 1.
- enter-text: one field, sometimes (p = 0.3) already holding a wrong word; type the named
  word and submit. Fewest steps: 3 (4 when the field must first be cleared).
- enter-date: a ``mm/dd/yyyy`` field; train dates fall in years with ``year % 4 != 3``,
  test dates in the others. Fewest steps: 3.
- enter-password: a password and its confirmation. Fewest steps: 5.
- login-user: a username and a password, then "Login". Fewest steps: 5.

Distinct instances: enter-text 162 words x 2 cases x prefills x places x themes; the
date tasks 22,000+ dates; passwords 162 words x 90 numbers; logins 60 names x 162 x 90:
all over 10^5 with layout and theme.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click, submit_button
from envsuite.families.gui.forms.vocabulary import FIRST_NAMES, WORDS, pool, split_years
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label, Widget


class TextForm(FormTask):
    """A form of labelled text fields and a Submit button; subclasses say what goes in.

    Attributes:
        labels: Field labels, top to bottom (field ids ``field-<n>``).
        expected: The value each field must hold when the form is submitted.
    """

    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("left",), "test": ("above",)}
    #: Text of the Submit button.
    submit_label: ClassVar[str] = "Submit"
    #: Whether the form has a Submit button (room is kept for it below the fields).
    has_submit: ClassVar[bool] = True
    #: Whether Submit sits right of the last field (else below it).
    submit_beside: ClassVar[bool] = False
    #: Fields that hide their characters.
    password_fields: ClassVar[tuple[int, ...]] = ()

    labels: list[str]
    expected: list[str]
    prefill: list[str]
    placeholders: list[str]

    def place_form(self, rng: np.random.Generator, reserve: int = 0) -> None:
        """Rows for the labels and the Submit button, shifted by a seeded offset.

        Args:
            rng: For the offset.
            reserve: Pixels kept free at the top for :meth:`header_widgets`.
        """
        area = layout.content_area(self.width, self.height, self.theme, True)
        below = self.has_submit and not self.submit_beside
        room = area.height - reserve - (40 if below else 0)
        area = Rect(area.x, area.y + reserve, area.width, room)
        rows = layout.labelled_fields(self.labels, area, self.theme, self.layout)
        flat = [rect for row in rows for rect in row]
        dy = int(rng.integers(0, max(area.bottom - flat[-1].bottom, 0) + 1))
        self.rows = [(a.moved(0, dy), b.moved(0, dy)) for a, b in rows]
        last = self.rows[-1][1]
        if self.submit_beside:
            self.rows[-1] = (self.rows[-1][0], Rect(last.x, last.y, last.width - 78, last.height))
            self.submit_rect = Rect(last.right - 72, last.y, 72, layout.ROW_HEIGHT)
        else:
            self.submit_rect = Rect(last.right - 90, last.bottom + 12, 90, layout.ROW_HEIGHT)

    def header_widgets(self) -> list[Widget]:
        """What the form shows above its fields (a text to read, a table), if anything."""
        return []

    def build_screen(self, screen_id: str) -> Screen:
        """Header, labels, fields and Submit."""
        items: list[Widget] = self.header_widgets()
        for i, (label, (label_rect, field_rect)) in enumerate(
            zip(self.labels, self.rows, strict=True)
        ):
            items.append(Label(f"label-{i}", label_rect, text=label))
            value = self.prefill[i]
            items.append(
                TextField(
                    f"field-{i}",
                    field_rect,
                    name=label,
                    value=value,
                    caret=len(value),
                    placeholder=self.placeholders[i],
                    password=i in self.password_fields,
                )
            )
        items.append(submit_button(self.submit_rect, self.submit_label))
        return Screen(self.width, self.height, title=self.form_title(), items=items)

    def form_title(self) -> str:
        """The screen's title."""
        return "Form"

    def form_values(self) -> dict[str, str]:
        """Every field's value by label."""
        values = {}
        for i, label in enumerate(self.labels):
            field = self.widget(f"field-{i}")
            values[label] = field.value if isinstance(field, TextField) else ""
        return values

    def judge(self) -> Outcome | None:
        """The submitted values against :attr:`expected`."""
        if self.submitted() is None:  # every step before a submission: nothing to build
            return None
        return self.judge_submission(dict(zip(self.labels, self.expected, strict=True)))

    def solve(self) -> GuiAction:
        """Fill the first field that is not right, then Submit."""
        for i, text in enumerate(self.expected):
            action = self.fill(f"field-{i}", text)
            if action is not None:
                return action
        return click("submit")

    def fill_steps(self) -> int:
        """Fewest steps: each field needing text costs a click, clearing and typing."""
        steps = 1
        for text, value in zip(self.expected, self.prefill, strict=True):
            if value != text:
                # focus, clear a value that is not a start of the text, type the rest
                steps += 2 if text.startswith(value) else 3
        return steps


class EnterText(TextForm):
    """Type the named word into the field and submit (MiniWoB++ ``enter-text``)."""

    name: ClassVar[str] = "enter-text"
    held_out_fields: ClassVar[tuple[str, ...]] = ("text",)

    def generate(self, rng: np.random.Generator) -> None:
        """Word, its case, a possible wrong prefill and the place."""
        words = pool(WORDS, self.split)
        picks = rng.choice(len(words), 3, replace=False)
        text = str(words[picks[0]])
        text = text.capitalize() if rng.random() < 0.5 else text
        self.labels = [str(words[picks[1]]).capitalize()]
        self.expected = [text]
        self.prefill = [str(words[picks[2]]) if rng.random() < 0.3 else ""]
        self.placeholders = ["Type here"]
        self.place_form(rng)
        self.goal = Goal(f'Enter "{text}" into the text field and press Submit.', {"text": text})
        self.optimal_steps = self.fill_steps()


class EnterDate(TextForm):
    """Type the named date as ``mm/dd/yyyy`` and submit (MiniWoB++ ``enter-date``)."""

    name: ClassVar[str] = "enter-date"
    held_out_fields: ClassVar[tuple[str, ...]] = ("date",)

    def generate(self, rng: np.random.Generator) -> None:
        """A date in the split's years."""
        years = split_years(self.split)
        year = years[int(rng.integers(len(years)))]
        month = int(rng.integers(1, 13))
        day = int(rng.integers(1, 29))
        date = f"{month:02d}/{day:02d}/{year}"
        self.labels = ["Date"]
        self.expected = [date]
        self.prefill = [""]
        self.placeholders = ["mm/dd/yyyy"]
        self.place_form(rng)
        self.goal = Goal(f"Enter {date} as the date and hit submit.", {"date": date})
        self.optimal_steps = self.fill_steps()


def _password(rng: np.random.Generator, split: str) -> str:
    words = pool(WORDS, split)
    return f"{words[int(rng.integers(len(words)))]}{int(rng.integers(10, 100))}"


class EnterPassword(TextForm):
    """Type the password twice and submit (MiniWoB++ ``enter-password``)."""

    name: ClassVar[str] = "enter-password"
    held_out_fields: ClassVar[tuple[str, ...]] = ("password",)
    password_fields: ClassVar[tuple[int, ...]] = (0, 1)

    def generate(self, rng: np.random.Generator) -> None:
        """The password."""
        password = _password(rng, self.split)
        self.labels = ["Password", "Verify password"]
        self.expected = [password, password]
        self.prefill = ["", ""]
        self.placeholders = ["", ""]
        self.place_form(rng)
        self.goal = Goal(
            f'Enter the password "{password}" into both text fields and press Submit.',
            {"password": password},
        )
        self.optimal_steps = self.fill_steps()


class LoginUser(TextForm):
    """Log in with the named username and password (MiniWoB++ ``login-user``)."""

    name: ClassVar[str] = "login-user"
    held_out_fields: ClassVar[tuple[str, ...]] = ("username", "password")
    password_fields: ClassVar[tuple[int, ...]] = (1,)
    submit_label: ClassVar[str] = "Login"

    def generate(self, rng: np.random.Generator) -> None:
        """Username and password."""
        names = pool(FIRST_NAMES, self.split)
        username = str(names[int(rng.integers(len(names)))]).lower()
        if rng.random() < 0.5:
            username += str(int(rng.integers(1, 100)))
        password = _password(rng, self.split)
        self.labels = ["Username", "Password"]
        self.expected = [username, password]
        self.prefill = ["", ""]
        self.placeholders = ["", ""]
        self.place_form(rng)
        self.goal = Goal(
            f'Enter the username "{username}" and the password "{password}" into the text '
            "fields and press login.",
            {"username": username, "password": password},
        )
        self.optimal_steps = self.fill_steps()

    def form_title(self) -> str:
        """A sign-in page."""
        return "Sign in"


class FocusText(TextForm):
    """Put keyboard focus in the named field (MiniWoB++ ``focus-text`` / ``-2``)."""

    name: ClassVar[str] = "focus-text"
    held_out_fields: ClassVar[tuple[str, ...]] = ("field",)
    enter_submits: ClassVar[bool] = False
    has_submit: ClassVar[bool] = False

    def generate(self, rng: np.random.Generator) -> None:
        """Field labels and the target."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(1, 4))
        self.labels = [
            str(words[i]).capitalize() for i in rng.choice(len(words), count, replace=False)
        ]
        self.expected = [""] * count
        self.prefill = [""] * count
        self.placeholders = [""] * count
        self.target = int(rng.integers(count))
        self.place_form(rng)
        label = self.labels[self.target]
        self.goal = Goal(f'Focus into the textbox labelled "{label}".', {"field": label})
        self.optimal_steps = 1

    def build_screen(self, screen_id: str) -> Screen:
        """The fields without a Submit button."""
        screen = super().build_screen(screen_id)
        screen.items = [w for w in screen.items if w.element_id != "submit"]
        return screen

    def judge(self) -> Outcome | None:
        """Decided by the first field to take focus."""
        focus = self.app.screen.focus_id
        if focus is None or not focus.startswith("field-"):
            return None
        return "success" if focus == f"field-{self.target}" else "failure"

    def solve(self) -> GuiAction:
        """Click the target field."""
        return click(f"field-{self.target}")
