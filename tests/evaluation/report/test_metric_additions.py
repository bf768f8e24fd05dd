"""The metrics added for reports: seed-level means, curve bands, MinFrac from traces."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.evaluation.metrics import bootstrap_interval
from envsuite.evaluation.metrics.curve_band import curve_band
from envsuite.evaluation.metrics.exploration_actions import min_frac_from_records
from envsuite.evaluation.metrics.seed_means import field_value, metric_value, seed_mean_interval
from envsuite.records import Step
from tests.evaluation.metrics.record_factory import make_record


def outcomes(*per_seed: list[bool | None]):
    return [
        make_record(seed=seed, attempt=attempt, success=success, episode_return=float(seed))
        for seed, successes in enumerate(per_seed)
        for attempt, success in enumerate(successes)
    ]


def test_seed_mean_averages_attempts_then_seeds_and_resamples_seeds():
    records = outcomes([True, False, True], [False])
    result = seed_mean_interval(records, field_value("success"), seed=0)
    assert result is not None
    assert result.interval.estimate == pytest.approx((2 / 3 + 0.0) / 2)
    assert (result.n_episodes, result.n_seeds) == (4, 2)
    # resampling the two seed means {2/3, 0} never gives more than 2/3; resampling the
    # four episodes would reach 1
    assert result.interval.low >= 0.0 and result.interval.high <= 2 / 3 + 1e-12


def test_seed_mean_leaves_out_undefined_values_and_infra_errors():
    records = [
        *outcomes([True, None], [False, False]),
        make_record(seed=2, success=True, infra_error="crash", stop_reason="infra_error"),
    ]
    result = seed_mean_interval(records, field_value("success"))
    assert result is not None
    assert result.interval.estimate == pytest.approx(0.5)
    assert (result.n_episodes, result.n_seeds) == (3, 2)
    assert seed_mean_interval(records, field_value("score")) is None


def test_seed_mean_reads_returns_per_player_and_metrics():
    records = [
        make_record(seed=0, episode_return={"a": 1.0, "b": 3.0}, metrics={"a/success": 1.0}),
        make_record(seed=1, episode_return={"a": 2.0, "b": 5.0}, metrics={"a/success": 0.0}),
    ]
    player_b = seed_mean_interval(records, field_value("return", "b"))
    assert player_b is not None and player_b.interval.estimate == pytest.approx(4.0)
    success_a = seed_mean_interval(records, metric_value("a/success"))
    assert success_a is not None and success_a.interval.estimate == pytest.approx(0.5)
    with pytest.raises(ValueError, match="per-agent returns"):
        seed_mean_interval(records, field_value("return"))


def test_seed_mean_refuses_records_of_several_tasks():
    records = [make_record(seed=0), make_record(seed=0, env_kwargs={"horizon": 5})]
    with pytest.raises(ValueError, match="2 tasks"):
        seed_mean_interval(records, field_value("return"))


def test_curve_band_mean_and_final_interval_match_the_bootstrap():
    rng = np.random.default_rng(1)
    curves = np.cumsum(rng.random((12, 40)), axis=1)
    band = curve_band(curves, seed=7, points=10)
    assert band.steps[0] == 1 and band.steps[-1] == 40 and band.steps.size == 10
    np.testing.assert_allclose(band.mean, curves[:, band.steps - 1].mean(axis=0))
    assert np.all(band.low <= band.mean) and np.all(band.mean <= band.high)
    final = bootstrap_interval(curves[:, -1], seed=7)
    assert band.low[-1] == pytest.approx(final.low) and band.high[-1] == pytest.approx(final.high)
    again = curve_band(curves, seed=7, points=10)
    np.testing.assert_array_equal(band.low, again.low)
    assert not np.array_equal(band.low, curve_band(curves, seed=8, points=10).low)


def test_curve_band_of_identical_curves_has_no_width():
    band = curve_band(np.tile(np.arange(1.0, 6.0), (3, 1)))
    np.testing.assert_array_equal(band.low, band.high)
    np.testing.assert_array_equal(band.steps, np.arange(1, 6))
    with pytest.raises(ValueError, match="matrix"):
        curve_band(np.arange(3.0))


def trace(actions):
    return [Step(action=a, reward=0.0) for a in actions]


def test_min_frac_from_integer_traces():
    records = [
        make_record(seed=0, trace=trace([0, 0, 1, 1])),  # arm 2 never pulled
        make_record(seed=1, trace=trace([0, 1, 2, 0, 1, 2])),  # uniform
        make_record(seed=2, infra_error="x", stop_reason="infra_error"),
    ]
    np.testing.assert_allclose(min_frac_from_records(records, 3), [0.0, 1.0])
    np.testing.assert_allclose(min_frac_from_records(records, 3, normalize=False), [0.0, 1 / 3])


def test_min_frac_refuses_text_traces():
    with pytest.raises(ValueError, match="not integer arms"):
        min_frac_from_records([make_record(trace=trace(["blue", "red"]))], 5)
