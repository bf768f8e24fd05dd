"""use-autocomplete: type into a field that suggests matching items, then submit.

Instance: a target country from the split's pool, named by a start (2 to 4 letters) and an
end (2 or 3 letters) that no other country of the pool shares; a field with one of six
labels, placed with a seeded offset; a theme. While the field holds text that is not a
whole item, a list of up to 5 items starting with it (case-insensitive) shows below the
field; selecting one fills the field with it. Train puts Submit right of the field; test
below the suggestions' place.

Success: Submit (or ``enter``) with the target in the field; failure: with anything else.
Fewest steps: 3 (click the field, type the item, Submit); an agent that does not know the
item types the start and picks the suggestion, one step more. Distinct instances: 55
train targets x start and end lengths (about 300 goals) x 6 labels x 800 places x 2
themes, over 10^6.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.forms import layout
from envsuite.families.gui.forms.form_task import FormTask, click, submit_button
from envsuite.families.gui.forms.vocabulary import COUNTRIES, pool
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.task import Goal, Outcome
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label

#: Labels of the field.
FIELD_LABELS = ("Country", "Destination", "Nationality", "Location", "Region", "Home country")
#: Most suggestions shown.
MAX_SUGGESTIONS = 5
#: Height of a suggestion row.
ROW = 22
#: Tries to find a start and an end that name one item.
CUE_TRIES = 20


class UseAutocomplete(FormTask):
    """Enter the item a start and an end describe (MiniWoB++ ``use-autocomplete``)."""

    name: ClassVar[str] = "use-autocomplete"
    layout_shifts: ClassVar[bool] = False
    layouts: ClassVar[dict[str, tuple[str, ...]]] = {"train": ("beside",), "test": ("below",)}

    def generate(self, rng: np.random.Generator) -> None:
        """Target, its cues and the field's place.

        Raises:
            RuntimeError: no start and end named one item within :data:`CUE_TRIES` tries
                (cannot happen with the shipped pools: the whole name always does).
        """
        self.items = pool(COUNTRIES, self.split)
        for _ in range(CUE_TRIES):
            target = str(self.items[int(rng.integers(len(self.items)))])
            start = target[: int(rng.integers(2, 5))]
            end = target[-int(rng.integers(2, 4)) :]
            matches = [i for i in self.items if i.startswith(start) and i.endswith(end)]
            if matches == [target]:
                break
        else:
            raise RuntimeError("no start and end name one item")
        self.target, self.start, self.end = target, start, end
        self.label = FIELD_LABELS[int(rng.integers(len(FIELD_LABELS)))]
        area = layout.content_area(self.width, self.height, self.theme, False)
        area = Rect(area.x + int(rng.integers(0, 20)), area.y, area.width - 20, area.height)
        below = 18 + layout.ROW_HEIGHT + MAX_SUGGESTIONS * ROW + 12 + layout.ROW_HEIGHT
        room = area.height - (below if self.layout == "below" else 18 + layout.ROW_HEIGHT)
        y = area.y + 18 + int(rng.integers(0, max(min(room, 40), 0) + 1))
        width = min(area.width - 80, 170) if self.layout == "beside" else area.width
        self.field_rect = Rect(area.x, y, width, layout.ROW_HEIGHT)
        if self.layout == "beside":
            self.submit_rect = Rect(self.field_rect.right + 8, y, 72, layout.ROW_HEIGHT)
        else:
            below = y + layout.ROW_HEIGHT + MAX_SUGGESTIONS * ROW + 12
            self.submit_rect = Rect(area.right - 80, below, 80, layout.ROW_HEIGHT)
        self.goal = Goal(
            f'Enter an item that starts with "{start}" and ends with "{end}".',
            {"start": start, "end": end},
        )
        self.optimal_steps = 3

    def build_screen(self, screen_id: str) -> Screen:
        """Label, field and Submit (the suggestions come and go)."""
        box = self.field_rect
        return Screen(
            self.width,
            self.height,
            items=[
                Label("label", Rect(box.x, box.y - 18, 120, 18), text=self.label),
                TextField("field", box, name=self.label, placeholder="Start typing"),
                submit_button(self.submit_rect),
            ],
        )

    def suggestions(self, text: str) -> list[str]:
        """Items starting with ``text`` (none for an empty text or a whole item)."""
        if not text or text in self.items:
            return []
        low = text.lower()
        return [item for item in self.items if item.lower().startswith(low)][:MAX_SUGGESTIONS]

    def after_step(self) -> bool:
        """Take a picked suggestion into the field; refresh the list for the field's text."""
        changed = super().after_step()
        screen = self.app.screen
        field = screen.find("field")
        if not isinstance(field, TextField):
            return changed
        shown = screen.find("suggestions")
        picked = isinstance(shown, ListBox) and shown.selected is not None
        if isinstance(shown, ListBox) and shown.selected is not None:
            field.value = shown.items[shown.selected]
            field.caret = len(field.value)
            screen.focus_id = "field"
        words = self.suggestions(field.value)
        if not picked and words == (shown.items if isinstance(shown, ListBox) else []):
            return changed
        screen.items = [w for w in screen.items if w.element_id != "suggestions"]
        if words:
            box = self.field_rect
            rect = Rect(box.x, box.bottom, box.width, ROW * len(words))
            screen.items.append(
                ListBox("suggestions", rect, name="Suggestions", items=words, item_height=ROW)
            )
        return True

    def form_values(self) -> dict[str, str]:
        """The field's text."""
        field = self.widget("field")
        return {"item": field.value if isinstance(field, TextField) else ""}

    def judge(self) -> Outcome | None:
        """The submitted text against the target."""
        return self.judge_submission({"item": self.target})

    def solve(self) -> GuiAction:
        """Type the item, Submit."""
        return self.fill("field", self.target) or click("submit")
