from __future__ import annotations

import math

import numpy as np
import pytest

from envsuite.evaluation.metrics.bootstrap import Interval, bootstrap_interval, percentile_interval


def test_percentile_interval_is_linear_interpolation() -> None:
    assert percentile_interval(np.arange(101.0), 0.9) == pytest.approx((5.0, 95.0), abs=1e-12)
    assert percentile_interval([0.0, 1.0], 0.5) == (0.25, 0.75)


def test_percentile_interval_ignores_nan_replicates() -> None:
    assert percentile_interval([np.nan, 1.0, 1.0], 0.95) == (1.0, 1.0)
    low, high = percentile_interval([np.nan, np.nan])
    assert math.isnan(low) and math.isnan(high)
    with pytest.raises(ValueError, match="confidence"):
        percentile_interval([1.0], 0.0)


def test_bootstrap_interval_is_seeded_and_contains_the_mean() -> None:
    sample = np.random.default_rng(5).normal(size=40)
    first = bootstrap_interval(sample, seed=2, reps=500)
    assert first == bootstrap_interval(sample, seed=2, reps=500)
    assert first != bootstrap_interval(sample, seed=3, reps=500)
    assert first.estimate == pytest.approx(float(sample.mean()))
    assert first.low < first.estimate < first.high
    assert first.confidence == 0.95


def test_bootstrap_interval_of_a_constant_sample_is_a_point() -> None:
    assert bootstrap_interval([2.0, 2.0, 2.0], reps=50) == Interval(2.0, 2.0, 2.0, 0.95)
    with pytest.raises(ValueError, match="non-empty"):
        bootstrap_interval([])
    with pytest.raises(ValueError, match="reps"):
        bootstrap_interval([1.0], reps=0)


def test_interval_contains() -> None:
    interval = Interval(1.0, 0.5, 2.0, 0.95)
    assert interval.contains(0.5) and interval.contains(2.0)
    assert not interval.contains(2.01)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 200, 201, 3001])
def test_blocked_mean_replicates_are_the_loops(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mean's replicates drawn in blocks equal the per-resample loop's, to the bit."""
    from envsuite.evaluation.metrics import bootstrap

    sample = np.random.default_rng(n).normal(size=n) * 1e3 + 1e-3
    rng = np.random.default_rng(4)
    looped = np.array([np.mean(sample[rng.integers(0, n, size=n)]) for _ in range(500)])
    monkeypatch.setattr(bootstrap, "MEAN_BLOCK_VALUES", 97)  # many blocks, uneven sizes
    blocked = bootstrap.mean_replicates(sample, np.random.default_rng(4), 500)
    assert blocked.tobytes() == looped.tobytes()
    fast = bootstrap.bootstrap_interval(sample, reps=500, seed=4)
    slow = bootstrap.bootstrap_interval(sample, lambda a: float(np.mean(a)), reps=500, seed=4)
    assert fast == slow


def test_the_pass_at_k_interval_is_the_one_draw_of_every_resample() -> None:
    """Drawn in blocks, pass@k's resamples are those of one (reps, problems) draw."""
    from envsuite.evaluation.metrics.bootstrap import percentile_interval
    from envsuite.evaluation.metrics.pass_at_k import pass_at_k_interval, per_problem

    n, c = [5] * 300, [i % 6 for i in range(300)]
    values = per_problem(n, c, 2)
    draws = np.random.default_rng(3).integers(0, 300, size=(2000, 300))
    low, high = percentile_interval(values[draws].mean(axis=1))
    interval = pass_at_k_interval(n, c, 2, seed=3)
    assert (interval.low, interval.high) == (low, high)
