"""How each kind of widget is drawn: one painter per widget class.

A painter gets the ``ImageDraw`` of the frame, the image (for pasting text), the rectangle
the widget fills (already scrolled), the widget, the theme and whether it has focus.
Text comes from the cache in :mod:`~envsuite.families.gui.text_masks`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envsuite.families.gui.buttons import Button, Icon, Link
from envsuite.families.gui.dialog import CloseButton, Dialog
from envsuite.families.gui.dropdown import Dropdown, DropdownOption
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.icon_shapes import draw_icon
from envsuite.families.gui.list_box import ListBox, ListItem
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tab, Tabs
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.text_masks import fit_text, text_mask, text_width
from envsuite.families.gui.theme import Colour, Theme
from envsuite.families.gui.toggles import Checkbox, RadioButton
from envsuite.families.gui.widget import Label, Widget

Painter = Callable[[Any, Any, Rect, Any, Theme, bool], None]
#: Side of a checkbox's box and a radio button's circle.
MARK_SIZE = 14
#: Inner padding of text in fields and buttons.
PAD = 6
#: Width of a scroll bar.
SCROLLBAR_WIDTH = 6


def draw_text(
    image: Any,
    x: int,
    rect: Rect,
    text: str,
    colour: Colour,
    theme: Theme,
    bold: bool = False,
    size: int | None = None,
) -> int:
    """Draw ``text`` from ``x``, centred vertically in ``rect``; return its width.

    Text that would pass ``rect``'s right edge is cut with an ellipsis.
    """
    size = size or theme.font_size
    text = fit_text(text, rect.right - x - 2, size, bold)
    if not text:
        return 0
    mask = text_mask(text, size, bold)
    y = rect.y + (rect.height - mask.height) // 2
    image.paste(colour, (x, y, x + mask.width, y + mask.height), mask)
    return text_width(text, size, bold)


def _text_colour(widget: Widget, theme: Theme) -> Colour:
    return theme.text if widget.enabled else theme.muted_text


def focus_ring(draw: Any, rect: Rect, theme: Theme) -> None:
    """The keyboard focus outline around ``rect``."""
    draw.rounded_rectangle(
        (rect.x - 1, rect.y - 1, rect.right, rect.bottom),
        theme.radius + 1,
        outline=theme.focus,
        width=2,
    )


def _label(draw: Any, image: Any, rect: Rect, w: Label, theme: Theme, focused: bool) -> None:
    colour = theme.muted_text if w.muted or not w.enabled else theme.text
    draw_text(image, rect.x, rect, w.text, colour, theme, bold=w.bold)


def _button(draw: Any, image: Any, rect: Rect, w: Button, theme: Theme, focused: bool) -> None:
    fill = theme.accent if w.primary and w.enabled else theme.surface
    ink = theme.accent_text if w.primary and w.enabled else _text_colour(w, theme)
    outline = theme.accent if w.primary else theme.border
    draw.rounded_rectangle(rect.box(), theme.radius, fill=fill, outline=outline)
    label = w.name if w.icon is None or rect.width > rect.height + 8 else ""
    icon_side = min(rect.height - 8, 16) if w.icon else 0
    width = icon_side + (4 if icon_side and label else 0)
    width += text_width(label, theme.font_size) if label else 0
    x = rect.x + max((rect.width - width) // 2, PAD if label else 0)
    if w.icon:
        icon_rect = Rect(
            x if label else rect.center[0] - icon_side // 2,
            rect.center[1] - icon_side // 2,
            icon_side,
            icon_side,
        )
        draw_icon(draw, w.icon, icon_rect, ink)
        x = icon_rect.right + 4
    if label:
        draw_text(image, x, rect, label, ink, theme)
    if focused:
        focus_ring(draw, rect, theme)


def _link(draw: Any, image: Any, rect: Rect, w: Link, theme: Theme, focused: bool) -> None:
    colour = theme.visited_link if w.visited else theme.link
    colour = colour if w.enabled else theme.muted_text
    width = draw_text(image, rect.x, rect, w.name, colour, theme)
    base = rect.center[1] + theme.font_size // 2 + 1
    draw.line((rect.x, base, rect.x + width, base), fill=colour)
    if focused:
        focus_ring(draw, rect, theme)


def _icon(draw: Any, image: Any, rect: Rect, w: Icon, theme: Theme, focused: bool) -> None:
    draw_icon(draw, w.shape, rect, _text_colour(w, theme))


def _field_box(draw: Any, rect: Rect, theme: Theme, focused: bool) -> None:
    outline = theme.accent if focused else theme.border
    draw.rounded_rectangle(rect.box(), theme.radius, fill=theme.surface, outline=outline)
    if focused:
        focus_ring(draw, rect, theme)


def _text_field(
    draw: Any, image: Any, rect: Rect, w: TextField, theme: Theme, focused: bool
) -> None:
    _field_box(draw, rect, theme, focused)
    inner = Rect(rect.x + PAD, rect.y, rect.width - 2 * PAD, rect.height)
    shown = w.shown_text
    if not shown:
        if w.placeholder:
            draw_text(image, inner.x, inner, w.placeholder, theme.muted_text, theme)
        caret_x = inner.x
    else:
        # Keep the caret in view: show the longest tail of the text before it that fits.
        before = shown[: w.caret]
        start = 0
        while start < len(before) and text_width(before[start:], theme.font_size) > inner.width - 2:
            start += 1
        caret_x = inner.x + text_width(before[start:], theme.font_size)
        draw_text(image, inner.x, inner, shown[start:], _text_colour(w, theme), theme)
    if focused:
        half = theme.font_size // 2 + 1
        draw.line((caret_x, rect.center[1] - half, caret_x, rect.center[1] + half), fill=theme.text)


def _checkbox(draw: Any, image: Any, rect: Rect, w: Checkbox, theme: Theme, focused: bool) -> None:
    box = Rect(rect.x, rect.center[1] - MARK_SIZE // 2, MARK_SIZE, MARK_SIZE)
    if w.checked:
        draw.rounded_rectangle(box.box(), 3, fill=theme.accent, outline=theme.accent)
        draw_icon(
            draw,
            "check",
            Rect(box.x + 1, box.y + 1, box.width - 2, box.height - 2),
            theme.accent_text,
        )
    else:
        draw.rounded_rectangle(box.box(), 3, fill=theme.surface, outline=theme.border)
    draw_text(image, box.right + PAD, rect, w.name, _text_colour(w, theme), theme)
    if focused:
        focus_ring(draw, box, theme)


def _radio(draw: Any, image: Any, rect: Rect, w: RadioButton, theme: Theme, focused: bool) -> None:
    box = Rect(rect.x, rect.center[1] - MARK_SIZE // 2, MARK_SIZE, MARK_SIZE)
    checked = bool(w.state()["checked"])
    draw.ellipse(
        box.box(),
        fill=theme.surface,
        outline=theme.accent if checked else theme.border,
        width=1 + checked,
    )
    if checked:
        draw.ellipse((box.x + 4, box.y + 4, box.right - 5, box.bottom - 5), fill=theme.accent)
    draw_text(image, box.right + PAD, rect, w.name, _text_colour(w, theme), theme)


def _group_focus(draw: Any, image: Any, rect: Rect, w: Widget, theme: Theme, focused: bool) -> None:
    if focused:
        focus_ring(draw, rect, theme)


def _dropdown(draw: Any, image: Any, rect: Rect, w: Dropdown, theme: Theme, focused: bool) -> None:
    _field_box(draw, rect, theme, focused or w.expanded)
    arrow = 8
    inner = Rect(rect.x + PAD, rect.y, rect.width - 2 * PAD - arrow - 4, rect.height)
    if w.selected is None:
        draw_text(image, inner.x, inner, w.placeholder, theme.muted_text, theme)
    else:
        draw_text(image, inner.x, inner, w.value, _text_colour(w, theme), theme)
    ax, ay = rect.right - PAD - arrow, rect.center[1]
    tip = (ax + arrow // 2, ay - 3) if w.expanded else (ax + arrow // 2, ay + 3)
    back = ay + 2 if w.expanded else ay - 2
    draw.polygon([(ax, back), (ax + arrow, back), tip], fill=_text_colour(w, theme))


def _option(
    draw: Any, image: Any, rect: Rect, w: DropdownOption, theme: Theme, focused: bool
) -> None:
    selected = bool(w.state()["selected"])
    draw.rectangle(
        rect.box(), fill=theme.selection if selected else theme.surface, outline=theme.border
    )
    draw_text(image, rect.x + PAD, rect, w.name, theme.text, theme, bold=selected)


def _list_box(draw: Any, image: Any, rect: Rect, w: ListBox, theme: Theme, focused: bool) -> None:
    draw.rectangle(rect.box(), fill=theme.surface, outline=theme.border)


def _list_item(draw: Any, image: Any, rect: Rect, w: ListItem, theme: Theme, focused: bool) -> None:
    if w.state()["selected"]:
        draw.rectangle((rect.x + 1, rect.y, rect.right - 2, rect.bottom - 1), fill=theme.selection)
    draw.line((rect.x + 1, rect.bottom - 1, rect.right - 2, rect.bottom - 1), fill=theme.background)
    draw_text(image, rect.x + PAD, rect, w.name, theme.text, theme)


def _list_focus(draw: Any, image: Any, rect: Rect, w: ListBox, theme: Theme, focused: bool) -> None:
    _list_box(draw, image, rect, w, theme, focused)
    if focused:
        draw.rectangle(rect.box(), outline=theme.focus, width=2)


def _tabs(draw: Any, image: Any, rect: Rect, w: Tabs, theme: Theme, focused: bool) -> None:
    draw.line((rect.x, rect.bottom - 1, rect.right - 1, rect.bottom - 1), fill=theme.border)


def _tab(draw: Any, image: Any, rect: Rect, w: Tab, theme: Theme, focused: bool) -> None:
    selected = bool(w.state()["selected"])
    colour = theme.accent if selected else theme.muted_text
    label = fit_text(w.name, rect.width - 4, theme.font_size, selected)
    x = rect.x + (rect.width - text_width(label, theme.font_size, selected)) // 2
    draw_text(image, x, rect, label, colour, theme, bold=selected)
    if selected:
        draw.rectangle(
            (rect.x + 2, rect.bottom - 3, rect.right - 3, rect.bottom - 1), fill=theme.accent
        )


def _scroll_container(
    draw: Any, image: Any, rect: Rect, w: ScrollContainer, theme: Theme, focused: bool
) -> None:
    draw.rectangle(rect.box(), fill=theme.background, outline=theme.border)


def scroll_bars(draw: Any, rect: Rect, w: ScrollContainer, theme: Theme) -> None:
    """The thumbs showing where a scrolled container's viewport is in its content."""
    width, height = w.content_size()
    if height > rect.height:
        track = rect.height - 4
        thumb = max(track * rect.height // height, 12)
        top = rect.y + 2 + (track - thumb) * w.scroll_y // max(height - rect.height, 1)
        x = rect.right - SCROLLBAR_WIDTH - 2
        draw.rounded_rectangle(
            (x, top, x + SCROLLBAR_WIDTH - 1, top + thumb - 1), 3, fill=theme.border
        )
    if width > rect.width:
        track = rect.width - 4
        thumb = max(track * rect.width // width, 12)
        left = rect.x + 2 + (track - thumb) * w.scroll_x // max(width - rect.width, 1)
        y = rect.bottom - SCROLLBAR_WIDTH - 2
        draw.rounded_rectangle(
            (left, y, left + thumb - 1, y + SCROLLBAR_WIDTH - 1), 3, fill=theme.border
        )


def _dialog(draw: Any, image: Any, rect: Rect, w: Dialog, theme: Theme, focused: bool) -> None:
    draw.rectangle((rect.x + 3, rect.y + 3, rect.right + 2, rect.bottom + 2), fill=theme.scrim)
    draw.rectangle(rect.box(), fill=theme.surface, outline=theme.border)
    bar = w.title_bar()
    draw.rectangle(bar.box(), fill=theme.title_bar)
    title = Rect(bar.x + PAD, bar.y, bar.width - PAD - bar.height, bar.height)
    draw_text(image, title.x, title, w.name, theme.title_text, theme, bold=True)


def _close_button(
    draw: Any, image: Any, rect: Rect, w: Button, theme: Theme, focused: bool
) -> None:
    draw_icon(
        draw,
        "close",
        Rect(rect.x + 4, rect.y + 4, rect.width - 8, rect.height - 8),
        theme.title_text,
    )
    if focused:
        focus_ring(draw, rect, theme)


#: The painter of each widget class (subclasses use their nearest ancestor's).
PAINTERS: dict[type, Painter] = {
    Label: _label,
    Button: _button,
    Link: _link,
    Icon: _icon,
    TextField: _text_field,
    Checkbox: _checkbox,
    RadioButton: _radio,
    Dropdown: _dropdown,
    DropdownOption: _option,
    ListBox: _list_focus,
    ListItem: _list_item,
    Tabs: _tabs,
    Tab: _tab,
    ScrollContainer: _scroll_container,
    Dialog: _dialog,
    CloseButton: _close_button,
}


def painter_for(widget: Widget) -> Painter:
    """The painter of ``widget`` (a group-like widget draws only its focus ring)."""
    for cls in type(widget).__mro__:
        if cls in PAINTERS:
            return PAINTERS[cls]
    return _group_focus
