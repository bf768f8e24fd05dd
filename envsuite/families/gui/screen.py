"""A screen: widgets laid out on a canvas, open dialogs above them, keyboard focus, a log."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.widget import Widget


@dataclass(eq=False)
class Screen:
    """What an app shows at one moment.

    Args:
        width: Logical width in pixels (clicks are in these pixels; the renderer may
            scale the picture to another size).
        height: Logical height in pixels.
        title: Shown in the title bar at the top (0 pixels tall when empty).
        items: The widgets, in drawing order (later ones above earlier ones).
        dialogs: Dialogs, drawn above the widgets in order; closed ones are not shown.
        focus_id: Element id of the widget with keyboard focus, or None.
        event_log: ``(kind, element_id)`` pairs dispatch appends as things happen
            (``"activate"`` for buttons and links, ``"close"`` for dialogs), which the
            apps' predicates read.

    Raises:
        ValueError: two widgets share an element id.
    """

    width: int = 256
    height: int = 256
    title: str = ""
    items: list[Widget] = field(default_factory=list)
    dialogs: list[Dialog] = field(default_factory=list)
    focus_id: str | None = None
    event_log: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for widget in self.all_widgets():
            if widget.element_id in seen:
                raise ValueError(f"two widgets share the element id {widget.element_id!r}")
            seen.add(widget.element_id)

    def all_widgets(self) -> Iterator[Widget]:
        """Every widget, shown or not (hidden tab panels, closed lists and dialogs too)."""
        stack: list[Widget] = [*reversed(self.dialogs), *reversed(self.items)]
        pop, extend = stack.pop, stack.extend  # the hot path of every lookup by id
        while stack:
            widget = pop()
            yield widget
            if isinstance(widget, Tabs):
                inner: Sequence[Widget] = [*widget.tabs, *widget.all_panel_widgets()]
            elif isinstance(widget, Dropdown):
                inner = widget.option_widgets
            else:
                inner = widget.children()
            if inner:
                extend(reversed(inner))

    def find(self, element_id: str) -> Widget | None:
        """The widget with ``element_id``, or None."""
        return next((w for w in self.all_widgets() if w.element_id == element_id), None)

    def focused(self) -> Widget | None:
        """The widget with keyboard focus, or None."""
        return None if self.focus_id is None else self.find(self.focus_id)

    def open_dialogs(self) -> list[Dialog]:
        """Dialogs shown, bottom to top."""
        return [dialog for dialog in self.dialogs if dialog.is_open and dialog.visible]

    def expanded_dropdowns(self) -> list[Dropdown]:
        """Dropdowns whose option list is open."""
        return [w for w in self.all_widgets() if isinstance(w, Dropdown) and w.expanded]
