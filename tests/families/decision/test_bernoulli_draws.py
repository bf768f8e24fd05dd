"""``draw() < limits[i]`` is ``rng.random() < p_i``, and draws advance the generator as it does."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.decision.bernoulli_draws import bernoulli_draws

#: Probabilities at the edges of the comparison: 0, 1, the multiples of 2**-53 (where
#: ``random() < p`` and ``random() <= p`` differ), their neighbours, the smallest double.
EDGES = [
    0.0, 1.0, 0.5, 0.25, 0.2, 0.35, 0.8, 2.0**-53, 1.0 - 2.0**-53, 3 * 2.0**-53, 5e-324,
    float(np.nextafter(0.3, 1.0)), float(np.nextafter(0.3, 0.0)), float(np.nextafter(0.5, 0.0)),
]  # fmt: skip


def _twins(bits: type, seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    return np.random.Generator(bits(seed)), np.random.Generator(bits(seed))


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.PCG64DXSM])
def test_raw_draws_decide_as_random_does(bits: type) -> None:
    for seed in range(8):
        rng, twin = _twins(bits, seed)
        probabilities = [*EDGES, *np.random.default_rng(seed).random(20).tolist()]
        draw, limits = bernoulli_draws(rng, probabilities)
        assert draw == rng.bit_generator.random_raw  # the cheap draw is the one tested
        for _ in range(3000):
            raw, uniform = draw(), twin.random()
            # Every probability against the same draw, so edges meet many draws.
            assert [raw < limit for limit in limits] == [uniform < p for p in probabilities]
        assert rng.bit_generator.state == twin.bit_generator.state


def test_draws_near_a_limit_decide_as_random_does() -> None:
    """Probabilities a hair above and below drawn values, where an off-by-one would show."""
    rng, twin = _twins(np.random.PCG64, 99)
    values = np.random.Generator(np.random.PCG64(99)).random(500)
    near = [float(np.nextafter(v, d)) for v in values for d in (0.0, 1.0)] + values.tolist()
    draw, limits = bernoulli_draws(rng, near)
    for _ in range(500):
        raw, uniform = draw(), twin.random()
        assert [raw < limit for limit in limits] == [uniform < p for p in near]


@pytest.mark.parametrize("bits", [np.random.MT19937, np.random.Philox, np.random.SFC64])
def test_other_bit_generators_keep_random(bits: type) -> None:
    rng, twin = _twins(bits, 3)
    draw, limits = bernoulli_draws(rng, [0.2, 0.7])
    assert limits == [0.2, 0.7]
    assert [draw() for _ in range(100)] == [twin.random() for _ in range(100)]


def test_probabilities_outside_the_unit_interval_keep_random() -> None:
    rng = np.random.Generator(np.random.PCG64(0))
    assert bernoulli_draws(rng, [0.5, 1.5]) == (rng.random, [0.5, 1.5])
    assert bernoulli_draws(rng, [-0.1, 0.5]) == (rng.random, [-0.1, 0.5])


def test_a_generator_subclass_keeps_its_random() -> None:
    class Shifted(np.random.Generator):
        def random(self, *args: object, **kwargs: object) -> float:  # type: ignore[override]
            return 0.0

    rng = Shifted(np.random.PCG64(0))
    draw, limits = bernoulli_draws(rng, [0.5])
    assert draw() < limits[0]
    assert draw == rng.random
