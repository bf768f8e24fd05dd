"""Seed derivation on :class:`numpy.random.SeedSequence`.

envsuite never touches the global ``random`` or ``numpy.random`` state, and never derives
seeds as ``seed + index`` (neighbouring seeds give correlated streams for some generators,
and two runs offset by one share almost every episode). Every derived seed comes from a
``SeedSequence`` whose spawn key names what the seed is for, so the same (root, key)
always gives the same seed, and different keys give independent streams.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: Largest seed envsuite derives (seeds fit in an unsigned 32-bit int, accepted everywhere).
MAX_SEED = 2**32 - 1


def _key_to_int(key: int | str) -> int:
    """Map a spawn-key element to a non-negative int (strings via sha256, never ``hash()``)."""
    if isinstance(key, bool) or not isinstance(key, int | str):
        raise TypeError(f"seed keys must be int or str, got {type(key).__name__}")
    if isinstance(key, int):
        if key < 0:
            raise ValueError(f"seed keys must be non-negative, got {key}")
        return key
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "little")


def seed_sequence(seed: int, *keys: int | str) -> np.random.SeedSequence:
    """Return the ``SeedSequence`` for ``seed`` and a path of keys.

    Args:
        seed: The root seed (a non-negative int).
        keys: Names of what the sequence is for, e.g. ``("episode", 3)``.

    Returns:
        A sequence determined by ``seed`` and ``keys`` alone.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    return np.random.SeedSequence(int(seed), spawn_key=tuple(_key_to_int(k) for k in keys))


def derive_seed(seed: int, *keys: int | str) -> int:
    """Derive a 32-bit seed from a root seed and a path of keys.

    Example:
        >>> derive_seed(0, "episode", 1) == derive_seed(0, "episode", 1)
        True
        >>> derive_seed(0, "episode", 1) == derive_seed(0, "episode", 2)
        False
    """
    return int(seed_sequence(seed, *keys).generate_state(1, dtype=np.uint32)[0])


def derive_seeds(seed: int, count: int, *keys: int | str) -> list[int]:
    """Derive ``count`` independent 32-bit seeds: ``derive_seed(seed, *keys, i)`` for each i."""
    if count < 0:
        raise ValueError(f"count must be non-negative, got {count}")
    return [derive_seed(seed, *keys, i) for i in range(count)]


def make_generator(seed: int, *keys: int | str) -> np.random.Generator:
    """Return a PCG64 generator for ``seed`` and a path of keys."""
    return np.random.Generator(np.random.PCG64(seed_sequence(seed, *keys)))


def spawn_generators(rng: np.random.Generator, count: int) -> list[np.random.Generator]:
    """Spawn ``count`` independent child generators from ``rng`` (advances ``rng``'s seed sequence).

    Use this to give sub-components (an opponent, a noise process) their own streams
    derived from the env's ``np_random``.
    """
    return list(rng.spawn(count))
