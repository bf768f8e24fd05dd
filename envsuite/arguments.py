"""Checks of env constructor arguments, with errors that name the argument.

Each function returns the value in its canonical Python type (``int``, ``float``,
``bool``, ``str``, a tuple of floats) or raises :class:`ValueError` naming the argument,
what it must be and what it got, e.g. ``frame_skip must be an int in [1, 1000], got
10000000`` or ``speed must be a number in [0.05, 20] m/s, got '2'``. Python and numpy
numbers are accepted; bools are not numbers here, and strings, None, NaN and infinities
are refused. Envs call them once, in ``__init__``, never on the per-step path.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool | np.bool_)


def _is_real(value: Any) -> bool:
    return not _is_bool(value) and isinstance(value, int | float | np.integer | np.floating)


def _interval(low: float, high: float, low_open: bool, high_open: bool) -> str:
    def show(bound: float) -> str:
        return f"{bound:g}" if math.isfinite(bound) else ("inf" if bound > 0 else "-inf")

    left = "(" if low_open or math.isinf(low) else "["
    right = ")" if high_open or math.isinf(high) else "]"
    return f"{left}{show(low)}, {show(high)}{right}"


def _within(number: float, low: float, high: float, low_open: bool, high_open: bool) -> bool:
    return (number > low if low_open else number >= low) and (
        number < high if high_open else number <= high
    )


def real_in(
    name: str,
    value: Any,
    low: float,
    high: float,
    *,
    low_open: bool = False,
    high_open: bool = False,
    unit: str = "",
) -> float:
    """``value`` as a float, if it is a finite real number within the bounds.

    Args:
        name: The argument's name, for the message.
        value: What the caller passed.
        low: Least allowed value (may be ``-math.inf``).
        high: Greatest allowed value (may be ``math.inf``).
        low_open: Exclude ``low`` itself.
        high_open: Exclude ``high`` itself.
        unit: The unit, for the message (e.g. ``"m/s"``).

    Returns:
        The value as a Python ``float``.

    Raises:
        ValueError: not a finite int or float (bools and strings included), or out of range.
    """
    if _is_real(value):
        number = float(value)
        if math.isfinite(number) and _within(number, low, high, low_open, high_open):
            return number
    suffix = f" {unit}" if unit else ""
    raise ValueError(
        f"{name} must be a number in {_interval(low, high, low_open, high_open)}{suffix}, "
        f"got {value!r}"
    )


def integer_in(name: str, value: Any, low: int, high: int, *, why: str = "") -> int:
    """``value`` as an int, if it is a Python or numpy integer in ``[low, high]``.

    Args:
        name: The argument's name, for the message.
        value: What the caller passed.
        low: Least allowed value.
        high: Greatest allowed value.
        why: Where the bounds come from, added to the message after them.

    Returns:
        The value as a Python ``int``.

    Raises:
        ValueError: not an integer (bools, floats and strings included), or out of range.
    """
    if not _is_bool(value) and isinstance(value, int | np.integer) and low <= int(value) <= high:
        return int(value)
    reason = f" ({why})" if why else ""
    raise ValueError(f"{name} must be an int in [{low}, {high}]{reason}, got {value!r}")


def point_in(
    name: str, value: Any, low: Sequence[float], high: Sequence[float], unit: str = "m"
) -> tuple[float, ...]:
    """``value`` as a tuple of floats, each within its axis' bounds (inclusive).

    Args:
        name: The argument's name, for the message.
        value: What the caller passed.
        low: Least allowed value per axis.
        high: Greatest allowed value per axis.
        unit: The unit, for the message.

    Returns:
        The point as a tuple of Python floats.

    Raises:
        ValueError: not a sequence of ``len(low)`` finite numbers within the bounds.
    """
    size = len(low)
    box = " × ".join(_interval(a, b, False, False) for a, b in zip(low, high, strict=True))
    message = f"{name} must be {size} numbers in {box} {unit}, got {value!r}"
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise ValueError(message)
    items = list(value)
    if len(items) != size or not all(
        _is_real(v) and math.isfinite(float(v)) and a <= float(v) <= b
        for v, a, b in zip(items, low, high, strict=True)
    ):
        raise ValueError(message)
    return tuple(float(v) for v in items)


def boolean(name: str, value: Any) -> bool:
    """``value`` as a bool, if it is one (Python or numpy); truthy values are refused.

    Args:
        name: The argument's name, for the message.
        value: What the caller passed.

    Returns:
        The value as a Python ``bool``.

    Raises:
        ValueError: not a bool (``"no"``, ``0`` and None are not).
    """
    if _is_bool(value):
        return bool(value)
    raise ValueError(f"{name} must be a bool (True or False), got {value!r}")


def one_of(name: str, value: Any, choices: Sequence[str | None]) -> Any:
    """The element of ``choices`` that ``value`` names (strings, or None).

    Args:
        name: The argument's name, for the message.
        value: What the caller passed.
        choices: The values accepted.

    Returns:
        The matching element of ``choices`` (so a ``numpy.str_`` comes back as ``str``).

    Raises:
        ValueError: not one of ``choices``.
    """
    for choice in choices:
        if value is choice or (isinstance(value, str) and value == choice):
            return choice
    listed = ", ".join(repr(choice) for choice in choices)
    raise ValueError(f"{name} must be one of {listed}, got {value!r}")
