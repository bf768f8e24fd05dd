"""The widget base: element id, bounds, role, name and state, and the input hooks.

A widget is plain state plus three input hooks (a click at a point, a named key, typed
text); drawing lives in :mod:`~envsuite.families.gui.painters`, geometry of the whole
screen in :mod:`~envsuite.families.gui.placement`. Hooks return whether the widget's
state changed, so dispatch can report a no-op.

Bounds are screen pixels as if no scrolling container above the widget were scrolled;
:mod:`~envsuite.families.gui.placement` shifts and clips them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from envsuite.families.gui.geometry import Rect

#: Attributes no placement reads (a widget's value, its check mark, its label text, how
#: often a button was pressed, whether a link was followed): setting one leaves
#: :func:`layout_generation` as it is. Setting any other attribute of
#: any widget (bounds, visibility, children, scroll offsets, an open list or dialog,
#: ``enabled``, whatever a subclass adds) moves the generation on.
STATE_ONLY_ATTRIBUTES = frozenset(
    {
        "value",
        "caret",
        "checked",
        "selected",
        "opened",
        "name",
        "text",
        "placeholder",
        "activations",
        "visited",
    }
)
_generation = 0


def layout_generation() -> int:
    """A number that changes whenever any widget's layout-relevant attribute is set.

    The cached placement of a screen (:meth:`.screen.Screen.tree`) is valid while this,
    the screen's own lists and the child lists of its containers are unchanged.
    """
    return _generation


def touch_layout() -> None:
    """Move :func:`layout_generation` on (for a change no attribute assignment shows)."""
    global _generation
    _generation += 1


_W = TypeVar("_W", bound=type)
#: The default arguments of a :func:`fast_init` ``__init__`` whose field has a factory.
_FACTORY = object()


def fast_init(cls: _W) -> _W:
    """Give a widget dataclass an ``__init__`` that sets its fields without the layout hook.

    Applied above ``@dataclass(eq=False)``: the new ``__init__`` takes the same arguments,
    defaults and factories as the one the dataclass wrote and calls ``__post_init__`` the
    same way, but sets each field with ``object.__setattr__`` instead of
    :meth:`Widget.__setattr__` (a Python call per field, two thirds of the cost of building
    a widget; a reset builds 5-30). Nothing is lost: a widget being built is in no
    screen's lists yet, so no cached placement can depend on its fields (what its
    ``__post_init__`` sets still moves the generation on). The dataclass's own
    ``__init__`` stays as ``__dataclass_init__`` (a test checks the two agree).
    """
    namespace: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    params: list[str] = []
    body: list[str] = []
    for item in fields(cls):
        name = item.name
        if item.default is not MISSING:
            namespace[f"_default_{name}"] = item.default
            value = f"_default_{name}"
        elif item.default_factory is not MISSING:
            namespace[f"_factory_{name}"] = item.default_factory
            value = "_FACTORY"
            body.append(f"    if {name} is _FACTORY:\n        {name} = _factory_{name}()")
        else:
            value = ""
        if not item.init:
            raise TypeError(f"fast_init does not take fields outside __init__ ({name})")
        params.append(f"{name}={value}" if value else name)
        body.append(f"    _set(self, {name!r}, {name})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body)
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    original: Any = vars(cls)["__init__"]
    init.__doc__ = original.__doc__
    init.__annotations__ = dict(original.__annotations__)
    type.__setattr__(cls, "__dataclass_init__", original)
    type.__setattr__(cls, "__init__", init)
    return cls


@fast_init
@dataclass(eq=False)
class Widget:
    """One element of a screen.

    Args:
        element_id: Unique on its screen; actions such as ``click(element_id)`` name it.
        bounds: Where it is, in screen pixels (before scrolling).
        name: Its accessible name (a button's label, a field's label).
        enabled: A disabled widget is drawn greyed and ignores input.
        visible: A hidden widget is neither drawn, hit nor in the accessibility tree.
    """

    element_id: str
    bounds: Rect
    name: str = ""
    enabled: bool = True
    visible: bool = True
    #: Accessibility role (ARIA spelling).
    role: ClassVar[str] = "generic"
    #: Whether it takes keyboard focus (Tab stops at it, clicking focuses it).
    focusable: ClassVar[bool] = False

    def __setattr__(self, name: str, value: Any) -> None:
        """Set the attribute; unless it is state only, move the layout generation on."""
        object.__setattr__(self, name, value)
        if name not in STATE_ONLY_ATTRIBUTES:
            global _generation
            _generation += 1

    def children(self) -> Sequence[Widget]:
        """Widgets inside this one that are currently shown, in drawing order."""
        return ()

    def popup_children(self) -> Sequence[Widget]:
        """Widgets this one shows above everything else (an open dropdown's options)."""
        return ()

    def child_offset(self) -> tuple[int, int]:
        """How far its children are shifted when drawn (a scrolled container's offset)."""
        return 0, 0

    def clips_children(self) -> bool:
        """Whether children are cut to this widget's bounds (a scrolling container)."""
        return False

    def state(self) -> dict[str, Any]:
        """Accessibility states beyond ``enabled`` and ``focused`` (checked, value, ...)."""
        return {}

    def paint_key(self) -> tuple[Any, ...]:
        """Everything its drawing depends on besides bounds, theme and focus."""
        return (self.name, self.enabled, tuple(sorted(self.state().items())))

    def on_click(self, px: int, py: int) -> bool:
        """React to a click at screen pixel ``(px, py)`` inside it; True if state changed."""
        return False

    def on_key(self, key: str) -> bool:
        """React to the named key while focused (names from :mod:`.keys`); True if changed."""
        return False

    def on_text(self, text: str) -> bool:
        """Take typed ``text`` while focused; True if state changed."""
        return False


@fast_init
@dataclass(eq=False)
class Label(Widget):
    """Static text (role ``StaticText`` as Chromium's tree names it).

    Args:
        text: The text shown; it is also the accessible name.
        bold: Drawn in the bold face (headings).
        muted: Drawn in the theme's secondary text colour.
    """

    text: str = ""
    bold: bool = False
    muted: bool = False
    role: ClassVar[str] = "StaticText"

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self.text

    def paint_key(self) -> tuple[Any, ...]:
        """Text and style."""
        return (self.text, self.bold, self.muted, self.enabled)


@fast_init
@dataclass(eq=False)
class Group(Widget):
    """A plain container of widgets (a panel, a form section); drawn as nothing itself.

    Args:
        items: The widgets inside, in drawing order.
    """

    items: list[Widget] = field(default_factory=list)
    role: ClassVar[str] = "group"

    def children(self) -> Sequence[Widget]:
        """Its items."""
        return self.items
