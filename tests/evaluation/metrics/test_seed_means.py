"""Per-seed means: one row per seed taken as it is equals averaging each seed's rows."""

from __future__ import annotations

import numpy as np

from envsuite.evaluation.metrics.seed_means import per_seed_means


def _averaged(values: np.ndarray, seeds: list[int]) -> np.ndarray:
    """The general rule: each seed's rows averaged with ``mean``, seeds ascending."""
    return np.stack([values[[i for i, s in enumerate(seeds) if s == seed]].mean(axis=0)
                     for seed in sorted(set(seeds))])  # fmt: skip


def test_one_row_per_seed_is_that_row_to_the_bit() -> None:
    rng = np.random.default_rng(0)
    special = [-0.0, np.nan, np.inf, -np.inf, 1e-310, 5e-324, 0.1 + 0.2]
    for shape in ((7,), (7, 3)):
        values = rng.normal(size=shape) * 1e3
        values[:, ...].flat[: len(special)] = special
        seeds = [5, 0, 3, 9, 1, 2, 4]  # every seed once, out of order
        got, expected = per_seed_means(values, seeds), _averaged(values, seeds)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert got.tobytes() == expected.tobytes()
        got[...] = 0.0  # a copy: the caller's values are left alone
        assert values.flat[0] == -0.0 and np.signbit(values.flat[0])


def test_seeds_with_several_rows_are_averaged() -> None:
    values = np.array([1.0, 2.0, 4.0, 8.0])
    assert per_seed_means(values, [1, 0, 1, 0]).tolist() == [5.0, 2.5]
    assert per_seed_means(values, [0, 0, 0, 0]).tolist() == [3.75]
