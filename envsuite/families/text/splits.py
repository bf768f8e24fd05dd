"""Train / val / test splits by hashing: disjoint, stable, and never ``seed + index``.

Every instance a text game poses has a *key*: a canonical string that names it (a word,
a code, a board written out cell by cell, a position's FEN). The key's sha256, salted with
the game's name, puts it in one of :data:`SPLIT_SHARES`'s buckets, so:

- the splits are disjoint by construction (an instance is in exactly one split), whatever
  seeds anybody uses;
- which split an instance is in never changes when a list grows or a seed changes;
- "seed 42" and "seed 43" are two independent draws from the split (the env draws from its
  own generator), not two overlapping windows of one list (reasoning-gym's
  ``Random(seed + idx)``).

Games with a list of instances (words) keep the members of the split
(:func:`split_members`); games that generate instances draw until the key falls in the
split (:func:`draw_in_split`, a bounded number of tries). A key written from the
instance's content, not from the draw that made it, keeps two draws of the same puzzle in
the same split.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, TypeVar

Split = Literal["train", "val", "test"]

#: Each split's share of the keys, in thousandths (train 80%, val 10%, test 10%).
SPLIT_SHARES: dict[str, tuple[int, int]] = {
    "train": (0, 800),
    "val": (800, 900),
    "test": (900, 1000),
}
SPLITS: tuple[str, ...] = tuple(SPLIT_SHARES)

T = TypeVar("T")


def checked_split(split: object) -> Split:
    """``split`` if it names a split, else a ValueError listing the splits."""
    if split not in SPLIT_SHARES:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}; got {split!r}")
    return split  # type: ignore[return-value]


def split_of(game: str, key: str) -> Split:
    """The split holding the instance ``key`` of ``game`` (a pure function of both)."""
    digest = hashlib.sha256(f"{game}\x00{key}".encode()).digest()
    bucket = int.from_bytes(digest[:8], "big") % 1000
    for name, (low, high) in SPLIT_SHARES.items():
        if low <= bucket < high:
            return name  # type: ignore[return-value]
    raise AssertionError("the split shares cover [0, 1000)")  # pragma: no cover


def split_members(game: str, keys: Iterable[str], split: Split) -> list[str]:
    """The keys of ``keys`` in ``split``, in their given order."""
    return [key for key in keys if split_of(game, key) == split]


def draw_in_split(
    game: str,
    split: Split,
    draw: Callable[[], T],
    key: Callable[[T], str],
    *,
    max_tries: int = 1000,
) -> T:
    """Call ``draw`` until the instance's key falls in ``split``; return that instance.

    ``draw`` takes its randomness from the env's generator, so the result is a function of
    the env's seed. The test split holds a tenth of the keys, so about ten draws are
    needed there on average; ``max_tries`` bounds the loop.

    Raises:
        RuntimeError: no draw landed in ``split`` within ``max_tries`` (the generator's
            space is too small for the split; the message says so).
    """
    for _ in range(max_tries):
        instance = draw()
        if split_of(game, key(instance)) == split:
            return instance
    raise RuntimeError(
        f"{game}: no instance of the {split!r} split in {max_tries} draws; the settings "
        "allow too few distinct instances for this split"
    )


def split_counts(game: str, keys: Sequence[str]) -> dict[str, int]:
    """How many of ``keys`` each split holds (for documenting a list's splits)."""
    counts = dict.fromkeys(SPLITS, 0)
    for key in keys:
        counts[split_of(game, key)] += 1
    return counts
