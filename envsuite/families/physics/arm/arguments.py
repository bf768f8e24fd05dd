"""Checks of the arm envs' constructor arguments, with errors that name the argument.

Each function returns the value in its canonical Python type (``int``, ``float``,
``bool``, ``str``) or raises a ValueError such as
``frame_skip must be an int in [1, 1000], got 10000000``. Python and numpy numbers are
accepted; bools are not numbers here, and strings, None, NaN and infinities are refused.
They run once, in ``__init__``, never on the per-step path.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np


def _bound(value: float) -> str:
    return f"{value:g}"


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool | np.bool_)


def integer_in(name: str, value: Any, low: int, high: int, *, why: str = "") -> int:
    """``value`` as an int, if it is an integer (Python or numpy) in ``[low, high]``.

    Args:
        name: The argument's name, for the error message.
        value: The value given.
        low: Smallest value accepted.
        high: Largest value accepted.
        why: Where the bounds come from, added to the message after them.

    Returns:
        The value as a Python ``int``.

    Raises:
        ValueError: If ``value`` is not an integer (floats, bools and strings are not) or
            lies outside ``[low, high]``.
    """
    if isinstance(value, numbers.Integral) and not _is_bool(value) and low <= int(value) <= high:
        return int(value)
    reason = f" ({why})" if why else ""
    raise ValueError(f"{name} must be an int in [{low}, {high}]{reason}, got {value!r}")


def real_in(
    name: str,
    value: Any,
    low: float,
    high: float,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """``value`` as a float, if it is a finite real number (Python or numpy) in range.

    Args:
        name: The argument's name, for the error message.
        value: The value given.
        low: Lower bound (may be ``-math.inf``).
        high: Upper bound (may be ``math.inf``).
        low_open: Exclude ``low`` itself.
        high_open: Exclude ``high`` itself.

    Returns:
        The value as a Python ``float``.

    Raises:
        ValueError: If ``value`` is not a real number (bools and strings are not), is NaN
            or infinite, or lies outside the range.
    """
    if isinstance(value, numbers.Real) and not _is_bool(value):
        number = float(value)
        if (
            math.isfinite(number)
            and (low < number if low_open else low <= number)
            and (number < high if high_open else number <= high)
        ):
            return number
    left = "(" if low_open or math.isinf(low) else "["
    right = ")" if high_open or math.isinf(high) else "]"
    raise ValueError(
        f"{name} must be a finite real number in {left}{_bound(low)}, {_bound(high)}{right}, "
        f"got {value!r}"
    )


def boolean(name: str, value: Any) -> bool:
    """``value`` as a bool, if it is one (Python or numpy); truthy values are refused.

    Args:
        name: The argument's name, for the error message.
        value: The value given.

    Returns:
        The value as a Python ``bool``.

    Raises:
        ValueError: If ``value`` is not a bool (``"no"``, ``0`` and None are not).
    """
    if _is_bool(value):
        return bool(value)
    raise ValueError(f"{name} must be a bool (True or False), got {value!r}")


def one_of(name: str, value: Any, choices: Sequence[str | None]) -> Any:
    """The choice ``value`` names, if it is one of ``choices`` (strings, or None).

    Args:
        name: The argument's name, for the error message.
        value: The value given.
        choices: The values accepted.

    Returns:
        The matching element of ``choices`` (so a ``numpy.str_`` comes back as ``str``).

    Raises:
        ValueError: If ``value`` is not one of ``choices``.
    """
    for choice in choices:
        if value is choice or (isinstance(value, str) and value == choice):
            return choice
    listed = ", ".join(repr(choice) for choice in choices)
    raise ValueError(f"{name} must be one of {listed}, got {value!r}")
