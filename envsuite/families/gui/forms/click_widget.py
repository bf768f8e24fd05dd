"""click-widget: widgets of several kinds; click the one of the named kind.

Instance: 4 to 6 widgets of distinct kinds among button, link, checkbox, radio, text
(a text field) and dropdown, each labelled with a word from the split's pool, the target
kind, places and a theme. Train stacks them in a column; test scatters them.

Which widget was clicked is read from the state: the first widget whose state changes or
that takes focus (a button's activations, a link followed, a box ticked, a radio
selected, a field focused, a dropdown opened). Success: it is of the named kind; failure:
it is not. Fewest steps: 1. Distinct instances: ordered kind choices (6!/2! = 360 for six)
x 162-word labels x places: over 10^9.
"""

from __future__ import annotations

import json
from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.distractors import BANNER_ID, POPUP_ID
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.state_digest import screen_state
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.toggles import Checkbox, RadioGroup
from envsuite.families.gui.widget import Widget

#: The widget kinds, as the instruction names them.
KINDS = ("button", "link", "checkbox", "radio", "text", "dropdown")


class ClickWidget(FormTask):
    """Click a widget of the named kind (MiniWoB++ ``click-widget``)."""

    name: ClassVar[str] = "click-widget"
    _before: dict[str, str]
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("column",), "test": ("scatter",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Kinds, labels, target and places."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(4, 7))
        self.kinds = [KINDS[i] for i in rng.choice(len(KINDS), count, replace=False)]
        self.labels = [str(words[i]) for i in rng.choice(len(words), count, replace=False)]
        self.target = int(rng.integers(count))
        area = layout.content_area(self.width, self.height, self.theme, False)
        widths = [min(layout.label_width(label, self.theme) + 40, 150) for label in self.labels]
        if self.layout == "column":
            self.rects = layout.shifted(layout.column(widths, area, gap=10), area, rng)
        else:
            self.rects = layout.scatter(widths, area, rng)
        kind = self.kinds[self.target]
        self.goal = Goal(f'Click on a "{kind}" widget.', {"widget": kind})
        self.optimal_steps = 1

    def _make(self, i: int) -> Widget:
        kind, label, rect, wid = self.kinds[i], self.labels[i], self.rects[i], f"widget-{i}"
        if kind == "button":
            return Button(wid, rect, name=label)
        if kind == "link":
            return Link(
                wid,
                Rect(rect.x, rect.y, layout.label_width(label, self.theme), rect.height),
                name=label,
            )
        if kind == "checkbox":
            return Checkbox(wid, rect, name=label)
        if kind == "radio":
            return RadioGroup(wid, rect, name=label, options=[label])
        if kind == "text":
            return TextField(wid, rect, name=label, placeholder=label)
        return Dropdown(wid, rect, name=label, options=[label, "other"], placeholder=label)

    def build_screen(self, screen_id: str) -> Screen:
        """The widgets."""
        return Screen(
            self.width, self.height, items=[self._make(i) for i in range(len(self.kinds))]
        )

    def _snapshot(self) -> dict[str, str]:
        state = screen_state(self.app.screen)
        return {
            w["id"]: json.dumps(w, sort_keys=True)
            for w in state["widgets"]
            if not w["id"].startswith(POPUP_ID) and w["id"] != BANNER_ID
        }

    def after_step(self) -> bool:
        """Note the first widget clicked (state changed or focus taken)."""
        changed = super().after_step()
        data = self.app.data
        now = self._snapshot()
        if "clicked" not in data:
            before = self._before
            moved = [i for i in now if before.get(i) != now[i]]
            focus = self.app.screen.focus_id
            if focus is not None and focus.startswith("widget-"):
                moved.append(focus)
            if moved:
                data["clicked"] = self.kinds[int(moved[0].split("/")[0].split("-")[1])]
        self._before = now
        return changed

    def setup(self, rng: np.random.Generator) -> None:
        """As :meth:`FormTask.setup`, then the starting state the clicks are compared with."""
        super().setup(rng)
        self._before = self._snapshot()

    def judge(self) -> Outcome | None:
        """The kind first clicked against the named kind."""
        clicked = self.app.data.get("clicked")
        if clicked is None:
            return None
        return "success" if clicked == self.kinds[self.target] else "failure"

    def solve(self) -> GuiAction:
        """Click the target (a radio's option)."""
        wid = f"widget-{self.target}"
        return click(f"{wid}/0" if self.kinds[self.target] == "radio" else wid)
