"""Integer rectangles in screen pixels: where a widget is, what is visible of it."""

from __future__ import annotations

from typing import NamedTuple


class Rect(NamedTuple):
    """An axis-aligned rectangle: left ``x``, top ``y``, ``width`` and ``height`` in pixels.

    A point ``(px, py)`` is inside when ``x <= px < x + width`` and ``y <= py < y + height``,
    so rectangles that touch share no pixel.

    A named tuple: immutable and hashable, and three times cheaper to make than a frozen
    dataclass (every screen built and every step's placement makes rectangles).
    """

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        """First column right of the rectangle."""
        return self.x + self.width

    @property
    def bottom(self) -> int:
        """First row below the rectangle."""
        return self.y + self.height

    @property
    def center(self) -> tuple[int, int]:
        """The pixel at the centre (rounded towards the top-left)."""
        return self.x + self.width // 2, self.y + self.height // 2

    @property
    def empty(self) -> bool:
        """Whether the rectangle holds no pixel."""
        return self.width <= 0 or self.height <= 0

    def contains(self, px: int, py: int) -> bool:
        """Whether the pixel ``(px, py)`` lies inside."""
        return self.x <= px < self.right and self.y <= py < self.bottom

    def moved(self, dx: int, dy: int) -> Rect:
        """The same rectangle shifted by ``(dx, dy)``."""
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def intersection(self, other: Rect) -> Rect | None:
        """The pixels both rectangles hold, or None when they share none."""
        left, top = max(self.x, other.x), max(self.y, other.y)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= left or bottom <= top:
            return None
        return Rect(left, top, right - left, bottom - top)

    def as_list(self) -> list[int]:
        """``[x, y, width, height]``, the JSON form."""
        return [self.x, self.y, self.width, self.height]

    def box(self) -> tuple[int, int, int, int]:
        """``(left, top, right - 1, bottom - 1)``: the inclusive box Pillow's shapes take."""
        return self.x, self.y, self.right - 1, self.bottom - 1
