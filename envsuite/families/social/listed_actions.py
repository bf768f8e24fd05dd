"""The legal actions of a seat as an env hands them out, derived once per legal tuple.

The rules engines give a seat's legal actions as a tuple kept across calls (and across
games: the same object comes back for the same phase, seat and living players). What an
env derives from one (the actions encoded as the agent sends them, the way back from an
encoding to the action, the vector form's action mask, the text form's list of options)
depends only on that tuple and the seat, so :class:`ListedCache` builds it once per tuple
and hands the same :class:`Listed` back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

#: Legal tuples whose listings a :class:`ListedCache` keeps before it starts over.
MAX_LISTED = 4096


class Listed:
    """One legal tuple of one seat, as the env hands it out.

    Attributes:
        legal: The engine's legal tuple (``say`` included).
        encoded: The legal actions but ``say``, encoded (text commands or vector indices).
        by_encoding: Each encoding's action (what an agent's exact listed action means).
        mask: The vector form's ``action_mask`` (int8, read-only: handed out as it is), or
            None in text form.
        options: The text form's encodings joined with ", " (the status line's list).
        status: Free for the env: the text form's status line with what it was made from.

    """

    __slots__ = ("by_encoding", "encoded", "legal", "mask", "options", "status")

    def __init__(self, legal: tuple[Any, ...], encoded: list[Any], mask: np.ndarray | None):
        self.legal = legal
        self.encoded = encoded
        self.by_encoding = dict(zip(encoded, [a for a in legal if a.kind != "say"], strict=True))
        self.mask = mask
        self.options = ", ".join(encoded) if mask is None else ""
        self.status: tuple[Any, str] | None = None


class ListedCache:
    """:class:`Listed` of each legal tuple seen lately (by the tuple's identity).

    Args:
        encode: Encodes one action of the seat (``encode(seat, action)``).
        mask_size: The number of vector actions, or None in text form (no masks).

    """

    def __init__(self, encode: Callable[[int, Any], Any], mask_size: int | None) -> None:
        self._encode = encode
        self._mask_size = mask_size
        #: The listings kept, by the id of their legal tuple (check ``legal`` is the tuple:
        #: an id can be reused once its tuple is gone).
        self.by_id: dict[int, Listed] = {}

    def get(self, seat: int, legal: tuple[Any, ...]) -> Listed:
        """The listing of ``legal``, the legal tuple of ``seat`` (built on first sight)."""
        known = self.by_id.get(id(legal))
        if known is not None and known.legal is legal:
            return known
        if len(self.by_id) >= MAX_LISTED:
            self.by_id.clear()
        encoded = [self._encode(seat, action) for action in legal if action.kind != "say"]
        listed = Listed(legal, encoded, self._mask(encoded))
        self.by_id[id(legal)] = listed
        return listed

    def _mask(self, encoded: Sequence[Any]) -> np.ndarray | None:
        if self._mask_size is None:
            return None
        mask = np.zeros(self._mask_size, dtype=np.int8)
        for index in encoded:
            mask[int(index)] = 1
        mask.flags.writeable = False  # (one array handed to every agent that gets it)
        return mask
