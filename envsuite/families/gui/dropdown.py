"""A dropdown (a ``<select>``): a closed box showing the choice, opened into a list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.widget import Widget, fast_init


@fast_init
@dataclass(eq=False)
class DropdownOption(Widget):
    """One entry of an open :class:`Dropdown`'s list (made by the dropdown)."""

    dropdown: Dropdown | None = None
    index: int = 0
    role: ClassVar[str] = "option"

    def state(self) -> dict[str, Any]:
        """``selected``."""
        return {"selected": self.dropdown is not None and self.dropdown.selected == self.index}

    def on_click(self, px: int, py: int) -> bool:
        """Choose it; the list closes."""
        return self.dropdown.choose(self.index) if self.dropdown is not None else False


@fast_init
@dataclass(eq=False)
class Dropdown(Widget):
    """A closed box showing the chosen option; a click opens the option list below it.

    While open its options are drawn above everything else and take clicks; a click
    anywhere else closes it (dispatch does that). Keys while focused: ``enter`` / ``space``
    open and close it, ``up`` / ``down`` change the choice, ``escape`` closes it.

    Args:
        options: The option labels; each row of the open list is as tall as the box.
        selected: Index of the chosen option, or None (the box shows ``placeholder``).
        expanded: Whether the list is open.
        placeholder: Shown while nothing is chosen.
    """

    options: list[str] = field(default_factory=list)
    selected: int | None = None
    expanded: bool = False
    placeholder: str = "Select…"
    role: ClassVar[str] = "combobox"
    focusable: ClassVar[bool] = True

    def __post_init__(self) -> None:
        box = self.bounds
        self.option_widgets = [
            DropdownOption(
                f"{self.element_id}/{index}",
                Rect(box.x, box.bottom + index * box.height, box.width, box.height),
                name=label,
                dropdown=self,
                index=index,
            )
            for index, label in enumerate(self.options)
        ]

    @property
    def value(self) -> str:
        """The chosen label, or ""."""
        return "" if self.selected is None else self.options[self.selected]

    def popup_children(self) -> Sequence[Widget]:
        """The options, while open."""
        return self.option_widgets if self.expanded else ()

    def state(self) -> dict[str, Any]:
        """``expanded`` and ``value``."""
        return {"expanded": self.expanded, "value": self.value}

    def choose(self, index: int) -> bool:
        """Choose option ``index`` and close the list."""
        changed = self.selected != index or self.expanded
        self.selected, self.expanded = index, False
        return changed

    def on_click(self, px: int, py: int) -> bool:
        """Open or close the list."""
        self.expanded = not self.expanded
        return True

    def on_key(self, key: str) -> bool:
        """Open, close, or move the choice."""
        if key in ("enter", "space"):
            return self.on_click(0, 0)
        if key == "escape" and self.expanded:
            self.expanded = False
            return True
        if key in ("up", "down") and self.options:
            if self.selected is None:
                index = 0 if key == "down" else len(self.options) - 1
            else:
                step = 1 if key == "down" else -1
                index = min(max(self.selected + step, 0), len(self.options) - 1)
            changed = index != self.selected
            self.selected = index
            return changed
        return False
