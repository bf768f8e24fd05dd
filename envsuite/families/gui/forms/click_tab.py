"""click-tab and click-collapsible: find a link hidden in another tab or a closed section.

click-tab (MiniWoB++ ``click-tab-2``): 2 to 4 tabs, each panel holding 2 to 4 links; the
target link sits in one panel. Train puts a panel's links in wrapping rows, test in a
column. Success: the target is followed; failure: another link is followed first.
Fewest steps: 1 when the target's tab is shown first, else 2.

click-collapsible (MiniWoB++ ``click-collapsible-2``): 2 to 4 section headers, all closed;
activating a header opens its section (closing any other) and the sections below move
down. The target link sits in one section. Train draws headers full width, test narrower
and indented. Success and failure as click-tab. Fewest steps: 2.

Distinct instances: link words C(162, 4..16) with their split into panels: far beyond
10^5 on train.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Widget

#: Height of a link row.
LINK_ROW = 20


def _draw_sections(
    task: FormTask, rng: np.random.Generator, low: int, high: int
) -> tuple[list[str], list[list[str]], int, int]:
    """Section titles, the link words of each section, the target section and link."""
    words = pool(WORDS, task.split)
    sections = int(rng.integers(low, high + 1))
    per = [int(rng.integers(2, 5)) for _ in range(sections)]
    chosen = [str(words[i]) for i in rng.choice(len(words), sections + sum(per), replace=False)]
    titles = [word.capitalize() for word in chosen[:sections]]
    links, at = [], sections
    for count in per:
        links.append(chosen[at : at + count])
        at += count
    section = int(rng.integers(sections))
    return titles, links, section, int(rng.integers(len(links[section])))


def _link_rects(task: FormTask, words: list[str], area: Rect, style: str) -> list[Rect]:
    widths = [layout.label_width(word, task.theme) for word in words]
    if style == "column":
        return layout.column(widths, area, height=LINK_ROW, gap=4)
    return layout.flow(widths, area, height=LINK_ROW, gap=12)


class ClickTab(FormTask):
    """Switch tabs to find and click the named link (MiniWoB++ ``click-tab-2``)."""

    name: ClassVar[str] = "click-tab"
    held_out_fields: ClassVar[tuple[str, ...]] = ("link",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("flow",), "test": ("column",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Tabs, links, target and the tab shown first."""
        self.titles, self.links, self.section, self.index = _draw_sections(self, rng, 2, 4)
        self.active = int(rng.integers(len(self.titles)))
        link = self.links[self.section][self.index]
        self.goal = Goal(
            f'Switch between the tabs to find and click on the link "{link}".', {"link": link}
        )
        self.optimal_steps = 1 if self.active == self.section else 2

    def build_screen(self, screen_id: str) -> Screen:
        """The tab strip and its panels."""
        area = layout.content_area(self.width, self.height, self.theme, False)
        panel_area = Rect(area.x + 4, area.y + 36, area.width - 8, area.height - 36)
        panels: list[list[Widget]] = []
        for s, words in enumerate(self.links):
            rects = _link_rects(self, words, panel_area, self.layout)
            panels.append(
                [
                    Link(f"link-{s}-{i}", rect, name=w)
                    for i, (w, rect) in enumerate(zip(words, rects, strict=True))
                ]
            )
        tabs = Tabs(
            "tabs",
            Rect(area.x, area.y, area.width, 28),
            name="Sections",
            labels=list(self.titles),
            panels=panels,
            active=self.active,
        )
        return Screen(self.width, self.height, items=[tabs])

    def _followed(self) -> list[str]:
        return [i for i in self.activations() if i.startswith("link-")]

    def judge(self) -> Outcome | None:
        """Decided by the first link followed."""
        followed = self._followed()
        if not followed:
            return None
        return "success" if followed[0] == f"link-{self.section}-{self.index}" else "failure"

    def solve(self) -> GuiAction:
        """Show the target's tab, then click the link."""
        tabs = self.widget("tabs")
        if isinstance(tabs, Tabs) and tabs.active != self.section:
            return click(f"tabs/{self.section}")
        return click(f"link-{self.section}-{self.index}")


class ClickCollapsible(FormTask):
    """Open sections to find and click the named link (MiniWoB++ ``click-collapsible-2``)."""

    name: ClassVar[str] = "click-collapsible"
    held_out_fields: ClassVar[tuple[str, ...]] = ("link",)
    layout_shifts: ClassVar[bool] = False
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("wide",), "test": ("narrow",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Sections, links and target."""
        self.titles, self.links, self.section, self.index = _draw_sections(self, rng, 2, 4)
        link = self.links[self.section][self.index]
        self.goal = Goal(
            f'Expand the sections below, to find and click on the link "{link}".', {"link": link}
        )
        self.optimal_steps = 2

    def _items(self) -> list[Widget]:
        area = layout.content_area(self.width, self.height, self.theme, False)
        if self.layout == "narrow":
            area = Rect(area.x + 16, area.y, area.width - 40, area.height)
        opened = self.app_data().get("open")
        items: list[Widget] = []
        y = area.y
        for s, title in enumerate(self.titles):
            mark = "▾" if opened == s else "▸"
            items.append(
                Button(f"section-{s}", Rect(area.x, y, area.width, 26), name=f"{mark} {title}")
            )
            y += 30
            if opened == s:
                inner = Rect(area.x + 12, y, area.width - 12, area.bottom - y)
                try:
                    rects = _link_rects(self, self.links[s], inner, "column")
                except ValueError:  # a short screen: the links share rows
                    rects = _link_rects(self, self.links[s], inner, "flow")
                items.extend(
                    Link(f"link-{s}-{i}", rect, name=w)
                    for i, (w, rect) in enumerate(zip(self.links[s], rects, strict=True))
                )
                y = rects[-1].bottom + 8
        return items

    def build_screen(self, screen_id: str) -> Screen:
        """The headers, and the open section's links."""
        return Screen(self.width, self.height, items=self._items())

    def on_event(self, kind: str, element_id: str) -> str | None:
        """A header opens its section (or closes it when open)."""
        if kind == "activate" and element_id.startswith("section-"):
            s = int(element_id.split("-")[1])
            self.app.data["open"] = None if self.app.data.get("open") == s else s
            self.app.screen.items = self._items()
            self.mark_changed()
        return None

    def judge(self) -> Outcome | None:
        """Decided by the first link followed."""
        followed = [i for i in self.activations() if i.startswith("link-")]
        if not followed:
            return None
        return "success" if followed[0] == f"link-{self.section}-{self.index}" else "failure"

    def solve(self) -> GuiAction:
        """Open the target's section, then click the link."""
        if self.app.data.get("open") != self.section:
            return click(f"section-{self.section}")
        return click(f"link-{self.section}-{self.index}")
