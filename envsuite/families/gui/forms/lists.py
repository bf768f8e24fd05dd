"""choose-list and click-scroll-list: pick the named entry of a dropdown or a scrolling list.

choose-list (MiniWoB++ ``choose-list``): a dropdown of 4 to 10 country names (as many as
fit below it); choose the named one, then Submit. Train labels it on the left with Submit
beside it; test labels it above with Submit below. Fewest steps: 3 (open, choose,
Submit). Distinct instances: ordered option lists from 55 train countries, over 10^8.

click-scroll-list (MiniWoB++ ``click-scroll-list``, one selection): a list of 8 to 20
words in a scrolling viewport, scrolled to a seeded offset; select the named word, then
Submit. Train puts the list on the left; test on the right and shorter. Fewest steps: 2,
plus one scroll when the word starts wholly out of view (the oracle scrolls exactly far
enough). Distinct instances: ordered word lists from 162 train words, over 10^15.

Both: success is Submit with the named entry chosen; failure is Submit with anything else.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click, submit_button
from envsuite.families.gui.forms.vocabulary import COUNTRIES, WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Label

#: Height of a list row.
ROW = 22


class ChooseList(FormTask):
    """Choose the named option of a dropdown, then Submit (MiniWoB++ ``choose-list``)."""

    name: ClassVar[str] = "choose-list"
    held_out_fields: ClassVar[tuple[str, ...]] = ("option",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("left",), "test": ("above",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Options, target and places."""
        area = layout.content_area(self.width, self.height, self.theme, False)
        top = area.y + (18 if self.layout == "above" else 0)
        room = (area.bottom - top - layout.ROW_HEIGHT) // layout.ROW_HEIGHT
        y = top + int(rng.integers(0, max((room - 4) * layout.ROW_HEIGHT // 2, 0) + 1))
        fits = (area.bottom - y - layout.ROW_HEIGHT) // layout.ROW_HEIGHT
        countries = pool(COUNTRIES, self.split)
        count = int(rng.integers(4, min(fits, 10) + 1))
        self.options = [str(countries[i]) for i in rng.choice(len(countries), count, replace=False)]
        self.target = int(rng.integers(count))
        if self.layout == "left":
            self.label_rect = Rect(area.x, y, 56, layout.ROW_HEIGHT)
            self.box = Rect(area.x + 60, y, min(area.width - 60 - 80, 150), layout.ROW_HEIGHT)
            self.submit_rect = Rect(self.box.right + 8, y, 72, layout.ROW_HEIGHT)
        else:
            self.label_rect = Rect(area.x, y - 18, 120, 18)
            self.box = Rect(area.x, y, area.width - 80, layout.ROW_HEIGHT)
            self.submit_rect = Rect(area.right - 72, y, 72, layout.ROW_HEIGHT)
        option = self.options[self.target]
        self.goal = Goal(f'Select "{option}" from the list and click Submit.', {"option": option})
        self.optimal_steps = 3

    def popup_moments(self) -> list[int]:
        """Not while the list is open (the pop-up would close it)."""
        return [0, 2]

    def build_screen(self, screen_id: str) -> Screen:
        """Label, dropdown and Submit."""
        return Screen(
            self.width,
            self.height,
            items=[
                Label("label", self.label_rect, text="Country"),
                submit_button(self.submit_rect),
                Dropdown("list", self.box, name="Country", options=list(self.options)),
            ],
        )

    def form_values(self) -> dict[str, str]:
        """The chosen option."""
        box = self.widget("list")
        return {"option": box.value if isinstance(box, Dropdown) else ""}

    def judge(self) -> Outcome | None:
        """The submitted option against the target."""
        return self.judge_submission({"option": self.options[self.target]})

    def solve(self) -> GuiAction:
        """Open the list, choose the target, Submit."""
        box = self.widget("list")
        assert isinstance(box, Dropdown)
        if box.selected == self.target and not box.expanded:
            return click("submit")
        if not box.expanded:
            return click("list")
        return click(f"list/{self.target}")


class ClickScrollList(FormTask):
    """Select the named word of a scrolling list, then Submit (``click-scroll-list``)."""

    name: ClassVar[str] = "click-scroll-list"
    held_out_fields: ClassVar[tuple[str, ...]] = ("item",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("left",), "test": ("right",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Words, target, viewport and its starting offset."""
        words = pool(WORDS, self.split)
        count = int(rng.integers(8, 21))
        self.items = [str(words[i]) for i in rng.choice(len(words), count, replace=False)]
        self.target = int(rng.integers(count))
        area = layout.content_area(self.width, self.height, self.theme, False)
        rows = int(rng.integers(4, 7)) if self.layout == "left" else int(rng.integers(3, 5))
        width = 140
        x = area.x if self.layout == "left" else area.right - width
        self.view = Rect(x, area.y + 20, width, rows * ROW)
        self.scroll = int(rng.integers(0, (count - rows) * ROW + 1))
        self.submit_rect = Rect(x, self.view.bottom + 12, 80, layout.ROW_HEIGHT)
        item = self.items[self.target]
        self.goal = Goal(f'Select "{item}" from the scroll list and click Submit.', {"item": item})
        top = self.target * ROW - self.scroll
        hidden = top + ROW <= 0 or top >= self.view.height
        self.optimal_steps = 2 + hidden

    def build_screen(self, screen_id: str) -> Screen:
        """Heading, the list in its viewport, Submit."""
        view = self.view
        words = ListBox(
            "list",
            Rect(view.x, view.y, view.width - 10, len(self.items) * ROW),
            name="Words",
            items=list(self.items),
            item_height=ROW,
        )
        container = ScrollContainer(
            "scroll", view, name="Word list", items=[words], scroll_y=self.scroll
        )
        return Screen(
            self.width,
            self.height,
            items=[
                Label(
                    "heading", Rect(view.x, view.y - 20, view.width, 18), text="Words", bold=True
                ),
                container,
                submit_button(self.submit_rect),
            ],
        )

    def form_values(self) -> dict[str, str]:
        """The selected word."""
        words = self.widget("list")
        return {"item": str(words.state()["value"]) if isinstance(words, ListBox) else ""}

    def judge(self) -> Outcome | None:
        """The submitted word against the target."""
        return self.judge_submission({"item": self.items[self.target]})

    def solve(self) -> GuiAction:
        """Scroll the word into view, select it, Submit."""
        words = self.widget("list")
        if isinstance(words, ListBox) and words.selected == self.target:
            return click("submit")
        return self.reach(f"list/{self.target}")
