from __future__ import annotations

import numpy as np
import pytest

from envsuite.evaluation.metrics.aggregates import (
    aggregate_intervals,
    aggregate_iqm,
    aggregate_mean,
    aggregate_median,
    optimality_gap,
    score_matrix,
    stratified_bootstrap_interval,
    success_rate,
    trim_mean,
)
from tests.evaluation.metrics.record_factory import make_record


def test_mean_and_median_are_over_per_task_means() -> None:
    scores = [[1.0, 2.0, 9.0], [3.0, 6.0, 9.0]]  # task means 2, 4, 9
    assert aggregate_mean(scores) == 5.0
    assert aggregate_median(scores) == 4.0


def test_iqm_keeps_the_middle_half_of_all_runs() -> None:
    assert aggregate_iqm([[1, 2, 3, 4], [5, 6, 7, 8]]) == 4.5  # mean of 3, 4, 5, 6


def test_iqm_cuts_whole_values_like_scipy_trim_mean() -> None:
    # 6 scores: int(0.25 · 6) = 1 cut from each end, no interpolation: mean(3, 5, 7, 10)
    assert aggregate_iqm([[10, 1, 7], [3, 100, 5]]) == 6.25
    # 10 scores: int(2.5) = 2 cut from each end: mean(3..8)
    assert aggregate_iqm(np.arange(1, 11).reshape(2, 5)) == 5.5
    # 3 scores: int(0.75) = 0, nothing cut
    assert aggregate_iqm([[1, 2, 30]]) == 11.0


def test_trim_mean_checks_its_proportion() -> None:
    assert trim_mean([1, 2, 3, 4], 0.0) == 2.5
    with pytest.raises(ValueError):
        trim_mean([1, 2, 3], 0.5)
    with pytest.raises(ValueError):
        trim_mean([], 0.1)


def test_optimality_gap_clips_scores_at_gamma() -> None:
    scores = [[0.5, 1.2], [0.9, 0.0]]
    assert optimality_gap(scores) == pytest.approx(0.4, abs=1e-15)  # (0.5 + 0 + 0.1 + 1) / 4
    assert optimality_gap(scores, gamma=0.8) == pytest.approx(0.275, abs=1e-15)  # 1.1 / 4
    assert optimality_gap([[1.0, 2.0]]) == 0.0


def test_success_rate() -> None:
    assert success_rate([[1, 0], [1, 1]]) == 0.75
    assert success_rate(np.array([[True, False]])) == 0.5
    with pytest.raises(ValueError, match="0/1"):
        success_rate([[0.5, 1.0]])


def test_scores_must_be_a_matrix() -> None:
    with pytest.raises(ValueError, match="num_runs, num_tasks"):
        aggregate_mean([1.0, 2.0])


def test_stratified_bootstrap_never_mixes_tasks() -> None:
    scores = np.array([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]])
    interval = stratified_bootstrap_interval(
        scores, lambda m: float(m[:, 0].max()), reps=200, seed=1
    )
    assert (interval.low, interval.high) == (0.0, 0.0)
    mean = stratified_bootstrap_interval(scores, aggregate_mean, reps=200)
    assert (mean.low, mean.estimate, mean.high) == (0.5, 0.5, 0.5)


def test_stratified_bootstrap_is_seeded_and_contains_the_estimate() -> None:
    scores = np.random.default_rng(0).uniform(size=(10, 4))
    first = aggregate_intervals(scores, reps=300, seed=3)
    assert first == aggregate_intervals(scores, reps=300, seed=3)
    assert first != aggregate_intervals(scores, reps=300, seed=4)
    assert set(first) == {"mean", "median", "iqm", "optimality_gap"}
    for interval in first.values():
        assert interval.low < interval.estimate < interval.high
    assert first["iqm"].estimate == aggregate_iqm(scores)


def test_bad_bootstrap_arguments_raise() -> None:
    with pytest.raises(ValueError, match="reps"):
        stratified_bootstrap_interval([[1.0]], aggregate_mean, reps=0)
    with pytest.raises(ValueError, match="confidence"):
        stratified_bootstrap_interval([[1.0]], aggregate_mean, confidence=1.0)


def _records() -> list:
    records = []
    for seed, (ret_a, ret_b) in enumerate([(1.0, 10.0), (3.0, 20.0)]):
        records.append(
            make_record(
                env_id="envsuite/A-v0", seed=seed, episode_return=ret_a, success=True, score=0.5
            )
        )
        records.append(
            make_record(
                env_id="envsuite/B-v0",
                seed=seed + 10,
                episode_return=ret_b,
                success=seed == 0,
                score=1.0,
            )
        )
    # a second attempt on A seed 0, averaged with the first
    records.append(
        make_record(
            env_id="envsuite/A-v0", seed=0, attempt=1, episode_return=2.0, success=False, score=0.0
        )
    )
    records.append(
        make_record(env_id="envsuite/B-v0", seed=12, infra_error="env crash", episode_return=0.0)
    )
    return records


def test_score_matrix_has_runs_as_rows_and_tasks_as_columns() -> None:
    matrix, tasks = score_matrix(_records(), "return")
    assert [task[1] for task in tasks] == ["envsuite/A-v0", "envsuite/B-v0"]
    np.testing.assert_array_equal(matrix, [[1.5, 10.0], [3.0, 20.0]])
    success, _ = score_matrix(_records(), "success")
    np.testing.assert_array_equal(success, [[0.5, 1.0], [1.0, 0.0]])


def test_score_matrix_needs_as_many_seeds_per_task() -> None:
    records = [*_records(), make_record(env_id="envsuite/A-v0", seed=7, episode_return=0.0)]
    with pytest.raises(ValueError, match="different numbers of seeds"):
        score_matrix(records, "return")
    with pytest.raises(ValueError, match="records no score"):
        score_matrix([make_record()], "score")
