"""A :class:`~envsuite.families.gui.screen.Screen` as the page's JSON model, and back.

:func:`screen_model` gives the page everything it draws and every rule it needs: each
widget's kind, bounds, name, flags and state, nested as the screen nests them (every tab
panel, every dropdown option, so the page can switch and open them), the theme's colours
and the icons as alpha masks. :func:`apply_page_state` writes what the page reports after
an action (values, carets, checks, selections, scroll offsets, open dialogs, focus, new
event-log entries) into the same Python widgets, so the app's logic and the task's
predicates run on the Python objects in both backends.

A widget class the page does not know is drawn as a plain box and takes no input there;
its subclasses of the shipped widgets keep their base class's behaviour.
"""

from __future__ import annotations

import base64
import functools
import io
from typing import Any

from envsuite.families.gui.buttons import Button, Icon, Link
from envsuite.families.gui.dialog import TITLE_BAR_HEIGHT, CloseButton, Dialog
from envsuite.families.gui.dropdown import Dropdown, DropdownOption
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.icon_shapes import draw_icon
from envsuite.families.gui.list_box import ListBox, ListItem
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tab, Tabs
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.theme import Theme
from envsuite.families.gui.toggles import Checkbox, RadioButton, RadioGroup
from envsuite.families.gui.widget import Group, Label, Widget

#: Theme colours the page's style sheet reads (as CSS custom properties).
THEME_COLOURS = (
    "background",
    "surface",
    "text",
    "muted_text",
    "border",
    "accent",
    "accent_text",
    "link",
    "visited_link",
    "focus",
    "selection",
    "title_bar",
    "title_text",
)


def _css(colour: tuple[int, int, int]) -> str:
    return f"rgb({colour[0]}, {colour[1]}, {colour[2]})"


