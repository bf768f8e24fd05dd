"""Event dispatch: applying a :class:`~envsuite.families.gui.actions.GuiAction` to a screen.

Deterministic and total: every action either changes widget state in a documented way,
is a no-op (``DispatchResult.changed`` is False, ``note`` says why), or raises
:class:`~envsuite.families.gui.actions.GuiActionError` when it cannot apply at all (a
point off the screen, an element that is not there or cannot be reached).

- ``click``: while a dropdown list is open, a click outside it only closes it (as a
  native ``<select>`` does); otherwise the topmost live widget under the point gets the
  click and keyboard focus goes to it, or to the nearest focusable widget around it (a
  radio button focuses its group); a click on nothing focusable clears focus. Disabled
  widgets take focus and clicks without reacting. ``click(element_id)`` clicks the centre
  of the element's visible part.
- ``double_click``: two clicks; on a list row it also opens the row.
- ``type``: into the focused widget (text fields take it), else a no-op.
- ``key``: ``tab`` / ``shift+tab`` move focus through :func:`~.placement.focus_order`;
  ``escape`` closes an open dropdown list, else the top dialog; other keys go to the
  focused widget (``pageup`` / ``pagedown`` to its scrolling container); ``enter`` in a
  text field logs a ``"submit"``.
- ``scroll``: the innermost scrolling container under the point, or around the focused
  widget, or the first one on the screen.
- ``drag``: from inside a scrolling container, moves its content with the pointer
  (touch-style: dragging up scrolls down); elsewhere a no-op.
- ``back`` closes an open dropdown list or the top dialog, else asks the app to navigate
  back; ``home`` and ``done`` are for the app (``navigation`` in the result).

Buttons and links log ``("activate", id)`` in ``screen.event_log``; a closed dialog logs
``("close", id)``; focus left on a widget that is no longer shown is cleared.
"""

from __future__ import annotations

from typing import NamedTuple

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown, DropdownOption
from envsuite.families.gui.list_box import ListItem
from envsuite.families.gui.placement import (
    Placed,
    focus_order,
    hit,
    hit_in,
    live_by_id,
    place,
    placed_in,
)
from envsuite.families.gui.screen import Screen, ScreenTree
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.text_field import TextField


class DispatchResult(NamedTuple):
    """What an action did (a named tuple: immutable, and cheap to make every step).

    Attributes:
        changed: Whether any widget state, focus or dialog changed.
        target: Element id the action went to, or None.
        navigation: ``"back"``, ``"home"`` or ``"done"`` when the app must act, else None.
        note: Why nothing changed, or "".
    """

    changed: bool
    target: str | None = None
    navigation: str | None = None
    note: str = ""


#: ``DispatchResult(...)`` without the named tuple's Python-level ``__new__`` (hot paths).
_new = tuple.__new__


def dispatch(screen: Screen, action: GuiAction) -> DispatchResult:
    """Apply ``action`` to ``screen`` (mutating it) and say what happened.

    Raises:
        GuiActionError: a point outside the screen, or an element id that is not shown,
            is behind a modal dialog, or is scrolled out of view.
    """
    tree = screen.tree()
    placed = placed_in(tree, screen)
    kind = action.kind
    if kind in ("click", "double_click"):
        x, y = click_point(screen, placed, action)
        result = _click(screen, tree, placed, x, y)
        if kind == "double_click":
            tree = screen.tree()
            second = _click(screen, tree, placed_in(tree, screen), x, y)
            result = _merge(result, second)
            widget = screen.find(result.target) if result.target else None
            if isinstance(widget, ListItem) and widget.list_box is not None:
                widget.list_box.opened = widget.index
                result = _merge(result, DispatchResult(True, result.target))
    elif kind == "type":
        result = _type(screen, placed, action.text or "")
    elif kind == "key":
        result = _key(screen, placed, action.key or "")
    elif kind == "scroll":
        if action.x is not None and action.y is not None:
            check_point(screen, action.x, action.y)
        result = _scroll(screen, placed, action)
    elif kind == "drag":
        check_point(screen, action.x or 0, action.y or 0)
        check_point(screen, action.dx, action.dy)
        result = _drag(screen, placed, action)
    elif kind == "back":
        result = _close_popup(screen) or DispatchResult(False, navigation="back")
    else:
        result = DispatchResult(False, navigation=kind)
    if result.changed:
        _drop_lost_focus(screen)
    return result


