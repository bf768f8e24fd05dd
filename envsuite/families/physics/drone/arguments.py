"""Checks of the drone envs' own arguments; the generic ones are in :mod:`envsuite.arguments`.

Every check raises :class:`ValueError` naming the argument, its allowed range and the
value received. These run in ``__init__`` only, never on the per-step path.
"""

from __future__ import annotations

from typing import Any

from envsuite.arguments import integer_in, real_in

#: Largest ``action_buffer`` (past actions appended to ``kin`` observations).
MAX_ACTION_BUFFER = 100
#: Longest episode (s).
MAX_EPISODE_SEC = 3600.0


def episode_length(value: Any, ctrl_freq: int) -> float:
    """Validate ``episode_len_sec``: at least one control step, at most an hour.

    Raises:
        ValueError: not a number, shorter than ``1 / ctrl_freq`` or longer than an hour.
    """
    step = 1.0 / ctrl_freq
    length = real_in("episode_len_sec", value, 0.0, MAX_EPISODE_SEC, low_open=True, unit="s")
    if length < step:
        raise ValueError(
            f"episode_len_sec must be at least one control step ({step:.4g} s at "
            f"ctrl_freq={ctrl_freq}), got {value!r}"
        )
    return length


def action_buffer_length(value: Any) -> int:
    """Validate ``action_buffer`` (``0 .. MAX_ACTION_BUFFER``)."""
    return integer_in("action_buffer", value, 0, MAX_ACTION_BUFFER)
