"""A scrolling container: a viewport onto content taller (or wider) than itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from envsuite.families.gui.widget import Widget, fast_init


@fast_init
@dataclass(eq=False)
class ScrollContainer(Widget):
    """Shows its items shifted by the scroll offset and cut to its bounds.

    Items are placed in screen pixels as they would be with the offset at 0; the content
    extends from the container's top-left to the farthest item edge (or to
    ``content_width`` / ``content_height`` when given). Offsets stay within
    ``[0, content - viewport]``.

    Args:
        items: The widgets inside.
        scroll_x: Horizontal offset in pixels.
        scroll_y: Vertical offset in pixels.
        content_width: Width of the content, or 0 to measure it from the items.
        content_height: Height of the content, or 0 to measure it from the items.
    """

    items: list[Widget] = field(default_factory=list)
    scroll_x: int = 0
    scroll_y: int = 0
    content_width: int = 0
    content_height: int = 0
    role: ClassVar[str] = "scrollpane"

    def __post_init__(self) -> None:
        self.scroll_by(0, 0)

    def content_size(self) -> tuple[int, int]:
        """``(width, height)`` of the scrolled content."""
        right = max((item.bounds.right for item in self.items), default=self.bounds.x)
        bottom = max((item.bounds.bottom for item in self.items), default=self.bounds.y)
        width = self.content_width or right - self.bounds.x
        height = self.content_height or bottom - self.bounds.y
        return max(width, self.bounds.width), max(height, self.bounds.height)

    def max_scroll(self) -> tuple[int, int]:
        """Largest offsets."""
        width, height = self.content_size()
        return width - self.bounds.width, height - self.bounds.height

    def scroll_by(self, dx: int, dy: int) -> bool:
        """Move the offsets by ``(dx, dy)`` pixels, clamped; True if they moved."""
        max_x, max_y = self.max_scroll()
        new = (min(max(self.scroll_x + dx, 0), max_x), min(max(self.scroll_y + dy, 0), max_y))
        moved = new != (self.scroll_x, self.scroll_y)
        self.scroll_x, self.scroll_y = new
        return moved

    def children(self) -> Sequence[Widget]:
        """Its items."""
        return self.items

    def child_offset(self) -> tuple[int, int]:
        """Minus the scroll offsets."""
        return -self.scroll_x, -self.scroll_y

    def clips_children(self) -> bool:
        """Yes: items are cut to the viewport."""
        return True

    def state(self) -> dict[str, Any]:
        """``scroll``: the offsets, and ``scroll_max``: their limits."""
        return {"scroll": [self.scroll_x, self.scroll_y], "scroll_max": list(self.max_scroll())}

    def on_key(self, key: str) -> bool:
        """Page keys scroll by most of a viewport (only when something inside has focus)."""
        page = max(self.bounds.height - 20, 10)
        if key == "pagedown":
            return self.scroll_by(0, page)
        if key == "pageup":
            return self.scroll_by(0, -page)
        return False