def _merge(first: DispatchResult, second: DispatchResult) -> DispatchResult:
    return DispatchResult(
        first.changed or second.changed, second.target or first.target, None, second.note
    )


def check_point(screen: Screen, x: int, y: int) -> None:
    """Raise :class:`GuiActionError` unless ``(x, y)`` lies on ``screen``."""
    if not (0 <= x < screen.width and 0 <= y < screen.height):
        raise GuiActionError(
            f"point ({x}, {y}) is outside the {screen.width}x{screen.height} screen"
        )


def click_point(screen: Screen, placed: list[Placed], action: GuiAction) -> tuple[int, int]:
    """Where a click or double click lands; every backend uses this rule and its errors."""
    if action.element_id is None:
        x, y = action.x if action.x is not None else -1, action.y if action.y is not None else -1
        if not (0 <= x < screen.width and 0 <= y < screen.height):
            check_point(screen, x, y)  # raises, with the message every backend gives
        return x, y
    item = next((p for p in placed if p.widget.element_id == action.element_id), None)
    if item is None:
        raise GuiActionError(f"no element {action.element_id!r} is shown on this screen"[:200])
    if item.inert:
        raise GuiActionError(f"element {action.element_id!r} is behind a modal dialog"[:200])
    if item.visible is None:
        raise GuiActionError(
            f"element {action.element_id!r} is scrolled out of view; scroll first"[:200]
        )
    return item.visible.center


def _ancestors(placed: list[Placed], item: Placed) -> list[Placed]:
    """``item`` and the placed widgets around it, innermost first."""
    chain = [item]
    if item.parent_id is None:  # a top-level widget (the common case): nothing to index
        return chain
    by_id = {p.widget.element_id: p for p in placed}
    while chain[-1].parent_id is not None and chain[-1].parent_id in by_id:
        chain.append(by_id[chain[-1].parent_id])
    return chain


def _live(screen: Screen, element_id: str | None) -> Placed | None:
    """The placed widget ``element_id`` if it is shown and not inert (now)."""
    if element_id is None:
        return None
    return live_by_id(screen).get(element_id)


def _set_focus(screen: Screen, element_id: str | None) -> bool:
    changed = screen.focus_id != element_id
    screen.focus_id = element_id
    return changed


def _click(
    screen: Screen, tree: ScreenTree, placed: list[Placed], x: int, y: int
) -> DispatchResult:
    """Click at ``(x, y)``; ``tree`` is the screen's valid tree, ``placed`` its placement."""
    top = hit_in(tree, screen, x, y)
    open_lists = [w for w in tree.dropdowns if w.expanded] if tree.dropdowns else None
    if open_lists and (top is None or not isinstance(top.widget, DropdownOption | Dropdown)):
        for dropdown in open_lists:
            dropdown.expanded = False
        return DispatchResult(True, None, note="the click closed the open list")
    if top is None:  # the common case of a random click: no frame more than needed
        changed = screen.focus_id is not None
        screen.focus_id = None
        return _new(DispatchResult, (changed, None, None, "nothing is there"))
    chain = _ancestors(placed, top)
    focus = next((p.widget for p in chain if p.widget.focusable), None)
    changed = _set_focus(screen, focus.element_id if focus is not None else None)
    widget = top.widget
    if not all(p.widget.enabled for p in chain):
        return DispatchResult(changed, widget.element_id, note=f"{widget.element_id!r} is disabled")
    if widget.on_click(x, y):
        changed = True
        _after_activation(screen, placed, top)
    return _new(DispatchResult, (changed, widget.element_id, None, ""))


def _after_activation(screen: Screen, placed: list[Placed], item: Placed) -> None:
    """Log a button's or link's activation; a dismissing button closes its dialog."""
    widget = item.widget
    if not isinstance(widget, Button | Link):
        return
    screen.event_log.append(("activate", widget.element_id))
    if isinstance(widget, Button) and widget.dismisses:
        dialog = next(
            (p.widget for p in _ancestors(placed, item) if isinstance(p.widget, Dialog)), None
        )
        if isinstance(dialog, Dialog) and dialog.close():
            screen.event_log.append(("close", dialog.element_id))


def _type(screen: Screen, placed: list[Placed], text: str) -> DispatchResult:
    item = _live(screen, screen.focus_id)
    if item is None:
        return DispatchResult(False, None, note="no widget has focus")
    widget = item.widget
    if not isinstance(widget, TextField):
        return DispatchResult(False, widget.element_id, note=f"{widget.element_id!r} takes no text")
    if not widget.enabled:
        return DispatchResult(False, widget.element_id, note=f"{widget.element_id!r} is disabled")
    return DispatchResult(widget.on_text(text), widget.element_id)


