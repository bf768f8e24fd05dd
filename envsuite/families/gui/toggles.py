"""Checkboxes and radio groups."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.widget import Widget, fast_init


@fast_init
@dataclass(eq=False)
class Checkbox(Widget):
    """A box with a label that a click or ``space`` ticks and unticks."""

    checked: bool = False
    role: ClassVar[str] = "checkbox"
    focusable: ClassVar[bool] = True

    def state(self) -> dict[str, Any]:
        """``checked``."""
        return {"checked": self.checked}

    def on_click(self, px: int, py: int) -> bool:
        """Toggle."""
        self.checked = not self.checked
        return True

    def on_key(self, key: str) -> bool:
        """``space`` toggles."""
        return self.on_click(0, 0) if key == "space" else False


@fast_init
@dataclass(eq=False)
class RadioButton(Widget):
    """One option of a :class:`RadioGroup` (made by the group, never on its own)."""

    group: RadioGroup | None = None
    index: int = 0
    role: ClassVar[str] = "radio"

    def state(self) -> dict[str, Any]:
        """``checked``: whether its group has it selected."""
        return {"checked": self.group is not None and self.group.selected == self.index}

    def on_click(self, px: int, py: int) -> bool:
        """Select it in its group."""
        return self.group.select(self.index) if self.group is not None else False


@fast_init
@dataclass(eq=False)
class RadioGroup(Widget):
    """Options of which at most one is selected; one row per option, stacked in ``bounds``.

    The group takes keyboard focus (``up`` / ``down`` move the selection), its options take
    clicks.

    Args:
        options: The option labels.
        selected: Index of the selected option, or None.
    """

    options: list[str] = field(default_factory=list)
    selected: int | None = None
    role: ClassVar[str] = "radiogroup"
    focusable: ClassVar[bool] = True

    def __post_init__(self) -> None:
        row = self.bounds.height // max(len(self.options), 1)
        self.buttons = [
            RadioButton(
                f"{self.element_id}/{index}",
                Rect(self.bounds.x, self.bounds.y + index * row, self.bounds.width, row),
                name=label,
                group=self,
                index=index,
            )
            for index, label in enumerate(self.options)
        ]

    def children(self) -> Sequence[Widget]:
        """Its option buttons."""
        return self.buttons

    def state(self) -> dict[str, Any]:
        """``value``: the selected label, or ""."""
        return {"value": "" if self.selected is None else self.options[self.selected]}

    def select(self, index: int) -> bool:
        """Select option ``index``; True if that changed the selection."""
        if not self.enabled or self.selected == index:
            return False
        self.selected = index
        return True

    def on_key(self, key: str) -> bool:
        """``up`` / ``down`` (also ``left`` / ``right``) move the selection, wrapping."""
        if not self.options or key not in ("up", "down", "left", "right"):
            return False
        step = -1 if key in ("up", "left") else 1
        start = (-1 if step == 1 else 0) if self.selected is None else self.selected
        return self.select((start + step) % len(self.options))
