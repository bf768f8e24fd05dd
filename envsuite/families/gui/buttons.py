"""Things that are clicked: buttons, links and icons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from envsuite.families.gui.widget import Widget, fast_init


@fast_init
@dataclass(eq=False)
class Button(Widget):
    """A push button with a text label, an icon, or both.

    A click (or ``enter`` / ``space`` while focused) activates it: ``activations`` counts up
    and dispatch logs the activation on the screen. A button inside a dialog with
    ``dismisses`` set also closes that dialog.

    Args:
        icon: Name of an icon from :data:`~envsuite.families.gui.icon_shapes.ICON_NAMES`
            drawn before the label, or None.
        primary: Drawn in the theme's accent colour (the default action of a form).
        dismisses: Activating it closes the dialog it sits in.
    """

    icon: str | None = None
    primary: bool = False
    dismisses: bool = False
    activations: int = 0
    role: ClassVar[str] = "button"
    focusable: ClassVar[bool] = True

    def paint_key(self) -> tuple[Any, ...]:
        """Label, icon and style (activations do not change its look)."""
        return (self.name, self.icon, self.primary, self.enabled)

    def on_click(self, px: int, py: int) -> bool:
        """Activate."""
        self.activations += 1
        return True

    def on_key(self, key: str) -> bool:
        """``enter`` and ``space`` activate."""
        if key in ("enter", "space"):
            self.activations += 1
            return True
        return False


@fast_init
@dataclass(eq=False)
class Link(Widget):
    """A hyperlink: underlined text that navigates (the app decides where) once clicked.

    Args:
        target: What it points at (a screen name for the future app graphs), or "".
    """

    target: str = ""
    visited: bool = False
    role: ClassVar[str] = "link"
    focusable: ClassVar[bool] = True

    def state(self) -> dict[str, Any]:
        """``visited``."""
        return {"visited": self.visited}

    def on_click(self, px: int, py: int) -> bool:
        """Follow it: it becomes visited."""
        self.visited = True
        return True

    def on_key(self, key: str) -> bool:
        """``enter`` follows it."""
        return self.on_click(0, 0) if key == "enter" else False


@fast_init
@dataclass(eq=False)
class Icon(Widget):
    """A picture drawn from primitives (no image files); its name is its accessible name.

    Args:
        shape: One of :data:`~envsuite.families.gui.icon_shapes.ICON_NAMES`.
    """

    shape: str = "star"
    role: ClassVar[str] = "img"

    def __post_init__(self) -> None:
        if not self.name:
            self.name = self.shape

    def paint_key(self) -> tuple[Any, ...]:
        """The shape."""
        return (self.shape, self.enabled)