def _close_popup(screen: Screen) -> DispatchResult | None:
    """Close an open dropdown list, else the top dialog; None when neither is open."""
    open_lists = screen.expanded_dropdowns()
    if open_lists:
        for dropdown in open_lists:
            dropdown.expanded = False
        return DispatchResult(True, open_lists[-1].element_id)
    dialogs = screen.open_dialogs()
    if dialogs:
        dialogs[-1].close()
        screen.event_log.append(("close", dialogs[-1].element_id))
        return DispatchResult(True, dialogs[-1].element_id)
    return None


def _key(screen: Screen, placed: list[Placed], key: str) -> DispatchResult:
    if key in ("tab", "shift+tab"):
        for dropdown in screen.expanded_dropdowns():
            dropdown.expanded = False
        order = focus_order(place(screen))
        if not order:
            return DispatchResult(False, None, note="nothing can take focus")
        ids = [p.widget.element_id for p in order]
        step = -1 if key == "shift+tab" else 1
        if screen.focus_id in ids:
            index = (ids.index(screen.focus_id) + step) % len(ids)
        else:
            index = 0 if step == 1 else len(ids) - 1
        return DispatchResult(_set_focus(screen, ids[index]), ids[index])
    if key == "escape":
        focused = _live(screen, screen.focus_id)
        if (
            focused is None
            or not isinstance(focused.widget, Dropdown)
            or not focused.widget.expanded
        ):
            closed = _close_popup(screen)
            if closed is not None:
                return closed
    item = _live(screen, screen.focus_id)
    if item is None:
        return DispatchResult(False, None, note="no widget has focus")
    widget = item.widget
    if not widget.enabled:
        return DispatchResult(False, widget.element_id, note=f"{widget.element_id!r} is disabled")
    if key in ("pageup", "pagedown") and not isinstance(widget, ScrollContainer):
        container = next(
            (p for p in _ancestors(placed, item) if isinstance(p.widget, ScrollContainer)), None
        )
        if container is None:
            return DispatchResult(False, widget.element_id, note="nothing to page through")
        return DispatchResult(container.widget.on_key(key), container.widget.element_id)
    if isinstance(widget, TextField) and key == "enter":
        screen.event_log.append(("submit", widget.element_id))
        return DispatchResult(True, widget.element_id)
    changed = widget.on_key(key)
    if changed:
        _after_activation(screen, placed, item)
    return DispatchResult(changed, widget.element_id)


def _container_at(placed: list[Placed], x: int, y: int) -> Placed | None:
    top = hit(placed, x, y)
    if top is None:
        return None
    return next((p for p in _ancestors(placed, top) if isinstance(p.widget, ScrollContainer)), None)


def _scroll(screen: Screen, placed: list[Placed], action: GuiAction) -> DispatchResult:
    if action.x is not None and action.y is not None:
        container = _container_at(placed, action.x, action.y)
    else:
        focused = _live(screen, screen.focus_id)
        around = [] if focused is None else _ancestors(placed, focused)
        container = next((p for p in around if isinstance(p.widget, ScrollContainer)), None)
        if container is None:
            container = next(
                (
                    p
                    for p in placed
                    if isinstance(p.widget, ScrollContainer)
                    and not p.inert
                    and p.visible is not None
                ),
                None,
            )
    if container is None:
        return DispatchResult(False, None, note="nothing there scrolls")
    widget = container.widget
    assert isinstance(widget, ScrollContainer)
    moved = widget.scroll_by(action.dx, action.dy)
    return DispatchResult(moved, widget.element_id, note="" if moved else "already at the end")


def _drag(screen: Screen, placed: list[Placed], action: GuiAction) -> DispatchResult:
    container = _container_at(placed, action.x or 0, action.y or 0)
    if container is None:
        return DispatchResult(False, None, note="nothing there can be dragged")
    widget = container.widget
    assert isinstance(widget, ScrollContainer)
    moved = widget.scroll_by((action.x or 0) - action.dx, (action.y or 0) - action.dy)
    return DispatchResult(moved, widget.element_id, note="" if moved else "already at the end")


def _drop_lost_focus(screen: Screen) -> None:
    """Clear focus left on a widget that is no longer shown or is behind a modal dialog."""
    if screen.focus_id is not None and _live(screen, screen.focus_id) is None:
        screen.focus_id = None
