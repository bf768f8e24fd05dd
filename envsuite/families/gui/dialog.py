"""Dialogs and pop-ups: a titled panel above the screen, modal or not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from envsuite.families.gui.buttons import Button
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.widget import Widget, fast_init

#: Height of a dialog's title bar, in pixels.
TITLE_BAR_HEIGHT = 24


@fast_init
@dataclass(eq=False)
class CloseButton(Button):
    """The ``×`` in a dialog's title bar (made by the dialog); it dismisses the dialog."""


@fast_init
@dataclass(eq=False)
class Dialog(Widget):
    """A panel drawn above the screen's widgets, with a title bar and a close button.

    While an open dialog is modal, everything beneath it is inert: drawn dimmed, never
    hit by clicks, skipped by ``tab``, and left out of the accessibility tree (as
    ``aria-modal`` makes browsers do). ``escape`` or ``back``, its close button
    (``<id>/close``), or any of its buttons with ``dismisses`` close it.

    Args:
        items: Widgets inside, placed in screen pixels within its bounds.
        is_open: Whether it is shown.
        modal: Whether it makes the rest of the screen inert.
    """

    items: list[Widget] = field(default_factory=list)
    is_open: bool = True
    modal: bool = True
    role: ClassVar[str] = "dialog"

    def __post_init__(self) -> None:
        size = TITLE_BAR_HEIGHT - 4
        self.close_button = CloseButton(
            f"{self.element_id}/close",
            Rect(self.bounds.right - size - 2, self.bounds.y + 2, size, size),
            name="Close",
            icon="close",
            dismisses=True,
        )

    def title_bar(self) -> Rect:
        """Where its title is drawn."""
        return Rect(self.bounds.x, self.bounds.y, self.bounds.width, TITLE_BAR_HEIGHT)

    def children(self) -> Sequence[Widget]:
        """The close button, then its items."""
        return [self.close_button, *self.items]

    def state(self) -> dict[str, Any]:
        """``modal``."""
        return {"modal": self.modal}

    def close(self) -> bool:
        """Close it; True if it was open."""
        was_open = self.is_open
        self.is_open = False
        return was_open
