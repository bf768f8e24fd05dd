"""The GUI action: one frozen value every input form (text, JSON, Dict space) becomes.

Kinds (issue 17's list): ``click`` and ``double_click`` at a point or on an element,
``type`` text into the focused field, press a ``key`` (a canonical name from
:mod:`~envsuite.families.gui.keys`), ``scroll`` by ``(dx, dy)`` pixels (at a point, or
the focused or first scrolling container), ``drag`` from one point to another, ``back``,
``home`` and ``done``.
"""

from __future__ import annotations

from dataclasses import dataclass

from envsuite.action_errors import InvalidAction

#: Every action kind, in the order the Dict space numbers them.
ACTION_KINDS: tuple[str, ...] = (
    "click",
    "double_click",
    "type",
    "key",
    "scroll",
    "drag",
    "back",
    "home",
    "done",
)
#: Longest text a ``type`` action may carry.
MAX_TYPE_CHARS = 500
#: Largest coordinate or scroll amount accepted (far beyond any screen).
MAX_COORDINATE = 100_000


class GuiActionError(InvalidAction):
    """A GUI action that cannot be read or cannot apply; the env turns it into a penalty."""


@dataclass(frozen=True)
class GuiAction:
    """One parsed GUI action.

    Attributes:
        kind: One of :data:`ACTION_KINDS`.
        x: Point of a click, the start of a drag, or where a scroll happens (or None).
        y: As ``x``.
        element_id: Target of ``click(element_id)`` / ``double_click(element_id)``.
        text: What ``type`` types.
        key: Canonical key name of ``key``.
        dx: Horizontal scroll in pixels (right is positive), or the drag's end ``x``.
        dy: Vertical scroll in pixels (down is positive), or the drag's end ``y``.
    """

    kind: str
    x: int | None = None
    y: int | None = None
    element_id: str | None = None
    text: str | None = None
    key: str | None = None
    dx: int = 0
    dy: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise GuiActionError(f"unknown action {self.kind!r}; known: {', '.join(ACTION_KINDS)}")

    def describe(self) -> str:
        """The action in envsuite's own grammar (parses back to an equal action)."""
        if self.kind in ("click", "double_click"):
            target = repr(self.element_id) if self.element_id is not None else f"{self.x}, {self.y}"
            return f"{self.kind}({target})"
        if self.kind == "type":
            return f"type({self.text!r})"
        if self.kind == "key":
            return f"key({self.key!r})"
        if self.kind == "scroll":
            at = f", {self.x}, {self.y}" if self.x is not None else ""
            return f"scroll({self.dx}, {self.dy}{at})"
        if self.kind == "drag":
            return f"drag({self.x}, {self.y}, {self.dx}, {self.dy})"
        return f"{self.kind}()"
