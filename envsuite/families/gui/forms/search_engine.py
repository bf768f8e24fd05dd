"""search-engine: search for the named query, then click the n-th result (two screens).

Instance: a query (a first name from the split's pool), 6 to 12 results (titles and
descriptions from the split's words and the filler words), 3 to a page, and the target
rank. Screens: ``search`` (a field and a Search button) and ``results/<page>`` (the field
again, the page's results, links to every page). Searching (the button or ``enter``)
records the query and shows page 1; a page link shows that page (pushed on the back
stack, so ``back`` returns). On the search page train puts the Search button beside the
field, test below it; result pages always have it beside.

Success: the target result is clicked after searching for the query. Failure: any
result is clicked otherwise (another rank, or after searching for something else).
Fewest steps: 4 (click the field, type, Search, click) plus 1 when the result is not on
page 1. Distinct instances: 60 train names x C(162, 6..12) titles x ranks, over 10^12.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import FILLER, FIRST_NAMES, WORDS, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label, Widget

#: Results on one page.
PER_PAGE = 3


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``12th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class SearchEngine(FormTask):
    """Search, then click the n-th result (MiniWoB++ ``search-engine``)."""

    name: ClassVar[str] = "search-engine"
    held_out_fields: ClassVar[tuple[str, ...]] = ("query",)
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("beside",), "test": ("below",)}
    home_id: ClassVar[str] = "search"

    def generate(self, rng: np.random.Generator) -> None:
        """Query, results and target rank."""
        names = pool(FIRST_NAMES, self.split)
        words = pool(WORDS, self.split)
        self.query = str(names[int(rng.integers(len(names)))])
        count = int(rng.integers(6, 13))
        picks = rng.choice(len(words), count, replace=False)
        self.titles = [f"{self.query} {words[i]}" for i in picks]
        self.texts = [
            " ".join(str(FILLER[j]) for j in rng.integers(0, len(FILLER), 5)).capitalize()
            for _ in range(count)
        ]
        self.target = int(rng.integers(count))
        self.pages = (count + PER_PAGE - 1) // PER_PAGE
        rank = ordinal(self.target + 1)
        self.goal = Goal(
            f'Use the textbox to enter "{self.query}" and press "Search", then find and click '
            f"the {rank} search result.",
            {"query": self.query, "rank": str(self.target + 1)},
        )
        self.optimal_steps = 4 + (self.target >= PER_PAGE)

    def _search_bar(self, y: int, value: str, style: str) -> list[Widget]:
        area = layout.content_area(self.width, self.height, self.theme, False)
        if style == "beside":
            box = Rect(area.x, y, area.width - 78, layout.ROW_HEIGHT)
            button = Rect(box.right + 6, y, 72, layout.ROW_HEIGHT)
        else:
            box = Rect(area.x, y, area.width, layout.ROW_HEIGHT)
            button = Rect(area.x, y + layout.ROW_HEIGHT + 6, 72, layout.ROW_HEIGHT)
        return [
            TextField("query", box, name="Search", value=value, caret=len(value)),
            Button("search", button, name="Search", primary=True),
        ]

    def build_screen(self, screen_id: str) -> Screen:
        """The search page, or a page of results."""
        area = layout.content_area(self.width, self.height, self.theme, False)
        if screen_id == "search":
            items: list[Widget] = [
                Label(
                    "heading", Rect(area.x, area.y + 30, area.width, 20), text="Search", bold=True
                ),
                *self._search_bar(area.y + 54, "", self.layout),
            ]
            return Screen(self.width, self.height, items=items)
        page = int(screen_id.split("/")[1])
        items = self._search_bar(area.y, str(self.app_data().get("query", "")), "beside")
        y = items[-1].bounds.bottom + 10
        for k in range((page - 1) * PER_PAGE, min(page * PER_PAGE, len(self.titles))):
            title = self.titles[k]
            items.append(
                Link(
                    f"result-{k}",
                    Rect(area.x, y, layout.label_width(title, self.theme), 18),
                    name=title,
                )
            )
            items.append(
                Label(
                    f"text-{k}",
                    Rect(area.x, y + 18, area.width, 16),
                    text=self.texts[k],
                    muted=True,
                )
            )
            y += 38
        x = area.x
        for q in range(1, self.pages + 1):
            label = str(q)
            items.append(
                Link(
                    f"page-{q}",
                    Rect(x, y + 4, layout.label_width(label, self.theme), 18),
                    name=label,
                    visited=q == page,
                )
            )
            x += 24
        return Screen(self.width, self.height, items=items)

    def on_event(self, kind: str, element_id: str) -> str | None:
        """Search, change page, or note the result clicked."""
        data = self.app.data
        if (kind, element_id) in (("activate", "search"), ("submit", "query")):
            field = self.widget("query")
            data["query"] = field.value if isinstance(field, TextField) else ""
            return "results/1"
        if kind == "activate" and element_id.startswith("page-"):
            return f"results/{element_id.split('-')[1]}"
        if kind == "activate" and element_id.startswith("result-"):
            data.setdefault(
                "clicked",
                {"rank": int(element_id.split("-")[1]) + 1, "query": data.get("query", "")},
            )
        return None

    def judge(self) -> Outcome | None:
        """The clicked result and the query searched against the goal."""
        clicked = self.app.data.get("clicked")
        if clicked is None:
            return None
        right = clicked == {"rank": self.target + 1, "query": self.query}
        return "success" if right else "failure"

    def solve(self) -> GuiAction:
        """Search for the query (again, if another was searched), go to the page, click."""
        if self.app.screen_id == "search" or self.app.data.get("query") != self.query:
            return self.fill("query", self.query) or click("search")
        page = self.target // PER_PAGE + 1
        if self.app.screen_id != f"results/{page}":
            return click(f"page-{page}")
        return click(f"result-{self.target}")
