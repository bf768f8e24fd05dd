"""The drone family's plain-float vector maths: numpy's results, to rounding, without BLAS."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.vector_math import (
    distance3,
    dot3,
    inverse,
    matvec_columns,
    norm3,
    times3,
    transpose_times3,
)


def test_three_vector_products_match_numpy() -> None:
    rng = np.random.default_rng(0)
    for _ in range(100):
        a, b = rng.normal(size=3), rng.normal(size=3)
        matrix = rng.normal(size=(3, 3))
        assert dot3(a, b) == pytest.approx(float(a @ b), rel=1e-12, abs=1e-15)
        assert norm3(a) == pytest.approx(float(np.linalg.norm(a)), rel=1e-15)
        assert distance3(a, b) == pytest.approx(float(np.linalg.norm(a - b)), rel=1e-15)
        rows = matrix.tolist()
        np.testing.assert_allclose(times3(rows, a.tolist()), matrix @ a, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(
            transpose_times3(rows, a.tolist()), matrix.T @ a, rtol=1e-12, atol=1e-15
        )


def test_sums_run_in_the_written_order() -> None:
    # 1e16 + 1 rounds to 1e16, so left to right these sum to 0; pairing the large terms
    # first (as a kernel summing in blocks might) gives 1.
    a, b = (1e16, 1.0, -1e16), (1.0, 1.0, 1.0)
    assert dot3(a, b) == 0.0
    assert transpose_times3([[1e16] * 3, [1.0] * 3, [-1e16] * 3], b) == (0.0, 0.0, 0.0)
    matrix = np.array([[1e16, 1.0, -1e16]] * 2)
    np.testing.assert_array_equal(matvec_columns(matrix, b), [0.0, 0.0])


@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_inverse_of_a_mixer(model_name: str) -> None:
    mixer = MODELS[model_name].mixer()
    result = inverse(mixer)
    expected = np.linalg.inv(mixer)
    np.testing.assert_allclose(result, expected, rtol=0, atol=1e-14 * np.abs(expected).max())
    np.testing.assert_allclose(result @ mixer, np.eye(4), atol=1e-14)


def test_inverse_refuses_a_singular_matrix() -> None:
    with pytest.raises(ValueError, match="singular"):
        inverse([[1.0, 2.0], [2.0, 4.0]])
