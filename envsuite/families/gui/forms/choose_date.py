"""choose-date: page a month calendar to the named date, pick the day, submit.

Instance: a target date (train years ``year % 4 != 3``, test the others) and the month the
calendar opens at, 0 to 6 months before or after it; a theme. The calendar is built from
buttons: previous / next month, and a button per day under weekday headings; the picked
date shows above it. Train weeks start on Sunday; test weeks on Monday.

Success: Submit with the target picked. Failure: Submit with another date (or none).
Fewest steps: the months to page, plus the day, plus Submit. Distinct instances: 20,000+
dates x 13 offsets x themes: over 10^5.
"""

from __future__ import annotations

import calendar
from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click, submit_button
from envsuite.families.gui.forms.vocabulary import split_years
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.widget import Label, Widget

#: Weekday headings from Monday, and month names (fixed English, whatever the locale).
WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
#: Size of a day button.
CELL_W, CELL_H = 28, 18


def month_index(year: int, month: int) -> int:
    """Months since year 0 (so neighbours differ by one)."""
    return year * 12 + month - 1


class ChooseDate(FormTask):
    """Pick the named date in a month calendar, then Submit (MiniWoB++ ``choose-date``)."""

    name: ClassVar[str] = "choose-date"
    held_out_fields: ClassVar[tuple[str, ...]] = ("date",)
    layout_shifts: ClassVar[bool] = False
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("sunday",), "test": ("monday",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Target date and the month shown first."""
        years = split_years(self.split)
        self.year = years[int(rng.integers(len(years)))]
        self.month = int(rng.integers(1, 13))
        self.day = int(rng.integers(1, calendar.monthrange(self.year, self.month)[1] + 1))
        self.offset = int(rng.integers(-6, 7))
        self.start = month_index(self.year, self.month) + self.offset
        self.date = f"{self.month:02d}/{self.day:02d}/{self.year}"
        self.goal = Goal(f"Select {self.date} as the date and hit submit.", {"date": self.date})
        self.optimal_steps = abs(self.offset) + 2

    def shown(self) -> int:
        """The month shown (a :func:`month_index`)."""
        return int(self.app_data().get("month", self.start))

    def _items(self) -> list[Widget]:
        area = layout.content_area(self.width, self.height, self.theme, False)
        year, month = divmod(self.shown(), 12)
        month += 1
        picked = self.app_data().get("picked", "")
        x0 = area.x + max((area.width - 7 * CELL_W) // 2, 0)
        items: list[Widget] = [
            Label("picked-label", Rect(area.x, area.y, 150, 22), text=f"Date: {picked or 'none'}"),
            submit_button(Rect(area.right - 72, area.y, 72, 22)),
            Button("prev", Rect(x0, area.y + 30, 26, 22), name="Previous month", icon="back"),
            Label(
                "month",
                Rect(x0 + 40, area.y + 30, 7 * CELL_W - 80, 22),
                text=f"{MONTHS[month - 1]} {year}",
                bold=True,
            ),
            Button(
                "next",
                Rect(x0 + 7 * CELL_W - 26, area.y + 30, 26, 22),
                name="Next month",
                icon="plus",
            ),
        ]
        first = 6 if self.layout == "sunday" else 0
        heads = calendar.Calendar(firstweekday=first)
        names = [WEEKDAYS[(first + i) % 7] for i in range(7)]
        for i, name in enumerate(names):
            items.append(
                Label(
                    f"weekday-{i}",
                    Rect(x0 + i * CELL_W + 6, area.y + 56, CELL_W - 6, 14),
                    text=name,
                    muted=True,
                )
            )
        for row, week in enumerate(heads.monthdayscalendar(year, month)):
            for col, day in enumerate(week):
                if day == 0:
                    continue
                date = f"{month:02d}/{day:02d}/{year}"
                rect = Rect(x0 + col * CELL_W, area.y + 72 + row * (CELL_H + 2), CELL_W - 2, CELL_H)
                items.append(Button(f"day-{day}", rect, name=str(day), primary=date == picked))
        return items

    def build_screen(self, screen_id: str) -> Screen:
        """The calendar."""
        return Screen(self.width, self.height, items=self._items())

    def on_event(self, kind: str, element_id: str) -> str | None:
        """Page the month, pick a day, or submit."""
        data = self.app.data
        if kind == "activate" and element_id in ("prev", "next"):
            data["month"] = self.shown() + (1 if element_id == "next" else -1)
        elif kind == "activate" and element_id.startswith("day-"):
            year, month = divmod(self.shown(), 12)
            data["picked"] = f"{month + 1:02d}/{int(element_id.split('-')[1]):02d}/{year}"
        elif kind == "activate" and element_id == "submit":
            data["submitted"] = {"date": data.get("picked", "")}
            return None
        else:
            return None
        self.app.screen.items = self._items()
        self.mark_changed()
        return None

    def judge(self) -> Outcome | None:
        """The submitted date against the target."""
        return self.judge_submission({"date": self.date})

    def solve(self) -> GuiAction:
        """Page towards the target month, pick the day, Submit."""
        if self.app.data.get("picked") == self.date:
            return click("submit")
        target = month_index(self.year, self.month)
        if self.shown() != target:
            return click("next" if self.shown() < target else "prev")
        return click(f"day-{self.day}")
