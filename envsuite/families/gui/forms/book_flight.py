"""book-flight: search flights between two cities on a date, then book the best one.

Instance: a departure and an arrival city (distinct, from the split's pool), a date
(train years ``year % 4 != 3``, test the others), 3 or 4 flights with distinct durations
and prices, and whether the cheapest or the shortest is wanted. Screens: ``search``
(From, To and Departure fields, Search) and ``results`` (the search, then a row per
flight with times, duration, price and a Book button, in a scrolling pane). Train labels
the fields on the left; test above.

Success: the wanted flight is booked after searching with the goal's cities and date.
Failure: any flight is booked otherwise. Fewest steps: 8 (three fields at two actions
each, Search, Book), plus one scroll when the wanted flight's Book button starts below the
pane (never on 256-pixel-tall screens). Distinct instances: 36 x 35 city pairs x 20,000+
dates x flights: over 10^9.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click
from envsuite.families.gui.forms.vocabulary import CITIES, pool, split_years
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label, Widget

#: The search fields, top to bottom.
FIELDS = ("From", "To", "Departure")
#: Height of a flight row.
FLIGHT_ROW = 44


class BookFlight(FormTask):
    """Search and book the cheapest or shortest flight (MiniWoB++ ``book-flight``)."""

    name: ClassVar[str] = "book-flight"
    held_out_fields: ClassVar[tuple[str, ...]] = ("from", "date")
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("left",), "test": ("above",)}
    home_id: ClassVar[str] = "search"

    def generate(self, rng: np.random.Generator) -> None:
        """Cities, date, flights and the criterion."""
        cities = pool(CITIES, self.split)
        a, b = rng.choice(len(cities), 2, replace=False)
        years = split_years(self.split)
        year = years[int(rng.integers(len(years)))]
        self.values = [
            str(cities[a]),
            str(cities[b]),
            f"{int(rng.integers(1, 13)):02d}/{int(rng.integers(1, 29)):02d}/{year}",
        ]
        count = int(rng.integers(3, 5))
        self.durations = [int(m) for m in rng.choice(np.arange(60, 720, 5), count, replace=False)]
        self.prices = [int(p) for p in rng.choice(np.arange(80, 900), count, replace=False)]
        self.departures = [int(m) for m in rng.integers(5 * 60, 22 * 60, count)]
        self.criterion = "cheapest" if rng.random() < 0.5 else "shortest"
        scores = self.prices if self.criterion == "cheapest" else self.durations
        self.best = scores.index(min(scores))
        origin, destination, date = self.values
        self.goal = Goal(
            f"Book the {self.criterion} one-way flight from: {origin} to: {destination} on {date}.",
            {"criterion": self.criterion, "from": origin, "to": destination, "date": date},
        )
        pane = self._pane()
        hidden = self.best * FLIGHT_ROW + 10 >= pane.height
        self.optimal_steps = 8 + hidden

    # -- screens ----------------------------------------------------------------------

    def _area(self) -> Rect:
        return layout.content_area(self.width, self.height, self.theme, True)

    def _pane(self) -> Rect:
        area = self._area()
        return Rect(area.x, area.y + 24, area.width, area.height - 24)

    def build_screen(self, screen_id: str) -> Screen:
        """The search form or the results."""
        area = self._area()
        if screen_id == "search":
            rows = layout.labelled_fields(
                FIELDS, Rect(area.x, area.y, area.width, area.height - 36), self.theme, self.layout
            )
            items: list[Widget] = []
            for i, (label, (label_rect, field_rect)) in enumerate(zip(FIELDS, rows, strict=True)):
                items.append(Label(f"label-{i}", label_rect, text=label))
                hint = "mm/dd/yyyy" if i == 2 else "City"
                items.append(TextField(f"field-{i}", field_rect, name=label, placeholder=hint))
            last = rows[-1][1]
            items.append(
                Button(
                    "search",
                    Rect(last.right - 90, last.bottom + 10, 90, layout.ROW_HEIGHT),
                    name="Search",
                    primary=True,
                )
            )
            return Screen(self.width, self.height, title="Book a flight", items=items)
        origin, destination, date = self.app_data().get("search", ["", "", ""])
        pane = self._pane()
        flights: list[Widget] = []
        for i in range(len(self.prices)):
            y = pane.y + i * FLIGHT_ROW + 4
            start, length = self.departures[i], self.durations[i]
            end = (start + length) % (24 * 60)
            times = f"{start // 60:02d}:{start % 60:02d} → {end // 60:02d}:{end % 60:02d}"
            flights.append(Label(f"times-{i}", Rect(pane.x + 6, y, 130, 18), text=times, bold=True))
            flights.append(
                Label(
                    f"length-{i}",
                    Rect(pane.x + 6, y + 18, 130, 16),
                    text=f"{length // 60}h {length % 60:02d}m",
                    muted=True,
                )
            )
            flights.append(
                Label(
                    f"price-{i}", Rect(pane.right - 124, y + 8, 54, 18), text=f"${self.prices[i]}"
                )
            )
            flights.append(
                Button(
                    f"book-{i}",
                    Rect(pane.right - 66, y + 6, 56, layout.ROW_HEIGHT),
                    name="Book",
                    primary=True,
                )
            )
        header = Label(
            "route",
            Rect(area.x, area.y, area.width, 20),
            text=f"{origin} → {destination}, {date}",
            bold=True,
        )
        pane_widget = ScrollContainer(
            "flights",
            pane,
            name="Flights",
            items=flights,
            content_height=len(self.prices) * FLIGHT_ROW + 8,
        )
        return Screen(self.width, self.height, title="Flights", items=[header, pane_widget])

    # -- reactions --------------------------------------------------------------------

    def on_event(self, kind: str, element_id: str) -> str | None:
        """Search, or note the booking."""
        data = self.app.data
        if self.app.screen_id == "search" and (
            (kind, element_id) == ("activate", "search") or kind == "submit"
        ):
            data["search"] = [
                w.value if isinstance(w := self.widget(f"field-{i}"), TextField) else ""
                for i in range(len(FIELDS))
            ]
            return "results"
        if kind == "activate" and element_id.startswith("book-"):
            data.setdefault(
                "booked", {"flight": int(element_id.split("-")[1]), "search": data.get("search")}
            )
        return None

    def judge(self) -> Outcome | None:
        """The booking against the wanted flight and search."""
        booked = self.app.data.get("booked")
        if booked is None:
            return None
        right = booked == {"flight": self.best, "search": self.values}
        return "success" if right else "failure"

    def solve(self) -> GuiAction:
        """Fill the search, Search, book the wanted flight (back first after a wrong search)."""
        if self.app.screen_id == "search":
            for i, text in enumerate(self.values):
                action = self.fill(f"field-{i}", text)
                if action is not None:
                    return action
            return click("search")
        if self.app.data.get("search") != self.values:
            return GuiAction("back")
        return self.reach(f"book-{self.best}")
