"""Each episode's task generator: numpy's own streams, derived with less of numpy's glue.

A GUI env draws a 63-bit root from its generator and gives the task
``Generator(PCG64(SeedSequence(root, spawn_key=key)))``, ``key`` fixed per task type (see
:meth:`~envsuite.families.gui.gui_env.GuiEnv.new_episode`). numpy's path spends most of
its time in Python-level glue (turning the root and the key into 32-bit word arrays and
joining them, an ``errstate`` context and array conversions in ``generate_state``), as
much as a small form's whole instance costs to draw. :class:`TaskSeeder` makes the same
generator in fewer steps:

- numpy's ``SeedSequence`` mixes its *assembled entropy*: the root's 32-bit words (least
  significant first), padded with zeros to the pool size (4) because a spawn key
  follows, then the spawn key's words. A ``SeedSequence`` given exactly those words as
  one ``uint32`` array (and no spawn key) assembles the same words, so its pool is the
  same; the key's words are split once per task type.
- ``generate_state(4, uint64)`` hashes the pool into eight 32-bit words (numpy's
  ``hashmix`` with the constant sequence ``INIT_B``, ``MULT_B``) read as four
  little-endian 64-bit words; computed here in plain Python.
- ``PCG64`` is built from a seed sequence that hands it those four words.

The generator, its state and every number it draws are numpy's
(``tests/families/gui/test_task_seeding.py`` compares the two paths over many roots,
states and draws); the bit generator's ``seed_seq`` answers everything else (other state
sizes, ``spawn``, ``entropy``, ``spawn_key``) from numpy's own ``SeedSequence(root,
spawn_key=key)``, built when first asked.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.random.bit_generator import ISpawnableSeedSequence

_MASK32 = 0xFFFFFFFF
#: numpy's ``generate_state`` hash constants (``bit_generator.pyx``).
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_POOL_SIZE = 4


def _words(value: int) -> list[int]:
    """``value``'s 32-bit words, least significant first (``[0]`` for 0), as numpy splits it."""
    if value < 0:
        raise ValueError(f"seed words must be non-negative; got {value}")
    if value == 0:
        return [0]
    words = []
    while value:
        words.append(value & _MASK32)
        value >>= 32
    return words


def _state_constants() -> list[int]:
    """The ``generate_state`` hash constant before each of its 8 calls, and after the last."""
    constants = [_INIT_B]
    for _ in range(2 * _POOL_SIZE):
        constants.append((constants[-1] * _MULT_B) & _MASK32)
    return constants


_B = _state_constants()


def state_words(pool: list[int]) -> list[int]:
    """``generate_state(4, np.uint64)`` of a seed sequence whose pool is ``pool``.

    Written out: hash ``i`` takes pool word ``i % 4``, xors the constant ``b[i]``,
    multiplies by ``b[i + 1]`` (mod 2**32) and xors its own top 16 bits down.
    """
    p0, p1, p2, p3 = pool
    b0, b1, b2, b3, b4, b5, b6, b7, b8 = _B
    m = _MASK32
    w0 = ((p0 ^ b0) * b1) & m
    w1 = ((p1 ^ b1) * b2) & m
    w2 = ((p2 ^ b2) * b3) & m
    w3 = ((p3 ^ b3) * b4) & m
    w4 = ((p0 ^ b4) * b5) & m
    w5 = ((p1 ^ b5) * b6) & m
    w6 = ((p2 ^ b6) * b7) & m
    w7 = ((p3 ^ b7) * b8) & m
    return [
        (w0 ^ w0 >> 16) | (w1 ^ w1 >> 16) << 32,
        (w2 ^ w2 >> 16) | (w3 ^ w3 >> 16) << 32,
        (w4 ^ w4 >> 16) | (w5 ^ w5 >> 16) << 32,
        (w6 ^ w6 >> 16) | (w7 ^ w7 >> 16) << 32,
    ]


class TaskSeeder:
    """Builds ``Generator(PCG64(SeedSequence(root, spawn_key=spawn_key)))`` for many roots.

    Args:
        spawn_key: The fixed spawn key (non-negative ints, at least one).
    """

    def __init__(self, spawn_key: tuple[int, ...]) -> None:
        self.spawn_key = tuple(int(k) for k in spawn_key)
        self._spawn_words = [word for k in self.spawn_key for word in _words(k)]
        if not self._spawn_words:
            raise ValueError("TaskSeeder needs a spawn key (the root is padded because of it)")

    def entropy(self, root: int) -> list[int]:
        """The entropy words numpy's ``SeedSequence(root, spawn_key=...)`` mixes."""
        run = _words(root)
        if len(run) < _POOL_SIZE:
            run += [0] * (_POOL_SIZE - len(run))
        return run + self._spawn_words

    def generator(self, root: int) -> np.random.Generator:
        """A new ``Generator(PCG64(SeedSequence(root, spawn_key=self.spawn_key)))``."""
        mixed = np.random.SeedSequence(np.array(self.entropy(root), dtype=np.uint32))
        words = state_words(mixed.pool.tolist())
        return np.random.Generator(np.random.PCG64(_KnownSeedSequence(self, root, words)))


class _KnownSeedSequence(ISpawnableSeedSequence):
    """``SeedSequence(root, spawn_key=...)`` whose 4 x 64-bit state is already known.

    Anything else (other state sizes, ``spawn``, the attributes numpy's class has) is
    answered by numpy's own ``SeedSequence``, built on first use.
    """

    __slots__ = ("_real", "_root", "_seeder", "_words")

    def __init__(self, seeder: TaskSeeder, root: int, words: list[int]) -> None:
        self._seeder = seeder
        self._root = root
        self._words = words
        self._real: np.random.SeedSequence | None = None

    def real(self) -> np.random.SeedSequence:
        """Numpy's ``SeedSequence`` of the same root and spawn key."""
        if self._real is None:
            self._real = np.random.SeedSequence(self._root, spawn_key=self._seeder.spawn_key)
        return self._real

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        """The seed words (known for PCG64's request, else numpy's)."""
        if n_words == _POOL_SIZE and dtype is np.uint64:
            return np.array(self._words, dtype=np.uint64)
        return self.real().generate_state(n_words, dtype)

    def spawn(self, n_children: int) -> list[Any]:
        """Numpy's children of this seed sequence."""
        return self.real().spawn(n_children)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.real(), name)


def root_seed(rng: np.random.Generator) -> int:
    """``int(rng.integers(0, 2**63))``, the same number, without numpy's per-call cost.

    For a ``PCG64`` generator that call draws one 64-bit word ``w`` and returns
    ``(w * 2**63) >> 64`` (Lemire's method on the range ``2**63``, which never rejects:
    its threshold ``2**64 % 2**63`` is 0), that is ``w >> 1``; ``random_raw`` draws the
    same word (``PCG64``'s raw output is its 64-bit output). Other bit generators take
    numpy's own path.
    """
    bits = rng.bit_generator
    if type(bits) is np.random.PCG64:
        return int(bits.random_raw()) >> 1
    return int(rng.integers(0, 2**63))
