"""A one-line text field with a caret."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from envsuite.families.gui.widget import Widget, fast_init

#: What a password field shows for each character.
PASSWORD_DOT = "•"


@fast_init
@dataclass(eq=False)
class TextField(Widget):
    """An editable line of text; typed text goes in at the caret while it has focus.

    Keys: ``backspace`` and ``delete`` remove a character either side of the caret,
    ``left`` / ``right`` / ``home`` / ``end`` move the caret, ``ctrl+a`` then
    ``backspace`` is not modelled (no selection): ``ctrl+backspace`` clears the field.
    A click puts the caret at the end of the text.

    Args:
        value: The text in it.
        caret: Caret position, 0 to ``len(value)``.
        placeholder: Grey hint shown while it is empty.
        password: Shows dots instead of the characters (the value stays readable to
            predicates; the accessibility tree hides it as browsers do).
        max_length: Characters beyond this are dropped as they are typed.
    """

    value: str = ""
    caret: int = 0
    placeholder: str = ""
    password: bool = False
    max_length: int = 200
    role: ClassVar[str] = "textbox"
    focusable: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self.caret = min(max(self.caret, 0), len(self.value))

    @property
    def shown_text(self) -> str:
        """The text as drawn (dots for a password)."""
        return PASSWORD_DOT * len(self.value) if self.password else self.value

    def state(self) -> dict[str, Any]:
        """``value`` (the shown text, so a password stays hidden)."""
        return {"value": self.shown_text}

    def paint_key(self) -> tuple[Any, ...]:
        """Text, caret and hint."""
        return (self.name, self.shown_text, self.caret, self.placeholder, self.enabled)

    def on_click(self, px: int, py: int) -> bool:
        """Put the caret at the end."""
        moved = self.caret != len(self.value)
        self.caret = len(self.value)
        return moved

    def on_text(self, text: str) -> bool:
        """Insert ``text`` at the caret (newlines and tabs are not typed into one line)."""
        text = "".join(ch for ch in text if ch.isprintable())
        room = self.max_length - len(self.value)
        text = text[: max(room, 0)]
        if not text:
            return False
        self.value = self.value[: self.caret] + text + self.value[self.caret :]
        self.caret += len(text)
        return True

    def on_key(self, key: str) -> bool:
        """Edit or move the caret."""
        before = (self.value, self.caret)
        if key == "backspace" and self.caret > 0:
            self.value = self.value[: self.caret - 1] + self.value[self.caret :]
            self.caret -= 1
        elif key == "delete":
            self.value = self.value[: self.caret] + self.value[self.caret + 1 :]
        elif key == "ctrl+backspace":
            self.value, self.caret = "", 0
        elif key == "left":
            self.caret = max(self.caret - 1, 0)
        elif key == "right":
            self.caret = min(self.caret + 1, len(self.value))
        elif key == "home":
            self.caret = 0
        elif key == "end":
            self.caret = len(self.value)
        elif key == "space":
            return self.on_text(" ")
        elif len(key) == 1:
            return self.on_text(key)
        return (self.value, self.caret) != before
