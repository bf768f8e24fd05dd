"""A screen: widgets laid out on a canvas, open dialogs above them, keyboard focus, a log."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from envsuite.families.gui import widget as widget_module
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.toggles import RadioGroup
from envsuite.families.gui.widget import Group, Widget

if TYPE_CHECKING:
    from envsuite.families.gui.placement import Placed


class ScreenTree:
    """A screen's widgets and placement, computed once and kept while nothing changed.

    Valid while :func:`~.widget.layout_generation` (moved on by every layout-relevant
    attribute assignment of any widget), the screen's size, the contents of its
    ``items`` and ``dialogs`` and the contents of every container's child lists are what
    they were when it was built, so in-place list edits (``append``, ``insert``,
    ``items[i] = w``) are seen too (widgets compare by identity: every widget class is a
    ``dataclass(eq=False)``). What it holds is shared: callers must not mutate it.

    Attributes:
        widgets: Every widget in :meth:`Screen.all_widgets` order.
        by_id: The first widget of each element id.
        dropdowns: Every dropdown (shown or not).
        placed: The placement (:func:`~.placement.place`), filled on first use.
        hits: Hit-test results by point, filled as points are asked for.
        live: Placed widgets not behind a modal dialog, by element id (first one).
    """

    __slots__ = (
        "_containers",
        "_dialogs",
        "_generation",
        "_items",
        "_size",
        "_watched",
        "by_id",
        "dropdowns",
        "hits",
        "live",
        "placed",
        "widgets",
    )

    def __init__(self, screen: Screen) -> None:
        self._generation = widget_module._generation
        self._items = list(screen.items)
        self._dialogs = list(screen.dialogs)
        self._size = (screen.width, screen.height)
        containers: list[tuple[Widget, list[Widget]]] = []
        watched: list[tuple[list[Any], list[Any]]] = []
        widgets: list[Widget] = []
        dropdowns: list[Dropdown] = []
        stack: list[Widget] = [*reversed(self._dialogs), *reversed(self._items)]
        while stack:
            widget = stack.pop()
            widgets.append(widget)
            if _holds_widgets(type(widget)):
                if isinstance(widget, Dropdown):
                    dropdowns.append(widget)
                inner = _inner(widget)
                held = _child_lists(widget)
                if held is None:
                    containers.append((widget, inner))
                else:
                    watched.extend((lst, list(lst)) for lst in held)
                stack.extend(reversed(inner))
        self._containers = containers
        self._watched = watched
        self.widgets = widgets
        # Reversed, so that the first widget of an id wins.
        self.by_id: dict[str, Widget] = {w.element_id: w for w in reversed(widgets)}
        self.dropdowns = dropdowns
        self.placed: list[Placed] | None = None
        self.hits: dict[tuple[int, int], Any] = {}
        self.live: dict[str, Placed] | None = None

    def valid_for(self, screen: Screen) -> bool:
        """Whether nothing the tree depends on changed since it was built."""
        if not (
            self._generation == widget_module._generation
            and self._items == screen.items
            and self._dialogs == screen.dialogs
            and self._size == (screen.width, screen.height)
        ):
            return False
        for held, copy in self._watched:
            if held != copy:
                return False
        for widget, inner in self._containers:  # noqa: SIM110
            if _inner(widget) != inner:
                return False
        return True


_HOLDS: dict[type, bool] = {}


def _holds_widgets(kind: type) -> bool:
    """Whether widgets of class ``kind`` can hold others, remembered per class.

    Children, or a dropdown's options.
    """
    holds = _HOLDS.get(kind)
    if holds is None:
        holds = _HOLDS[kind] = kind.children is not Widget.children or issubclass(kind, Dropdown)  # type: ignore[attr-defined]
    return holds


def _child_lists(widget: Widget) -> list[list[Any]] | None:
    """The list objects that hold ``widget``'s children, for the toolkit's containers.

    The lists themselves, so that an in-place edit shows; None for other classes, whose
    children are compared as :func:`_inner` builds them. A list attribute set anew moves
    the layout generation on, so watching the objects held now is enough.
    """
    kind = type(widget)
    if kind is ScrollContainer or kind is Group:
        return [widget.items]  # type: ignore[attr-defined]
    if kind is Tabs:
        return [widget.tabs, widget.panels, *widget.panels]  # type: ignore[attr-defined]
    if kind is Dropdown:
        return [widget.option_widgets]  # type: ignore[attr-defined]
    if kind is Dialog:
        return [widget.items]  # type: ignore[attr-defined]
    if kind is ListBox:
        return [widget.rows]  # type: ignore[attr-defined]
    if kind is RadioGroup:
        return [widget.buttons]  # type: ignore[attr-defined]
    return None


def _inner(widget: Widget) -> list[Widget]:
    """Every widget directly inside ``widget``, shown or not, as a new list."""
    if isinstance(widget, Tabs):
        return [*widget.tabs, *widget.all_panel_widgets()]
    if isinstance(widget, Dropdown):
        return list(widget.option_widgets)
    return list(widget.children())


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
    _tree: ScreenTree | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tree = self.tree()
        if len(tree.by_id) == len(tree.widgets):  # as many ids as widgets: all distinct
            return
        seen: set[str] = set()
        for widget in tree.widgets:
            if widget.element_id in seen:
                raise ValueError(f"two widgets share the element id {widget.element_id!r}")
            seen.add(widget.element_id)

    def __getstate__(self) -> dict[str, Any]:
        """The screen without its cached tree.

        Copies and unpickled screens build their own: a generation number means nothing
        in another process.
        """
        state = self.__dict__.copy()
        state["_tree"] = None
        return state

    def tree(self) -> ScreenTree:
        """The screen's widgets and placement, rebuilt only when something changed."""
        tree = self._tree
        if tree is None or not tree.valid_for(self):
            tree = self._tree = ScreenTree(self)
        return tree

    def all_widgets(self) -> Iterator[Widget]:
        """Every widget, shown or not (hidden tab panels, closed lists and dialogs too)."""
        return iter(self.tree().widgets)

    def find(self, element_id: str) -> Widget | None:
        """The widget with ``element_id``, or None."""
        return self.tree().by_id.get(element_id)

    def focused(self) -> Widget | None:
        """The widget with keyboard focus, or None."""
        return None if self.focus_id is None else self.find(self.focus_id)

    def open_dialogs(self) -> list[Dialog]:
        """Dialogs shown, bottom to top."""
        return [dialog for dialog in self.dialogs if dialog.is_open and dialog.visible]

    def expanded_dropdowns(self) -> list[Dropdown]:
        """Dropdowns whose option list is open."""
        return [w for w in self.tree().dropdowns if w.expanded]
