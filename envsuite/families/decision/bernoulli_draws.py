"""Bernoulli draws ``rng.random() < p``, made with a cheaper call to the same generator.

On a PCG64 generator, ``Generator.random()`` takes the next 64 bits ``raw`` of the bit
generator and returns ``(raw >> 11) * 2**-53``. For an integer ``x < 2**53``,
``x * 2**-53 < p`` exactly when ``x < ceil(p * 2**53)`` (scaling by a power of two is
exact), so ``rng.random() < p`` is ``raw < ceil(p * 2**53) << 11``, with ``raw`` from
``rng.bit_generator.random_raw()``: the same 64 bits drawn, the generator left in the same
state, without ``random()``'s argument parsing, dtype check and release of the GIL. Other
generators (and subclasses of ``Generator``) keep ``random()``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

#: The bit generators whose ``random()`` double is the top 53 bits of ``random_raw()``.
_TOP_53_BITS = (np.random.PCG64, np.random.PCG64DXSM)


def bernoulli_draws(
    rng: np.random.Generator, probabilities: Sequence[float]
) -> tuple[Callable[[], Any], list[Any]]:
    """A draw and limits such that ``draw() < limits[i]`` is ``rng.random() < probabilities[i]``.

    Each ``draw()`` advances ``rng`` exactly as ``rng.random()`` does.

    Args:
        rng: The generator to draw from.
        probabilities: The probabilities of success (outside [0, 1], ``random()`` is kept).

    Returns:
        ``(draw, limits)``: ``random_raw`` of the bit generator and integer limits, or, for
        any other generator, ``rng.random`` and the probabilities themselves.
    """
    bits = rng.bit_generator
    if (
        type(rng) is np.random.Generator
        and type(bits) in _TOP_53_BITS
        and all(0.0 <= p <= 1.0 for p in probabilities)
    ):
        return bits.random_raw, [math.ceil(p * 2.0**53) << 11 for p in probabilities]
    return rng.random, list(probabilities)
