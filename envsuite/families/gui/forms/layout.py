"""Placing a form's widgets: rows that wrap, columns, grids and seeded scatter.

All functions return integer rectangles in screen pixels and never draw anything; the
tasks choose among them per split (a test split holds out some arrangements).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.text_masks import text_width
from envsuite.families.gui.theme import Theme

#: Height of buttons, fields and option rows.
ROW_HEIGHT = 24
#: Space between neighbouring widgets.
GAP = 8
#: Space between the screen edge (or its title bar) and the form.
MARGIN = 10
#: Tries :func:`scatter` makes per widget before giving up.
SCATTER_TRIES = 60


def content_area(width: int, height: int, theme: Theme, title: bool) -> Rect:
    """Where a form may put widgets: the screen less margins and the title bar."""
    top = (theme.screen_title_height if title else 0) + MARGIN
    return Rect(MARGIN, top, width - 2 * MARGIN, height - top - MARGIN)


def label_width(text: str, theme: Theme, bold: bool = False) -> int:
    """Width of ``text`` in the theme's font, plus a pixel either side."""
    return text_width(text, theme.font_size, bold) + 2


def button_width(label: str, theme: Theme) -> int:
    """Width of a button that shows ``label`` with comfortable padding."""
    return text_width(label, theme.font_size) + 24


def flow(widths: Sequence[int], area: Rect, height: int = ROW_HEIGHT, gap: int = GAP) -> list[Rect]:
    """Left to right, wrapping to a new row when the next one would pass ``area``'s edge.

    Rows move closer (down to 2 pixels apart) when they would not fit otherwise.

    Raises:
        ValueError: the widgets do not fit in ``area``.
    """
    for row_gap in _gaps(gap):
        rects: list[Rect] = []
        x, y = area.x, area.y
        for width in widths:
            width = min(width, area.width)
            if x > area.x and x + width > area.right:
                x, y = area.x, y + height + row_gap
            rects.append(Rect(x, y, width, height))
            x += width + gap
        if not rects or rects[-1].bottom <= area.bottom:
            return rects
    raise ValueError("the widgets do not fit the area")


def _gaps(gap: int) -> tuple[int, ...]:
    """The gap, then tighter ones to try when a layout does not fit."""
    return tuple(sorted({gap, min(gap, 4), 2}, reverse=True))


def column(
    widths: Sequence[int], area: Rect, height: int = ROW_HEIGHT, gap: int = GAP
) -> list[Rect]:
    """Stacked top to bottom at ``area``'s left edge (closer together when they must be).

    Raises:
        ValueError: the widgets do not fit in ``area``.
    """
    for row_gap in _gaps(gap):
        rects = [
            Rect(area.x, area.y + index * (height + row_gap), min(width, area.width), height)
            for index, width in enumerate(widths)
        ]
        if not rects or rects[-1].bottom <= area.bottom:
            return rects
    raise ValueError("the widgets do not fit the area")


def grid(
    count: int, columns: int, area: Rect, height: int = ROW_HEIGHT, gap: int = GAP
) -> list[Rect]:
    """``count`` cells of equal width, ``columns`` to a row, filled row by row.

    Raises:
        ValueError: the cells do not fit in ``area``.
    """
    width = (area.width - (columns - 1) * gap) // columns
    rects = [
        Rect(
            area.x + (index % columns) * (width + gap),
            area.y + (index // columns) * (height + gap),
            width,
            height,
        )
        for index in range(count)
    ]
    if rects and rects[-1].bottom > area.bottom:
        raise ValueError("the cells do not fit the area")
    return rects


def scatter(
    widths: Sequence[int], area: Rect, rng: np.random.Generator, height: int = ROW_HEIGHT
) -> list[Rect]:
    """Random places in ``area`` that keep :data:`GAP` pixels apart from one another.

    Each widget gets at most :data:`SCATTER_TRIES` tries; when one finds no place the
    whole arrangement falls back to :func:`flow` (the draws made stay made, so the result
    is still a function of the generator's state).
    """
    rects: list[Rect] = []
    for width in widths:
        width = min(width, area.width)
        for _ in range(SCATTER_TRIES):
            x = area.x + int(rng.integers(0, area.width - width + 1))
            y = area.y + int(rng.integers(0, area.height - height + 1))
            rect = Rect(x, y, width, height)
            grown = Rect(x - GAP, y - GAP, width + 2 * GAP, height + 2 * GAP)
            if all(grown.intersection(other) is None for other in rects):
                rects.append(rect)
                break
        else:
            return flow(widths, area, height)
    return rects


def shifted(rects: Sequence[Rect], area: Rect, rng: np.random.Generator) -> list[Rect]:
    """``rects`` moved together by a random offset that keeps them inside ``area``."""
    if not rects:
        return []
    right = max(rect.right for rect in rects)
    bottom = max(rect.bottom for rect in rects)
    dx = int(rng.integers(0, max(area.right - right, 0) + 1))
    dy = int(rng.integers(0, max(area.bottom - bottom, 0) + 1))
    return [rect.moved(dx, dy) for rect in rects]


def labelled_fields(
    labels: Sequence[str], area: Rect, theme: Theme, style: str, gap: int = GAP
) -> list[tuple[Rect, Rect]]:
    """A label and a field per entry, stacked: ``(label_rect, field_rect)`` pairs.

    ``style`` ``"left"`` puts each label left of its field on one row (labels share the
    widest label's width); ``"above"`` puts it on its own line above the field. Rows move
    closer and labels get shorter when they would not fit otherwise.

    Raises:
        ValueError: the rows do not fit in ``area``.
    """
    for row_gap, label_height in ((gap, 18), (4, 16), (2, 14)):
        rows = _labelled_rows(labels, area, theme, style, row_gap, label_height)
        if not rows or rows[-1][1].bottom <= area.bottom:
            return rows
    raise ValueError("the fields do not fit the area")


def _labelled_rows(
    labels: Sequence[str], area: Rect, theme: Theme, style: str, gap: int, label_height: int
) -> list[tuple[Rect, Rect]]:
    rows: list[tuple[Rect, Rect]] = []
    y = area.y
    if style == "left":
        left = min(max(label_width(label, theme) for label in labels) + gap, area.width // 2)
        for _ in labels:
            rows.append(
                (
                    Rect(area.x, y, left - gap, ROW_HEIGHT),
                    Rect(area.x + left, y, area.width - left, ROW_HEIGHT),
                )
            )
            y += ROW_HEIGHT + gap
    else:
        for _ in labels:
            rows.append(
                (
                    Rect(area.x, y, area.width, label_height),
                    Rect(area.x, y + label_height, area.width, ROW_HEIGHT),
                )
            )
            y += label_height + ROW_HEIGHT + gap
    return rows
