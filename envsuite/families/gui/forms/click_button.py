"""click-button: a few buttons; the instruction names the one to click.

Instance: 3 to 6 distinct words as labels (one of them drawn in the primary style, so
looks never give the target away), a target among them, a layout and a theme.
Train lays the buttons out in wrapping rows or a column; test in a grid or scattered.
Distinct instances: label sets (162 train words: C(162, 3..6) x orderings) alone exceed
10^10; with targets, primaries, layouts and themes many more.

Success: the target is activated (click, or ``enter`` / ``space`` while focused).
Failure: another button is activated first. Fewest steps: 1.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome


def place_buttons(
    task: FormTask, labels: list[str], rng: np.random.Generator, title: bool = False
) -> list[Rect]:
    """Rectangles for buttons with ``labels`` in the task's layout (flow, column, grid, scatter)."""
    area = layout.content_area(task.width, task.height, task.theme, title)
    widths = [layout.button_width(label, task.theme) for label in labels]
    if task.layout == "column":
        rects = layout.column(widths, area)
    elif task.layout == "grid":
        rects = layout.grid(len(labels), 2, area)
    elif task.layout == "scatter":
        rects = layout.scatter(widths, area, rng)
    else:
        rects = layout.flow(widths, area)
    return rects if task.layout == "scatter" else layout.shifted(rects, area, rng)


class ClickButton(FormTask):
    """Click the button the instruction names (MiniWoB++ ``click-button``)."""

    name: ClassVar[str] = "click-button"
    held_out_fields: ClassVar[tuple[str, ...]] = ("button",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {
        "train": ("flow", "column"),
        "test": ("grid", "scatter"),
    }

    def generate(self, rng: np.random.Generator) -> None:
        """Labels, target, primary button and places."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(3, 7))
        self.labels = [
            str(words[i]).capitalize() for i in rng.choice(len(words), count, replace=False)
        ]
        self.target = int(rng.integers(count))
        self.primary = int(rng.integers(count))
        self.rects = place_buttons(self, self.labels, rng)
        label = self.labels[self.target]
        self.goal = Goal(f'Click on the "{label}" button.', {"button": label})
        self.optimal_steps = 1

    def build_screen(self, screen_id: str) -> Screen:
        """The buttons."""
        buttons = [
            Button(f"button-{i}", rect, name=label, primary=i == self.primary)
            for i, (label, rect) in enumerate(zip(self.labels, self.rects, strict=True))
        ]
        return Screen(self.width, self.height, items=list(buttons))

    def judge(self) -> Outcome | None:
        """Decided by the first button activated."""
        pressed = self.activations()
        if not pressed:
            return None
        return "success" if pressed[0] == f"button-{self.target}" else "failure"

    def solve(self) -> GuiAction:
        """Click the target."""
        return click(f"button-{self.target}")


class ClickButtonSequence(FormTask):
    """Click two or three buttons in the order the instruction gives (``click-button-sequence``).

    Instance: 3 to 6 labelled buttons (as :class:`ClickButton`) and an ordered choice of
    2 or 3 of them. Success: the activations so far are exactly that order. Failure: an
    activation leaves the order. Fewest steps: the length of the order.
    """

    name: ClassVar[str] = "click-button-sequence"
    held_out_fields: ClassVar[tuple[str, ...]] = ("first",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = ClickButton.layouts

    def generate(self, rng: np.random.Generator) -> None:
        """Labels, order and places."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(3, 7))
        self.labels = [
            str(words[i]).capitalize() for i in rng.choice(len(words), count, replace=False)
        ]
        length = int(rng.integers(2, min(count, 3) + 1))
        self.order = [int(i) for i in rng.choice(count, length, replace=False)]
        self.rects = place_buttons(self, self.labels, rng)
        names = [self.labels[i] for i in self.order]
        steps = ", then ".join(f'"{name}"' for name in names)
        fields = dict(zip(("first", "second", "third"), names, strict=False))
        self.goal = Goal(f"Click on the buttons {steps}, in that order.", fields)
        self.optimal_steps = length

    def build_screen(self, screen_id: str) -> Screen:
        """The buttons."""
        return Screen(
            self.width,
            self.height,
            items=[
                Button(f"button-{i}", rect, name=label)
                for i, (label, rect) in enumerate(zip(self.labels, self.rects, strict=True))
            ],
        )

    def judge(self) -> Outcome | None:
        """Compare the activations with the order."""
        wanted = [f"button-{i}" for i in self.order]
        pressed = self.activations()
        if pressed != wanted[: len(pressed)]:
            return "failure"
        return "success" if len(pressed) == len(wanted) else None

    def solve(self) -> GuiAction:
        """The next button of the order."""
        return click(f"button-{self.order[len(self.activations())]}")
