"""A list of selectable rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.widget import Widget, fast_init


@fast_init
@dataclass(eq=False)
class ListItem(Widget):
    """One row of a :class:`ListBox` (made by the list)."""

    list_box: ListBox | None = None
    index: int = 0
    role: ClassVar[str] = "option"

    def state(self) -> dict[str, Any]:
        """``selected``."""
        return {"selected": self.list_box is not None and self.list_box.selected == self.index}

    def on_click(self, px: int, py: int) -> bool:
        """Select it."""
        return self.list_box.select(self.index) if self.list_box is not None else False


@fast_init
@dataclass(eq=False)
class ListBox(Widget):
    """Rows of text of which one may be selected; rows are ``item_height`` tall from the top.

    A list longer than the screen sits in a
    :class:`~envsuite.families.gui.scroll_container.ScrollContainer`. ``up`` / ``down`` move
    the selection while it has focus; a double click on a row counts as opening it
    (``opened`` holds the row's index), as in a file list or an inbox.

    Args:
        items: Row labels.
        selected: Index of the selected row, or None.
        item_height: Height of each row in pixels.
    """

    items: list[str] = field(default_factory=list)
    selected: int | None = None
    item_height: int = 24
    opened: int | None = None
    role: ClassVar[str] = "listbox"
    focusable: ClassVar[bool] = True

    def __post_init__(self) -> None:
        box = self.bounds
        self.rows = [
            ListItem(
                f"{self.element_id}/{index}",
                Rect(box.x, box.y + index * self.item_height, box.width, self.item_height),
                name=label,
                list_box=self,
                index=index,
            )
            for index, label in enumerate(self.items)
        ]

    def children(self) -> Sequence[Widget]:
        """Its rows."""
        return self.rows

    def state(self) -> dict[str, Any]:
        """``value``: the selected row's label, or ""."""
        return {"value": "" if self.selected is None else self.items[self.selected]}

    def select(self, index: int) -> bool:
        """Select row ``index``; True if the selection changed."""
        if not self.enabled or self.selected == index:
            return False
        self.selected = index
        return True

    def on_key(self, key: str) -> bool:
        """``up`` / ``down`` move the selection; ``enter`` opens the selected row."""
        if not self.items:
            return False
        if key == "enter" and self.selected is not None:
            self.opened = self.selected
            return True
        if key not in ("up", "down"):
            return False
        if self.selected is None:
            return self.select(0 if key == "down" else len(self.items) - 1)
        step = 1 if key == "down" else -1
        return self.select(min(max(self.selected + step, 0), len(self.items) - 1))
