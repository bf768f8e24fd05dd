"""Seeded distractors of the form tasks: a modal pop-up, and a layout shift.

Both are off by default and switched on by rates given to
:class:`~envsuite.families.gui.forms.form_task.FormTask`; the task draws when they happen
and how they look after it has drawn its instance, so a seed gives the same goal and form
with or without them.

- The pop-up (a newsletter offer, a cookie notice) is a modal dialog: it must be closed
  (its ``×``, its button, ``escape`` or ``back``) before anything else can be clicked;
  it costs one action.
- The layout shift is an advertisement banner that appears at the top of the form and
  pushes everything below it down, as a late-loading ad does on the web: it costs no
  action to an agent that clicks elements by id, and moves the target of one that clicks
  where it saw a button a step ago. It never pushes anything past the bottom edge.
"""

from __future__ import annotations

from envsuite.families.gui.buttons import Button
from envsuite.families.gui.dialog import TITLE_BAR_HEIGHT, Dialog
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.widget import Label, Widget

#: Element id of the distractor pop-up (its close button is ``popup/close``).
POPUP_ID = "popup"
#: Element id of the layout shift's banner.
BANNER_ID = "banner"
#: Titles and texts of distractor pop-ups.
POPUP_TEXTS = (
    ("Subscribe to our newsletter", "Get the best deals weekly."),
    ("We use cookies", "They help us improve the site."),
    ("Rate your visit", "Tell us how we are doing."),
    ("Get our app", "It is faster on your phone."),
    ("Special offer", "Save 20% on your next order."),
    ("Stay in touch", "Follow us for news and tips."),
)
#: Labels of the pop-up's dismissing button.
POPUP_BUTTONS = ("No thanks", "Not now", "Maybe later", "Dismiss")
#: Texts of the layout shift's banner.
BANNER_TEXTS = (
    "Ad: Fresh deals every day",
    "Ad: Try our new app",
    "Ad: Free shipping today",
    "Ad: Learn a language fast",
)


def popup_dialog(box: Rect, title: str, text: str, button: str) -> Dialog:
    """The pop-up: a modal dialog with a line of text and a dismissing button."""
    inner = Rect(box.x + 10, box.y + TITLE_BAR_HEIGHT + 8, box.width - 20, 18)
    return Dialog(
        POPUP_ID,
        box,
        name=title,
        items=[
            Label(f"{POPUP_ID}/text", inner, text=text),
            Button(
                f"{POPUP_ID}/dismiss",
                Rect(box.right - 100, box.bottom - 34, 90, 24),
                name=button,
                dismisses=True,
            ),
        ],
    )


def layout_widgets(screen: Screen) -> list[Widget]:
    """Every widget of the screen's layout, shown or not, without its dialogs."""
    dialogs = Screen(screen.width, screen.height, dialogs=screen.dialogs)
    in_dialogs = {id(w) for w in dialogs.all_widgets()}
    return [w for w in screen.all_widgets() if id(w) not in in_dialogs]


def shift_layout(screen: Screen, shift: int, text: str) -> int:
    """Push the layout down by up to ``shift`` pixels under a banner; the pixels moved.

    The shift is cut to the free space under the lowest widget (counting hidden ones: a
    closed dropdown's options, other tabs' panels; not the content of a scrolling
    container, which its viewport clips), so nothing leaves the screen; under 12 pixels of
    room nothing moves.
    """
    widgets = layout_widgets(screen)
    if not widgets:
        return 0
    scrolled = {
        id(inner)
        for w in widgets
        if isinstance(w, ScrollContainer)
        for inner in Screen(screen.width, screen.height, items=[w]).all_widgets()
        if inner is not w
    }
    top = min(w.bounds.y for w in widgets)
    bottom = max(w.bounds.bottom for w in widgets if id(w) not in scrolled)
    shift = min(shift, screen.height - 4 - bottom)
    if shift < 12:
        return 0
    for widget in widgets:
        widget.bounds = widget.bounds.moved(0, shift)
    banner = Label(BANNER_ID, Rect(10, top, screen.width - 20, shift - 4), text=text, muted=True)
    screen.items.insert(0, banner)
    return shift
