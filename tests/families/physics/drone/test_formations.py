"""Formation shapes: the right number of slots, never closer than the spacing."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.physics.drone.formations import FORMATIONS, formation_offsets


@pytest.mark.parametrize("formation", FORMATIONS)
@pytest.mark.parametrize("count", [1, 2, 3, 5, 10, 16])
def test_slots_keep_their_spacing(formation, count):
    offsets = formation_offsets(formation, count, 0.4)
    assert offsets.shape == (count, 3)
    assert np.all(offsets[:, 2] == 0.0)
    distances = np.linalg.norm(offsets[:, None] - offsets[None, :], axis=-1)
    np.fill_diagonal(distances, np.inf)
    if count > 1:
        assert distances.min() == pytest.approx(0.4) or distances.min() > 0.4


def test_ring_neighbours_are_exactly_the_spacing_apart():
    offsets = formation_offsets("ring", 6, 0.5)
    assert np.linalg.norm(offsets[0] - offsets[1]) == pytest.approx(0.5)


def test_unknown_formation_is_refused():
    with pytest.raises(ValueError, match="ring"):
        formation_offsets("diamond", 4, 0.4)
