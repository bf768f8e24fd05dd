"""Text spaces that accept any Unicode string and survive vectorisation.

Gymnasium's :class:`gymnasium.spaces.Text` only contains strings drawn from a fixed
character set. LLM agents answer with arbitrary Unicode, so envsuite's text space contains
*every* string up to its length limit, and flattens to Unicode code points.

Vector envs: ``AsyncVectorEnv(shared_memory=True)`` reads its shared buffer once, when it
is built. That works for numpy spaces (the read returns a live view) but a text space's
read returns plain strings, so every later observation of a Gymnasium ``Text`` space is
silently stale. envsuite's text space refuses shared memory with a clear error instead,
and :func:`envsuite.make_vec` turns shared memory off for spaces holding text, so text
observations travel through the pipes intact.
"""

from __future__ import annotations

import string
from types import ModuleType
from typing import Any, NoReturn

import numpy as np
from gymnasium.error import CustomSpaceError
from gymnasium.spaces import Box, Text
from gymnasium.spaces.utils import flatdim, flatten, flatten_space, unflatten
from gymnasium.vector.utils import create_shared_memory
from numpy.typing import NDArray

#: Characters :meth:`UnicodeText.sample` draws from: printable ASCII plus a few
#: multi-byte characters, so random samples exercise Unicode handling too.
SAMPLE_ALPHABET: str = string.ascii_letters + string.digits + string.punctuation + " \néßλ中😀"

#: Padding value in flattened and shared-memory encodings (no code point is negative).
_PAD = -1


class UnicodeText(Text):
    """A space of all Python strings whose length lies in ``[min_length, max_length]``.

    Unlike :class:`gymnasium.spaces.Text`, membership does not depend on a character
    set: any ``str`` of an allowed length is contained. The character set only shapes
    :meth:`sample`. Flattening encodes each character as its code point (``-1`` pads),
    which is also the encoding used in ``AsyncVectorEnv`` shared memory.

    Args:
        max_length: Longest string contained, in characters (code points).
        min_length: Shortest string contained. Defaults to 0, so the empty string is valid.
        sample_alphabet: Characters that :meth:`sample` draws from.
        seed: Seed for the space's own generator, used only by :meth:`sample`.

    Example:
        >>> space = UnicodeText(16)
        >>> space.contains("héllo wörld 😀")
        True
        >>> space.contains("x" * 17)
        False
    """

    def __init__(
        self,
        max_length: int,
        *,
        min_length: int = 0,
        sample_alphabet: str = SAMPLE_ALPHABET,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        super().__init__(max_length, min_length=min_length, charset=sample_alphabet, seed=seed)

    def contains(self, x: Any) -> bool:
        """Return whether ``x`` is a ``str`` of an allowed length (any characters)."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def encode(self, x: str) -> NDArray[np.int32]:
        """Encode a contained string as ``max_length`` int32 code points, padded with -1."""
        if not self.contains(x):
            raise ValueError(f"{x!r:.80} is not a member of {self}")
        codes = np.full(self.max_length, _PAD, dtype=np.int32)
        codes[: len(x)] = [ord(c) for c in x]
        return codes

    def decode(self, codes: NDArray[np.integer[Any]]) -> str:
        """Decode an array made by :meth:`encode` back into the string."""
        return "".join(chr(int(c)) for c in codes if c != _PAD)

    def __repr__(self) -> str:
        """Show the length limits (the sample alphabet is not part of the space's identity)."""
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: object, /) -> bool:
        """Two UnicodeText spaces are equal when their length limits are."""
        return (
            isinstance(other, UnicodeText)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
        )

    def __hash__(self) -> int:
        """Hash on the length limits, consistent with ``__eq__``."""
        return hash((UnicodeText, self.min_length, self.max_length))


@flatdim.register(UnicodeText)
def _flatdim_unicode_text(space: UnicodeText) -> int:
    return space.max_length


# mypy misreads the generic fallback's first argument, hence the ignores on these two.
@flatten.register(UnicodeText)
def _flatten_unicode_text(space: UnicodeText, x: str) -> NDArray[np.int32]:  # type: ignore[misc]
    return space.encode(x)


@unflatten.register(UnicodeText)
def _unflatten_unicode_text(space: UnicodeText, x: NDArray[np.int32]) -> str:  # type: ignore[misc]
    return space.decode(x)


@flatten_space.register(UnicodeText)
def _flatten_space_unicode_text(space: UnicodeText) -> Box:
    return Box(low=_PAD, high=0x10FFFF, shape=(space.max_length,), dtype=np.int32)


#: Why a text space cannot live in ``AsyncVectorEnv`` shared memory.
SHARED_MEMORY_REFUSED = (
    "text observations cannot use AsyncVectorEnv shared memory: Gymnasium reads the buffer "
    "once, so every later text observation would be stale. Use shared_memory=False "
    "(envsuite.make_vec does this for you)."
)


@create_shared_memory.register(UnicodeText)
def _refuse_unicode_text_shared_memory(
    space: UnicodeText, n: int = 1, ctx: ModuleType | Any = None
) -> NoReturn:
    raise CustomSpaceError(SHARED_MEMORY_REFUSED)


def contains_text_space(space: Any) -> bool:
    """Return whether ``space`` is, or nests, a text space."""
    if isinstance(space, Text):
        return True
    subspaces = getattr(space, "spaces", None)
    if isinstance(subspaces, dict):
        return any(contains_text_space(s) for s in subspaces.values())
    if isinstance(subspaces, tuple | list):
        return any(contains_text_space(s) for s in subspaces)
    return False
