"""A tab strip whose selected tab decides which panel of widgets is shown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.widget import Widget, fast_init


@fast_init
@dataclass(eq=False)
class Tab(Widget):
    """One tab of a :class:`Tabs` strip (made by the strip)."""

    strip: Tabs | None = None
    index: int = 0
    role: ClassVar[str] = "tab"

    def state(self) -> dict[str, Any]:
        """``selected``."""
        return {"selected": self.strip is not None and self.strip.active == self.index}

    def on_click(self, px: int, py: int) -> bool:
        """Switch to it."""
        return self.strip.switch(self.index) if self.strip is not None else False


@fast_init
@dataclass(eq=False)
class Tabs(Widget):
    """Tabs of equal width across ``bounds`` (the strip), and one panel per tab.

    Only the active tab's panel is shown (drawn, hit, in the accessibility tree); the
    others keep their state. ``left`` / ``right`` switch tabs while the strip has focus.

    Args:
        labels: Tab labels.
        panels: One list of widgets per tab, placed anywhere on the screen (usually below
            the strip).
        active: Index of the shown tab.
    """

    labels: list[str] = field(default_factory=list)
    panels: list[list[Widget]] = field(default_factory=list)
    active: int = 0
    role: ClassVar[str] = "tablist"
    focusable: ClassVar[bool] = True

    def __post_init__(self) -> None:
        count = max(len(self.labels), 1)
        width = self.bounds.width // count
        self.tabs = [
            Tab(
                f"{self.element_id}/{index}",
                Rect(self.bounds.x + index * width, self.bounds.y, width, self.bounds.height),
                name=label,
                strip=self,
                index=index,
            )
            for index, label in enumerate(self.labels)
        ]
        while len(self.panels) < len(self.labels):
            self.panels.append([])

    def children(self) -> Sequence[Widget]:
        """The tabs, then the active panel's widgets."""
        panel = self.panels[self.active] if self.panels else []
        return [*self.tabs, *panel]

    def all_panel_widgets(self) -> list[Widget]:
        """Every panel's widgets, shown or not (for finding an element by id)."""
        return [widget for panel in self.panels for widget in panel]

    def state(self) -> dict[str, Any]:
        """``value``: the active tab's label."""
        return {"value": self.labels[self.active] if self.labels else ""}

    def switch(self, index: int) -> bool:
        """Show tab ``index``; True if it was not shown."""
        if not self.enabled or index == self.active:
            return False
        self.active = index
        return True

    def on_key(self, key: str) -> bool:
        """``left`` / ``right`` switch to the neighbouring tab (wrapping)."""
        if key not in ("left", "right") or not self.labels:
            return False
        step = 1 if key == "right" else -1
        return self.switch((self.active + step) % len(self.labels))
