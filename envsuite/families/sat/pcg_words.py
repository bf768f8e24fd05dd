"""numpy ``Generator`` draws rebuilt from the raw 64-bit words of its PCG64 bit generator.

A reset draws a few small arrays, where numpy's fixed cost per call outweighs the work
(``Generator.integers`` with a ``size`` alone spends microseconds in ``np.prod``). One
``random_raw`` call fetches every word a sequence of draws consumes; :func:`word_layout`
says which words (and 32-bit halves) each draw reads, following numpy's algorithms
(``numpy/random/src/distributions/distributions.c`` and ``pcg64.h``):

- ``random()`` reads one word: ``(word >> 11) * 2**-53``, so comparing ``word >> 11``
  compares the doubles;
- ``integers(low, high)`` (int64 output) with ``0 < high - low - 1 < 2**32 - 1`` reads one
  32-bit half per value by Lemire's method: ``low + (half * span >> 32)`` with
  ``span = high - low``, drawing again while ``(half * span) mod 2**32`` is below
  ``2**32 mod span`` (:func:`lemire_rejects` lists those halves);
- a 32-bit draw takes the half waiting in the bit generator's buffer (``has_uint32`` and
  ``uinteger`` in its state) if there is one, else fetches a word, uses its low half and
  leaves its high half in the buffer; 64-bit draws leave the buffer alone.

:func:`finish` then sets the buffer the draws would have left. Tests compare every use
against numpy's own draws, generator state included.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

#: The 32-bit halves of a word array, as ``words.view(np.uint32)`` lays them out, are
#: (low, high) pairs only on little-endian machines; elsewhere callers take numpy's path.
LITTLE_ENDIAN = sys.byteorder == "little"

#: A run of draws: ``("half", n)`` for n 32-bit draws, ``("word", n)`` for n 64-bit ones.
Run = tuple[Literal["half", "word"], int]


@dataclass(frozen=True, eq=False)  # holds an array: compared by identity
class WordLayout:
    """Where a sequence of draws reads, as positions in the fetched words.

    Attributes:
        total: Words to fetch with ``random_raw``.
        from_buffer: The first 32-bit draw takes the half already in the buffer.
        halves: Each 32-bit draw (after the buffered one, if any), in order: its position
            in ``words.view(np.uint32)`` (an index array).
        words: Each 64-bit run: its slice of the words.
        final_has: ``has_uint32`` after the draws.
        final_half: Position (in the halves) of the half left as ``uinteger``, or -1 to
            keep the start state's.
    """

    total: int
    from_buffer: bool
    halves: NDArray[np.intp]
    words: tuple[slice, ...]
    final_has: int
    final_half: int


@functools.lru_cache(maxsize=256)
def word_layout(has_uint32: int, runs: tuple[Run, ...]) -> WordLayout:
    """The words ``runs`` read from a PCG64 generator whose buffer holds a half or not.

    Args:
        has_uint32: The start state's ``has_uint32`` (1: a half is buffered).
        runs: The draws in order (32-bit draws assume no Lemire rejection).
    """
    fetched, last_half = 0, -1
    buffer = -2 if has_uint32 else -1  # the buffered half's position; -2: the start state's
    from_buffer = False
    halves: list[int] = []
    words: list[slice] = []
    for kind, count in runs:
        if kind == "word":
            words.append(slice(fetched, fetched + count))
            fetched += count
            continue
        for _ in range(count):
            if buffer == -2:
                from_buffer = True
            elif buffer >= 0:
                halves.append(buffer)
            else:
                halves.append(2 * fetched)
                buffer = last_half = 2 * fetched + 1
                fetched += 1
                continue
            buffer = -1
    final_has = int(buffer != -1)
    positions = np.array(halves, dtype=np.intp)
    return WordLayout(fetched, from_buffer, positions, tuple(words), final_has, last_half)


@functools.lru_cache(maxsize=64)
def lemire_rejects(span: int) -> frozenset[int] | None:
    """The 32-bit halves Lemire's method rejects for ``span`` values (None: not listed).

    A half ``x`` is rejected when ``(x * span) mod 2**32 < 2**32 mod span``. For odd
    ``span`` the multiplication is a bijection mod ``2**32``, so those are the
    ``2**32 mod span`` halves ``j * span**-1`` (None when that is more than 4096).
    """
    threshold = (1 << 32) % span
    if threshold == 0:
        return frozenset()
    if span % 2 == 0 or threshold > 4096:
        return None
    inverse = pow(span, -1, 1 << 32)
    return frozenset(j * inverse % (1 << 32) for j in range(threshold))


#: PCG64's 128-bit LCG multiplier (``PCG_DEFAULT_MULTIPLIER_128`` in numpy's ``pcg64.h``):
#: each 64-bit output steps the state to ``state * multiplier + inc`` (mod 2**128).
PCG64_MULTIPLIER = (2549297995355413924 << 64) + 4865540595714422341
_MASK128 = (1 << 128) - 1


@functools.lru_cache(maxsize=256)
def advance_constants(steps: int) -> tuple[int, int]:
    """``(a, b)`` with ``state_after = a * state + b * inc`` (mod 2**128) after ``steps`` steps."""
    a, b = 1, 0
    for _ in range(steps):
        a, b = (a * PCG64_MULTIPLIER) & _MASK128, (b * PCG64_MULTIPLIER + 1) & _MASK128
    return a, b


def finish(bit_generator: Any, layout: WordLayout, halves: Any, start: Mapping[str, Any]) -> None:
    """Leave ``bit_generator`` as the draws of ``layout`` would have, from ``start``.

    The 128-bit state is ``start``'s advanced by the ``layout.total`` words fetched (computed
    here: reading ``bit_generator.state`` costs as much as a numpy draw), and the 32-bit buffer
    is the one the draws would have left.

    Args:
        bit_generator: The PCG64 the words were fetched from, ``layout.total`` of them since
            ``start``.
        layout: The draws' layout.
        halves: ``words.view(np.uint32)`` of the fetched words.
        start: The state before the draws.
    """
    a, b = advance_constants(layout.total)
    lcg = start["state"]
    inc = lcg["inc"]
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": (a * lcg["state"] + b * inc) & _MASK128, "inc": inc},
        "has_uint32": layout.final_has,
        "uinteger": (
            int(halves[layout.final_half]) if layout.final_half >= 0 else start["uinteger"]
        ),
    }


def is_pcg64(rng: np.random.Generator) -> bool:
    """Whether ``rng`` runs on PCG64 (the layout above is PCG64's) on a little-endian machine."""
    return LITTLE_ENDIAN and type(rng.bit_generator) is np.random.PCG64
