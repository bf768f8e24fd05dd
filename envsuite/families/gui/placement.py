"""Where every shown widget is on the screen: scrolled, clipped, layered, inert or not.

One walk over the screen gives the renderer's drawing order, the hit test and the
accessibility tree, so the three can never disagree about what is where.

Layers, bottom to top: the screen's widgets, open dialogs in order, then open dropdown
lists (which, as in browsers, escape their container's clipping). While a modal dialog is
open, every layer below it is inert.

The placement is computed once per layout and kept on the screen's
:class:`~envsuite.families.gui.screen.ScreenTree` (with the hit-test results of the
points asked for), until a widget's layout-relevant attribute is set, the screen's lists
or a container's child lists change (see :func:`~envsuite.families.gui.widget.layout_generation`);
:func:`place_now` computes it afresh.
"""

from __future__ import annotations

from typing import NamedTuple

from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen, ScreenTree
from envsuite.families.gui.widget import Widget


class Placed(NamedTuple):
    """One shown widget and where it is.

    Attributes:
        widget: The widget.
        rect: Its bounds after scrolling, in screen pixels.
        visible: The part of ``rect`` not clipped away (by the screen edge or scrolling
            containers), or None when all of it is.
        parent_id: Element id of the widget it sits in, or None at the top.
        depth: Nesting depth (0 at the top).
        inert: Below an open modal dialog: drawn, never hit, not in the tree.

    A named tuple (immutable, and several times cheaper to make than a frozen dataclass:
    every step places every widget).
    """

    widget: Widget
    rect: Rect
    visible: Rect | None
    parent_id: str | None
    depth: int
    inert: bool


#: Most hit-test results a screen's placement remembers (then it starts again).
MAX_REMEMBERED_HITS = 4096
#: ``Placed(...)`` without the named tuple's Python-level ``__new__`` (one frame per widget).
_new = tuple.__new__


def place(screen: Screen) -> list[Placed]:
    """Every shown widget of ``screen`` in drawing order (later ones are on top).

    Computed once per layout (see :class:`~.screen.ScreenTree` for what invalidates it)
    and shared: callers must not mutate the list.
    """
    return placed_in(screen.tree(), screen)


def placed_in(tree: ScreenTree, screen: Screen) -> list[Placed]:
    """:func:`place` from ``screen``'s tree, known to be valid now.

    One validation per action: dispatch asks for the tree once and reads the placement,
    the hits and the open lists from it.
    """
    placed = tree.placed
    if placed is None:
        placed = tree.placed = place_now(screen)
    return placed


def place_now(screen: Screen) -> list[Placed]:
    """:func:`place` computed afresh (what the cache is checked against)."""
    placed: list[Placed] = []
    popups: list[tuple[Widget, tuple[int, int], str, int, bool]] = []
    whole = Rect(0, 0, screen.width, screen.height)
    dialogs = screen.open_dialogs()
    last_modal = max((i for i, d in enumerate(dialogs) if d.modal), default=-1)

    def walk(
        widget: Widget,
        offset: tuple[int, int],
        clip: Rect | None,
        parent: str | None,
        depth: int,
        inert: bool,
    ) -> None:
        if not widget.visible:
            return
        rect = widget.bounds if offset == (0, 0) else widget.bounds.moved(*offset)
        if clip is None:
            visible = None
        else:
            x, y, width, height = rect
            left, top, clip_width, clip_height = clip
            if (
                left <= x
                and top <= y
                and x + width <= left + clip_width
                and y + height <= top + clip_height
            ):
                visible = rect  # wholly inside its clip: the common case, no new rectangle
            else:
                visible = rect.intersection(clip)
        placed.append(_new(Placed, (widget, rect, visible, parent, depth, inert)))
        nests, pops = _nesting(type(widget))
        if pops and widget.popup_children():
            popups.append((widget, offset, widget.element_id, depth + 1, inert))
        if not nests:
            return
        children = widget.children()
        if not children:
            return
        shift = widget.child_offset()
        inner_offset = (offset[0] + shift[0], offset[1] + shift[1])
        inner_clip = visible if widget.clips_children() else clip
        for child in children:
            walk(child, inner_offset, inner_clip, widget.element_id, depth + 1, inert)

    for widget in screen.items:
        walk(widget, (0, 0), whole, None, 0, last_modal >= 0)
    for index, dialog in enumerate(dialogs):
        walk(dialog, (0, 0), whole, None, 0, index < last_modal)
    for owner, offset, parent, depth, inert in popups:
        for option in owner.popup_children():
            walk(option, offset, whole, parent, depth, inert)
    return placed


_NESTING: dict[type, tuple[bool, bool]] = {}


def _nesting(cls: type) -> tuple[bool, bool]:
    """Whether widgets of class ``cls`` can hold children and pop-up children.

    Leaves (the base class's methods, which return none) are placed without a call.
    """
    nesting = _NESTING.get(cls)
    if nesting is None:
        nesting = _NESTING[cls] = (
            getattr(cls, "children", None) is not Widget.children,
            getattr(cls, "popup_children", None) is not Widget.popup_children,
        )
    return nesting


def hit(placed: list[Placed], px: int, py: int) -> Placed | None:
    """The topmost live widget whose visible part holds pixel ``(px, py)``, or None."""
    for item in reversed(placed):
        box = item.visible
        if (
            box is not None
            and not item.inert
            and box.x <= px < box.x + box.width
            and box.y <= py < box.y + box.height
        ):
            return item
    return None


def hit_on(screen: Screen, px: int, py: int) -> Placed | None:
    """:func:`hit` on the screen's placement, remembered per point while it is valid."""
    return hit_in(screen.tree(), screen, px, py)


def hit_in(tree: ScreenTree, screen: Screen, px: int, py: int) -> Placed | None:
    """:func:`hit_on` with ``screen``'s tree, known to be valid now (see :func:`placed_in`)."""
    hits = tree.hits
    point = (px, py)
    if point in hits:
        return hits[point]
    placed = tree.placed
    if placed is None:
        placed = tree.placed = place_now(screen)
    if len(hits) >= MAX_REMEMBERED_HITS:
        hits.clear()
    top = hits[point] = hit(placed, px, py)
    return top


def live_by_id(screen: Screen) -> dict[str, Placed]:
    """The placed widgets not behind a modal dialog, by element id (the first of each)."""
    tree = screen.tree()
    live = tree.live
    if live is None:
        live = {}
        for item in reversed(place(screen)):
            if not item.inert:
                live[item.widget.element_id] = item
        tree.live = live
    return live


def focus_order(placed: list[Placed]) -> list[Placed]:
    """The widgets ``tab`` visits, in order: focusable, enabled, live and not clipped away.

    While a dropdown list is open, its options are not tab stops (arrow keys move in it).
    """
    return [
        item
        for item in placed
        if item.widget.focusable
        and item.widget.enabled
        and not item.inert
        and item.visible is not None
    ]