@functools.cache
def icon_mask(shape: str, side: int) -> str:
    """The icon ``shape`` drawn by the simulator at ``side`` pixels, as a PNG data URL.

    White on transparent: the page uses it as a CSS mask over the colour it wants, so
    both backends draw the same shapes.
    """
    from PIL import Image, ImageDraw

    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw_icon(ImageDraw.Draw(image), shape, Rect(0, 0, side, side), (255, 255, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _node(widget: Widget, icons: dict[str, str]) -> dict[str, Any]:
    bounds = widget.bounds
    node: dict[str, Any] = {
        "id": widget.element_id,
        "x": bounds.x,
        "y": bounds.y,
        "w": bounds.width,
        "h": bounds.height,
        "name": widget.name,
        "enabled": widget.enabled,
        "visible": widget.visible,
    }

    def nodes(widgets: list[Widget] | Any) -> list[dict[str, Any]]:
        return [_node(child, icons) for child in widgets]

    def icon(shape: str, side: int) -> None:
        if side > 0:
            icons[f"{shape}/{side}"] = icon_mask(shape, side)

    if isinstance(widget, Label):
        node.update(kind="label", text=widget.text, bold=widget.bold, muted=widget.muted)
    elif isinstance(widget, Button):
        close = isinstance(widget, CloseButton)
        node.update(
            kind="button",
            icon=widget.icon,
            primary=widget.primary,
            dismisses=widget.dismisses,
            activations=widget.activations,
            close=close,
        )
        if close:
            icon("close", max(bounds.width - 8, 1))
        elif widget.icon is not None:
            icon(widget.icon, min(bounds.height - 8, 16))
    elif isinstance(widget, Link):
        node.update(kind="link", visited=widget.visited)
    elif isinstance(widget, Icon):
        node.update(kind="icon", shape=widget.shape)
        icon(widget.shape, min(bounds.width, bounds.height))
    elif isinstance(widget, TextField):
        node.update(
            kind="text",
            value=widget.value,
            caret=widget.caret,
            placeholder=widget.placeholder,
            password=widget.password,
            max_length=widget.max_length,
        )
    elif isinstance(widget, Checkbox):
        node.update(kind="checkbox", checked=widget.checked)
        icon("check", 12)
    elif isinstance(widget, RadioGroup):
        node.update(
            kind="radiogroup",
            options=list(widget.options),
            selected=widget.selected,
            buttons=nodes(widget.buttons),
        )
    elif isinstance(widget, RadioButton):
        node.update(kind="radio", index=widget.index)
    elif isinstance(widget, Dropdown):
        node.update(
            kind="dropdown",
            options=list(widget.options),
            selected=widget.selected,
            expanded=widget.expanded,
            placeholder=widget.placeholder,
            optionNodes=nodes(widget.option_widgets),
        )
    elif isinstance(widget, DropdownOption):
        node.update(kind="option", index=widget.index)
    elif isinstance(widget, ListBox):
        node.update(
            kind="listbox",
            items=list(widget.items),
            selected=widget.selected,
            opened=widget.opened,
            rows=nodes(widget.rows),
        )
    elif isinstance(widget, ListItem):
        node.update(kind="row", index=widget.index)
    elif isinstance(widget, Tabs):
        node.update(
            kind="tabs",
            labels=list(widget.labels),
            active=widget.active,
            tabs=nodes(widget.tabs),
            panels=[nodes(panel) for panel in widget.panels],
        )
    elif isinstance(widget, Tab):
        node.update(kind="tab", index=widget.index)
    elif isinstance(widget, ScrollContainer):
        node.update(
            kind="scroll",
            scroll_x=widget.scroll_x,
            scroll_y=widget.scroll_y,
            content_width=widget.content_width,
            content_height=widget.content_height,
            items=nodes(widget.items),
        )
    elif isinstance(widget, Dialog):
        node.update(
            kind="dialog",
            is_open=widget.is_open,
            modal=widget.modal,
            close=_node(widget.close_button, icons),
            items=nodes(widget.items),
        )
    elif isinstance(widget, Group):
        node.update(kind="group", items=nodes(widget.items))
    else:
        node.update(
            kind="generic", focusable=widget.focusable, items=nodes(list(widget.children()))
        )
    return node


def screen_model(screen: Screen, theme: Theme) -> dict[str, Any]:
    """The page's model of ``screen`` drawn in ``theme`` (JSON-ready)."""
    icons: dict[str, str] = {}
    return {
        "width": screen.width,
        "height": screen.height,
        "title": screen.title,
        "title_height": theme.screen_title_height if screen.title else 0,
        "dialog_bar": TITLE_BAR_HEIGHT,
        "focus": screen.focus_id,
        "log_length": len(screen.event_log),
        "items": [_node(widget, icons) for widget in screen.items],
        "dialogs": [_node(dialog, icons) for dialog in screen.dialogs],
        "theme": {name: _css(getattr(theme, name)) for name in THEME_COLOURS}
        | {"shadow": _css(theme.scrim)}
        | {"scrim": f"rgba({', '.join(map(str, theme.scrim))}, {theme.scrim_alpha / 255:.4f})"},
        "font_size": theme.font_size,
        "title_size": theme.title_size,
        "radius": theme.radius,
        "icons": icons,
    }


#: Attributes the page may change, by widget class (checked in this order).
MUTABLE_FIELDS: tuple[tuple[type[Widget], tuple[str, ...]], ...] = (
    (TextField, ("value", "caret")),
    (Checkbox, ("checked",)),
    (RadioGroup, ("selected",)),
    (Dropdown, ("selected", "expanded")),
    (ListBox, ("selected", "opened")),
    (Tabs, ("active",)),
    (ScrollContainer, ("scroll_x", "scroll_y")),
    (Dialog, ("is_open",)),
    (Button, ("activations",)),
    (Link, ("visited",)),
)


def apply_page_state(screen: Screen, report: dict[str, Any]) -> list[tuple[str, str]]:
    """Write the page's ``report`` (from ``envsuite.take()``) into ``screen``.

    Returns:
        The event-log entries the page added, oldest first (also appended to
        ``screen.event_log``).
    """
    states: dict[str, dict[str, Any]] = report.get("widgets", {})
    for widget in screen.all_widgets():
        state = states.get(widget.element_id)
        if state is None:
            continue
        for cls, fields in MUTABLE_FIELDS:
            if isinstance(widget, cls):
                for name in fields:
                    if name in state:
                        setattr(widget, name, state[name])
                break
    screen.focus_id = report.get("focus")
    events = [(str(kind), str(element_id)) for kind, element_id in report.get("events", [])]
    screen.event_log.extend(events)
    return events
