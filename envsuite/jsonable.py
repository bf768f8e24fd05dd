"""Conversion of actions, kwargs and infos into plain JSON values."""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping
from typing import Any

import numpy as np


def to_jsonable(value: Any) -> Any:
    """Convert ``value`` into JSON-serialisable Python values, exactly where possible.

    numpy scalars and arrays become Python numbers and (nested) lists, tuples become lists,
    mappings get string keys, enums their value, bytes a ``{"bytes_hex": ...}`` wrapper.
    Non-finite floats are kept as floats (``json.dumps`` writes them as NaN/Infinity).

    Raises:
        TypeError: ``value`` holds something with no faithful JSON form.
    """
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return value
    if type(value) is dict:  # the usual mapping, spared the Mapping check's abc machinery
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    if isinstance(value, bytes | bytearray):
        return {"bytes_hex": bytes(value).hex()}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot convert {type(value).__name__} to JSON: {value!r:.80}")


def canonical_json(value: Any) -> str:
    """Serialise ``value`` deterministically: sorted keys, no whitespace, exact floats."""
    if type(value) is dict and not value:
        # Empty env kwargs, by far the most common value: keys of episodes and made envs
        # ask for it several times per episode, and json.dumps costs microseconds.
        return "{}"
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), allow_nan=True)


def is_finite_number(value: Any) -> bool:
    """Return whether ``value`` is a real, finite number (bools excluded)."""
    return (
        isinstance(value, int | float | np.integer | np.floating)
        and not isinstance(value, bool | np.bool_)
        and math.isfinite(float(value))
    )
