"""click-checkboxes and click-option: tick the named boxes, or pick the named radio option.

click-checkboxes: 3 to 7 labelled checkboxes, 1 to 4 of them to tick (some may start
ticked, so some must be unticked); then Submit. Train stacks them in a column, test in two
columns. Success: Submit with exactly the named boxes ticked; failure: Submit with any
other set. Fewest steps: the boxes whose state must change, plus Submit. Distinct
instances: label sets C(162, 3..7) > 10^11 on train.

click-option: a radio group of 3 to 6 options; pick the named one, then Submit. Success:
Submit with it selected; failure: Submit with anything else. Fewest steps: 2 (1 if it
starts selected, which never happens: the group starts empty). Train draws the group on
the left with roomy rows; test on the right with tight rows.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click, submit_button
from envsuite.families.gui.forms.vocabulary import WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.toggles import Checkbox, RadioGroup
from envsuite.families.gui.widget import Widget


def _labels(rng: np.random.Generator, split: str, low: int, high: int) -> list[str]:
    words = pool(WORDS, split)
    count = int(rng.integers(low, high + 1))
    return [str(words[i]) for i in rng.choice(len(words), count, replace=False)]


class ClickCheckboxes(FormTask):
    """Tick exactly the named checkboxes, then Submit (MiniWoB++ ``click-checkboxes``)."""

    name: ClassVar[str] = "click-checkboxes"
    held_out_fields: ClassVar[tuple[str, ...]] = ("select",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("column",), "test": ("columns",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Labels, targets, starting ticks and places."""
        self.labels = _labels(rng, self.split, 3, 7)
        count = len(self.labels)
        wanted = int(rng.integers(1, min(count, 4) + 1))
        self.targets = sorted(int(i) for i in rng.choice(count, wanted, replace=False))
        self.start = [bool(rng.random() < 0.2) for _ in range(count)]
        area = layout.content_area(self.width, self.height, self.theme, False)
        widths = [layout.label_width(label, self.theme) + 30 for label in self.labels]
        if self.layout == "column":
            self.rects = layout.column(widths, area, height=20, gap=6)
        else:
            self.rects = layout.grid(count, 2, area, height=20, gap=6)
        self.rects = layout.shifted(
            self.rects, Rect(area.x, area.y, area.width, area.height - 40), rng
        )
        bottom = max(rect.bottom for rect in self.rects)
        self.submit_rect = Rect(self.rects[0].x, bottom + 12, 80, layout.ROW_HEIGHT)
        names = [self.labels[i] for i in self.targets]
        listed = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
        self.goal = Goal(
            f"Select {listed} and nothing else, then click Submit.", {"select": ", ".join(names)}
        )
        changes = sum(self.start[i] != (i in self.targets) for i in range(count))
        self.optimal_steps = changes + 1

    def build_screen(self, screen_id: str) -> Screen:
        """The boxes and Submit."""
        items: list[Widget] = [
            Checkbox(f"check-{i}", rect, name=label, checked=self.start[i])
            for i, (label, rect) in enumerate(zip(self.labels, self.rects, strict=True))
        ]
        items.append(submit_button(self.submit_rect))
        return Screen(self.width, self.height, items=items)

    def form_values(self) -> dict[str, str]:
        """The ticked labels."""
        ticked = [
            label
            for i, label in enumerate(self.labels)
            if isinstance(box := self.widget(f"check-{i}"), Checkbox) and box.checked
        ]
        return {"select": ", ".join(sorted(ticked))}

    def judge(self) -> Outcome | None:
        """The submitted ticks against the targets."""
        return self.judge_submission(
            {"select": ", ".join(sorted(self.labels[i] for i in self.targets))}
        )

    def solve(self) -> GuiAction:
        """Toggle the first box in the wrong state, else Submit."""
        for i in range(len(self.labels)):
            box = self.widget(f"check-{i}")
            if isinstance(box, Checkbox) and box.checked != (i in self.targets):
                return click(f"check-{i}")
        return click("submit")


class ClickOption(FormTask):
    """Select the named radio option, then Submit (MiniWoB++ ``click-option``)."""

    name: ClassVar[str] = "click-option"
    held_out_fields: ClassVar[tuple[str, ...]] = ("option",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("left",), "test": ("right",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Options, target and place."""
        self.options = _labels(rng, self.split, 3, 6)
        self.target = int(rng.integers(len(self.options)))
        area = layout.content_area(self.width, self.height, self.theme, False)
        row = 26 if self.layout == "left" else 20
        width = max(layout.label_width(o, self.theme) for o in self.options) + 30
        height = row * len(self.options)
        x = area.x if self.layout == "left" else area.right - width
        y = area.y + int(rng.integers(0, max(area.height - height - 40, 0) + 1))
        self.group_rect = Rect(x, y, width, height)
        self.submit_rect = Rect(x, y + height + 12, 80, layout.ROW_HEIGHT)
        option = self.options[self.target]
        self.goal = Goal(f'Select "{option}" and click Submit.', {"option": option})
        self.optimal_steps = 2

    def build_screen(self, screen_id: str) -> Screen:
        """The radio group and Submit."""
        group = RadioGroup("options", self.group_rect, name="Options", options=list(self.options))
        return Screen(self.width, self.height, items=[group, submit_button(self.submit_rect)])

    def form_values(self) -> dict[str, str]:
        """The selected option."""
        group = self.widget("options")
        assert isinstance(group, RadioGroup)
        return {"option": str(group.state()["value"])}

    def judge(self) -> Outcome | None:
        """The submitted option against the target."""
        return self.judge_submission({"option": self.options[self.target]})

    def solve(self) -> GuiAction:
        """Select the target, then Submit."""
        group = self.widget("options")
        if isinstance(group, RadioGroup) and group.selected != self.target:
            return click(f"options/{self.target}")
        return click("submit")
