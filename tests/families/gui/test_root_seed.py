"""``root_seed`` draws exactly what ``int(rng.integers(0, 2**63))`` draws (seeded streams kept)."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.gui.gui_env import root_seed


@pytest.mark.parametrize("seed", [0, 1, 17, 2**40 + 3])
def test_root_seed_equals_numpy_integers_over_many_draws(seed: int) -> None:
    ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
    # A whole vector of the fast draws against numpy's one call per draw.
    fast = [root_seed(ours) for _ in range(100_000)]
    slow = [int(numpys.integers(0, 2**63)) for _ in range(100_000)]
    assert fast == slow
    assert max(fast) < 2**63 and min(fast) >= 0


def test_root_seed_leaves_the_generator_where_numpy_would() -> None:
    ours, numpys = np.random.default_rng(5), np.random.default_rng(5)
    for step in range(2_000):
        # Interleaved with draws that use PCG64's 32-bit buffer and its 64-bit words.
        if step % 3 == 0:
            assert int(ours.integers(7)) == int(numpys.integers(7))
        if step % 5 == 0:
            assert ours.random() == numpys.random()
        assert root_seed(ours) == int(numpys.integers(0, 2**63))
    assert ours.bit_generator.state == numpys.bit_generator.state


def test_root_seed_of_another_bit_generator_takes_numpys_path() -> None:
    ours = np.random.Generator(np.random.MT19937(3))
    numpys = np.random.Generator(np.random.MT19937(3))
    assert [root_seed(ours) for _ in range(1_000)] == [
        int(numpys.integers(0, 2**63)) for _ in range(1_000)
    ]
