"""use-spinner: step a number with - and + buttons to the named value, then submit.

Instance: the target, the value the spinner starts at (both -10 to 10, apart), a theme
and a place. Train targets are those not divisible by 3, test targets those divisible
by 3 (held out); train draws the spinner in a row (- value +), test stacked (+ above the
value, - below). Distinct instances: 14 targets x 20 starts x 2 themes x places, over
10^5 on train.

Success: Submit with the target shown. Failure: Submit with any other value. Fewest
steps: the distance to the target, plus Submit.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click, submit_button
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Label, Widget

#: Values the spinner can show.
LOW, HIGH = -10, 10


class UseSpinner(FormTask):
    """Step the spinner to the named number, then Submit (MiniWoB++ ``use-spinner``)."""

    name: ClassVar[str] = "use-spinner"
    held_out_fields: ClassVar[tuple[str, ...]] = ("value",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("row",), "test": ("stack",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Target, start and place."""
        targets = [v for v in range(LOW, HIGH + 1) if (v % 3 == 0) == (self.split == "test")]
        self.target = targets[int(rng.integers(len(targets)))]
        starts = [v for v in range(LOW, HIGH + 1) if v != self.target]
        self.start = starts[int(rng.integers(len(starts)))]
        area = layout.content_area(self.width, self.height, self.theme, False)
        self.x = area.x + int(rng.integers(0, area.width - 140 + 1))
        self.y = area.y + int(rng.integers(0, area.height - 140 + 1))
        self.goal = Goal(
            f"Select {self.target} with the spinner and hit Submit.", {"value": str(self.target)}
        )
        self.optimal_steps = abs(self.target - self.start) + 1

    def value(self) -> int:
        """The number shown."""
        return int(self.app_data().get("value", self.start))

    def _items(self) -> list[Widget]:
        x, y = self.x, self.y
        if self.layout == "row":
            minus, shown, plus = (
                Rect(x, y, 28, 24),
                Rect(x + 34, y, 44, 24),
                Rect(x + 84, y, 28, 24),
            )
            submit = Rect(x, y + 40, 80, 24)
        else:
            plus, shown, minus = (
                Rect(x, y, 28, 24),
                Rect(x, y + 30, 44, 24),
                Rect(x, y + 60, 28, 24),
            )
            submit = Rect(x + 60, y + 30, 80, 24)
        return [
            Button("decrease", minus, name="-"),
            Label("value", shown, text=str(self.value()), bold=True),
            Button("increase", plus, name="+"),
            submit_button(submit),
        ]

    def build_screen(self, screen_id: str) -> Screen:
        """The spinner and Submit."""
        return Screen(self.width, self.height, items=self._items())

    def on_event(self, kind: str, element_id: str) -> str | None:
        """Step the value (within its range) or record the submission."""
        if kind == "activate" and element_id in ("decrease", "increase"):
            step = 1 if element_id == "increase" else -1
            self.app.data["value"] = min(max(self.value() + step, LOW), HIGH)
            label = self.widget("value")
            if isinstance(label, Label):
                label.text = label.name = str(self.value())
            self.mark_changed()
            return None
        if kind == "activate" and element_id == "submit":
            self.app.data["submitted"] = {"value": str(self.value())}
        return None

    def judge(self) -> Outcome | None:
        """The submitted value against the target."""
        return self.judge_submission({"value": str(self.target)})

    def solve(self) -> GuiAction:
        """Step towards the target, then Submit."""
        if self.value() == self.target:
            return click("submit")
        return click("increase" if self.value() < self.target else "decrease")
