"""The checks every social game's setup makes on its arguments, with the same messages."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def check_int(name: str, value: Any, low: int, high: int) -> None:
    """Check that ``value`` is an int (not a bool) in ``[low, high]``.

    Raises:
        ValueError: it is not (the message names ``name``).
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an int in [{low}, {high}], got {value!r}")


def checked_names(names: Any, count: int, reserved: Collection[str]) -> tuple[str, ...]:
    """``names`` as a tuple: ``count`` distinct (ignoring case) words of ASCII letters.

    Args:
        names: The players' names.
        count: How many there must be (the seats).
        reserved: Lower-case words of the game's action grammar, which no name may be.

    Raises:
        ValueError: a name is missing, repeated, not a word of letters, or reserved.
    """
    names = tuple(names)
    if len(names) != count or len({name.lower() for name in names}) != count:
        raise ValueError(f"names must be {count} distinct names, got {names!r}")
    if not all(isinstance(name, str) and name.isalpha() and name.isascii() for name in names):
        raise ValueError(f"every name must be a word of ASCII letters, got {names!r}")
    taken = [name for name in names if name.lower() in reserved]
    if taken:
        raise ValueError(f"{taken[0]!r} is a word of the action grammar, not a name")
    return names
