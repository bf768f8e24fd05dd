"""Validation of the drone envs' constructor arguments.

Every check raises :class:`ValueError` naming the argument, its allowed range and the
value received, e.g. ``speed must be a number in [0.05, 20] m/s, got '2'``. Numbers are
Python or NumPy ints and floats; bools, strings, None, NaN and infinities are refused.
These run in ``__init__`` only, never on the per-step path.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

#: Largest ``action_buffer`` (past actions appended to ``kin`` observations).
MAX_ACTION_BUFFER = 100
#: Longest episode (s).
MAX_EPISODE_SEC = 3600.0


def _is_real(value: Any) -> bool:
    return not isinstance(value, bool | np.bool_) and isinstance(
        value, int | float | np.integer | np.floating
    )


def _bounds(low: float, high: float, low_open: bool, high_open: bool) -> str:
    def show(bound: float) -> str:
        return f"{bound:g}" if math.isfinite(bound) else ("inf" if bound > 0 else "-inf")

    return f"{'(' if low_open else '['}{show(low)}, {show(high)}{')' if high_open else ']'}"


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
    """Return ``value`` as a float if it is a finite real number within the bounds.

    Args:
        name: The argument's name, for the message.
        value: What the caller passed.
        low: Least allowed value.
        high: Greatest allowed value.
        low_open: Exclude ``low`` itself.
        high_open: Exclude ``high`` itself.
        unit: The unit, for the message (e.g. ``"m/s"``).

    Raises:
        ValueError: not a finite int or float (bools and strings included), or out of range.
    """
    ok = _is_real(value) and math.isfinite(float(value))
    if ok:
        number = float(value)
        ok = (number > low if low_open else number >= low) and (
            number < high if high_open else number <= high
        )
    if not ok:
        suffix = f" {unit}" if unit else ""
        raise ValueError(
            f"{name} must be a number in {_bounds(low, high, low_open, high_open)}{suffix}, "
            f"got {value!r}"
        )
    return float(value)


def integer_in(name: str, value: Any, low: int, high: int) -> int:
    """Return ``value`` as an int if it is a Python or NumPy integer in ``[low, high]``.

    Raises:
        ValueError: not an integer (bools, floats and strings included), or out of range.
    """
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, int | np.integer)
        or not low <= int(value) <= high
    ):
        raise ValueError(f"{name} must be an int in [{low}, {high}], got {value!r}")
    return int(value)


def point_in(
    name: str, value: Any, low: Sequence[float], high: Sequence[float], unit: str = "m"
) -> tuple[float, ...]:
    """Return ``value`` as a tuple of floats, each within its axis' bounds (inclusive).

    Raises:
        ValueError: not a sequence of ``len(low)`` finite numbers within the bounds.
    """
    size = len(low)
    box = " × ".join(_bounds(a, b, False, False) for a, b in zip(low, high, strict=True))
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


def episode_length(value: Any, ctrl_freq: int) -> float:
    """Validate ``episode_len_sec``: at least one control step, at most an hour.

    Raises:
        ValueError: not a number, shorter than ``1 / ctrl_freq`` or longer than an hour.
    """
    step = 1.0 / ctrl_freq
    if _is_real(value) and math.isfinite(float(value)) and 0.0 < float(value) < step:
        raise ValueError(
            f"episode_len_sec must be at least one control step ({step:.4g} s at "
            f"ctrl_freq={ctrl_freq}), got {value!r}"
        )
    return real_in("episode_len_sec", value, 0.0, MAX_EPISODE_SEC, low_open=True, unit="s")


def action_buffer_length(value: Any) -> int:
    """Validate ``action_buffer`` (``0 .. MAX_ACTION_BUFFER``)."""
    return integer_in("action_buffer", value, 0, MAX_ACTION_BUFFER)
