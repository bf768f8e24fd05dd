"""Icons drawn from Pillow primitives (lines, polygons, ellipses): no image files.

Each icon is a function of the box it fills and one colour, so any size works and the
same box gives the same pixels. The generators of the next stage hold some icons out of
training splits by name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from envsuite.families.gui.geometry import Rect

Colour = tuple[int, int, int]
Painter = Callable[[Any, Rect, Colour], None]


def _square(rect: Rect) -> tuple[float, float, float]:
    """Centre and half-side of the largest square inside ``rect``, inset a little."""
    half = min(rect.width, rect.height) / 2 - 1
    return rect.x + rect.width / 2, rect.y + rect.height / 2, max(half * 0.85, 1.0)


def _line_width(half: float) -> int:
    return max(1, round(half / 4))


def _star(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=colour)


def _heart(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    lobe = r * 0.55
    draw.ellipse((cx - r, cy - r * 0.8, cx - r + 2 * lobe, cy - r * 0.8 + 2 * lobe), fill=colour)
    draw.ellipse((cx + r - 2 * lobe, cy - r * 0.8, cx + r, cy - r * 0.8 + 2 * lobe), fill=colour)
    draw.polygon([(cx - r, cy - r * 0.2), (cx + r, cy - r * 0.2), (cx, cy + r)], fill=colour)


def _search(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r)
    lens = r * 0.6
    ox, oy = cx - r * 0.25, cy - r * 0.25
    draw.ellipse((ox - lens, oy - lens, ox + lens, oy + lens), outline=colour, width=w)
    draw.line((ox + lens * 0.7, oy + lens * 0.7, cx + r, cy + r), fill=colour, width=w + 1)


def _close(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    r *= 0.7
    w = _line_width(r) + 1
    draw.line((cx - r, cy - r, cx + r, cy + r), fill=colour, width=w)
    draw.line((cx - r, cy + r, cx + r, cy - r), fill=colour, width=w)


def _check(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r) + 1
    draw.line(
        [(cx - r * 0.8, cy), (cx - r * 0.2, cy + r * 0.6), (cx + r * 0.8, cy - r * 0.6)],
        fill=colour,
        width=w,
        joint="curve",
    )


def _plus(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r) + 1
    draw.line((cx - r, cy, cx + r, cy), fill=colour, width=w)
    draw.line((cx, cy - r, cx, cy + r), fill=colour, width=w)


def _home(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    draw.polygon([(cx - r, cy), (cx, cy - r), (cx + r, cy)], fill=colour)
    draw.rectangle((cx - r * 0.65, cy, cx + r * 0.65, cy + r), fill=colour)


def _back(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r) + 1
    draw.line((cx - r, cy, cx + r, cy), fill=colour, width=w)
    draw.line([(cx, cy - r * 0.8), (cx - r, cy), (cx, cy + r * 0.8)], fill=colour, width=w)


def _menu(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r) + 1
    for dy in (-0.7, 0.0, 0.7):
        draw.line((cx - r, cy + dy * r, cx + r, cy + dy * r), fill=colour, width=w)


def _settings(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    for k in range(8):
        angle = k * math.pi / 4
        x, y = cx + r * 0.8 * math.cos(angle), cy + r * 0.8 * math.sin(angle)
        tooth = r * 0.22
        draw.rectangle((x - tooth, y - tooth, x + tooth, y + tooth), fill=colour)
    # A thick ring, so the gear keeps its hole at small sizes.
    ring = max(2, round(r * 0.4))
    hub = (cx - r * 0.75, cy - r * 0.75, cx + r * 0.75, cy + r * 0.75)
    draw.ellipse(hub, outline=colour, width=ring)


def _user(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    head = r * 0.45
    draw.ellipse((cx - head, cy - r, cx + head, cy - r + 2 * head), fill=colour)
    draw.pieslice((cx - r, cy, cx + r, cy + 2 * r), 180, 360, fill=colour)


def _mail(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r)
    box = (cx - r, cy - r * 0.7, cx + r, cy + r * 0.7)
    draw.rectangle(box, outline=colour, width=w)
    draw.line([(box[0], box[1]), (cx, cy + r * 0.1), (box[2], box[1])], fill=colour, width=w)


def _trash(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    draw.rectangle((cx - r, cy - r * 0.8, cx + r, cy - r * 0.55), fill=colour)
    draw.rectangle((cx - r * 0.3, cy - r, cx + r * 0.3, cy - r * 0.8), fill=colour)
    draw.polygon(
        [
            (cx - r * 0.8, cy - r * 0.4),
            (cx + r * 0.8, cy - r * 0.4),
            (cx + r * 0.6, cy + r),
            (cx - r * 0.6, cy + r),
        ],
        fill=colour,
    )


def _bell(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    draw.pieslice((cx - r * 0.75, cy - r, cx + r * 0.75, cy + r * 0.5), 180, 360, fill=colour)
    draw.rectangle((cx - r * 0.75, cy - r * 0.25, cx + r * 0.75, cy + r * 0.5), fill=colour)
    draw.rectangle((cx - r, cy + r * 0.5, cx + r, cy + r * 0.65), fill=colour)
    draw.ellipse((cx - r * 0.25, cy + r * 0.6, cx + r * 0.25, cy + r), fill=colour)


def _lock(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r) + 1
    draw.arc((cx - r * 0.55, cy - r, cx + r * 0.55, cy + r * 0.1), 180, 360, fill=colour, width=w)
    draw.line(
        (cx - r * 0.55 + w / 2, cy - r * 0.45, cx - r * 0.55 + w / 2, cy), fill=colour, width=w
    )
    draw.line(
        (cx + r * 0.55 - w / 2, cy - r * 0.45, cx + r * 0.55 - w / 2, cy), fill=colour, width=w
    )
    draw.rectangle((cx - r * 0.8, cy - r * 0.05, cx + r * 0.8, cy + r), fill=colour)


def _calendar(draw: Any, rect: Rect, colour: Colour) -> None:
    cx, cy, r = _square(rect)
    w = _line_width(r)
    draw.rectangle((cx - r, cy - r * 0.75, cx + r, cy + r), outline=colour, width=w)
    draw.rectangle((cx - r, cy - r * 0.75, cx + r, cy - r * 0.35), fill=colour)
    for dx in (-0.5, 0.5):
        draw.line((cx + dx * r, cy - r, cx + dx * r, cy - r * 0.6), fill=colour, width=w + 1)


#: Every icon by name.
ICONS: dict[str, Painter] = {
    "star": _star,
    "heart": _heart,
    "search": _search,
    "close": _close,
    "check": _check,
    "plus": _plus,
    "home": _home,
    "back": _back,
    "menu": _menu,
    "settings": _settings,
    "user": _user,
    "mail": _mail,
    "trash": _trash,
    "bell": _bell,
    "lock": _lock,
    "calendar": _calendar,
}
ICON_NAMES: tuple[str, ...] = tuple(ICONS)


def draw_icon(draw: Any, name: str, rect: Rect, colour: Colour) -> None:
    """Draw icon ``name`` filling ``rect`` in ``colour`` with the ``ImageDraw`` ``draw``.

    Raises:
        KeyError: no icon has that name.
    """
    ICONS[name](draw, rect, colour)
