"""Aggregate scores over runs and tasks the rliable way, with stratified bootstrap intervals.

Scores are a matrix of shape ``(num_runs, num_tasks)``: ``scores[r, m]`` is run (seed) r
on task m, as in rliable. :func:`score_matrix` builds that matrix from episode records;
:mod:`~envsuite.evaluation.metrics.env_summary` summarises records per env.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    FloatArray,
    Interval,
    check_bootstrap_args,
    percentile_interval,
)
from envsuite.evaluation.metrics.record_groups import (
    TaskKey,
    checked_records,
    scalar_return,
    split_infra_errors,
    task_key,
)
from envsuite.records import EpisodeRecord

ScoreField = Literal["success", "score", "return"]


def _matrix(scores: ArrayLike) -> FloatArray:
    matrix = np.asarray(scores, dtype=np.float64)
    if matrix.ndim != 2 or matrix.size == 0:
        raise ValueError(
            f"scores must be a non-empty (num_runs, num_tasks) matrix, got {matrix.shape}"
        )
    return matrix


def aggregate_mean(scores: ArrayLike) -> float:
    """Mean over tasks of the per-task mean score.

    Formula:
        (1 / M) Σ_m (1 / N) Σ_r x_{r,m} for N runs and M tasks.

    Source:
        Agarwal et al. (2021), "Deep Reinforcement Learning at the Edge of the Statistical
        Precipice", section 4.3; rliable ``rliable/metrics.py:aggregate_mean``.

    Args:
        scores: Matrix of shape (num_runs, num_tasks).

    Returns:
        The mean.

    Raises:
        ValueError: ``scores`` is not a non-empty 2-D matrix.

    """
    return float(np.mean(np.mean(_matrix(scores), axis=0)))


def aggregate_median(scores: ArrayLike) -> float:
    """Median over tasks of the per-task mean score.

    Formula:
        median_m (1 / N) Σ_r x_{r,m}.

    Source:
        Agarwal et al. (2021), section 4.3; rliable ``rliable/metrics.py:aggregate_median``.

    Args:
        scores: Matrix of shape (num_runs, num_tasks).

    Returns:
        The median.

    Raises:
        ValueError: ``scores`` is not a non-empty 2-D matrix.

    """
    return float(np.median(np.mean(_matrix(scores), axis=0)))


def trim_mean(values: ArrayLike, proportion_to_cut: float) -> float:
    """Mean after cutting the same number of values from each end of the sorted sample.

    Formula:
        With n values sorted ascending and g = ⌊proportion_to_cut · n⌋, the mean of the
        sorted values at positions g, ..., n − g − 1 (no interpolation of partial values).

    Source:
        ``scipy.stats.trim_mean`` (``scipy/stats/_stats_py.py``), whose semantics are
        replicated exactly: the cut count is ``int(proportiontocut * nobs)``.

    Args:
        values: The sample (flattened).
        proportion_to_cut: Fraction cut from each end, in [0, 0.5).

    Returns:
        The trimmed mean.

    Raises:
        ValueError: empty sample or ``proportion_to_cut`` outside [0, 0.5).

    """
    sample = np.sort(np.asarray(values, dtype=np.float64).ravel())
    if sample.size == 0:
        raise ValueError("trim_mean needs a non-empty sample")
    if not 0.0 <= proportion_to_cut < 0.5:
        raise ValueError(f"proportion_to_cut must be in [0, 0.5), got {proportion_to_cut}")
    cut = int(proportion_to_cut * sample.size)
    return float(np.mean(sample[cut : sample.size - cut]))


def aggregate_iqm(scores: ArrayLike) -> float:
    """Interquartile mean (IQM) over all runs and tasks together.

    Formula:
        :func:`trim_mean` with proportion 0.25 of the N·M flattened scores: the mean of
        the middle 50% of runs.

    Source:
        Agarwal et al. (2021), section 4.3; rliable ``rliable/metrics.py:aggregate_iqm``,
        which is ``scipy.stats.trim_mean(scores, proportiontocut=0.25, axis=None)``.

    Args:
        scores: Matrix of shape (num_runs, num_tasks).

    Returns:
        The IQM.

    Raises:
        ValueError: ``scores`` is not a non-empty 2-D matrix.

    """
    return trim_mean(_matrix(scores), 0.25)


def optimality_gap(scores: ArrayLike, gamma: float = 1.0) -> float:
    """Optimality gap: how far scores fall short of a target, over all runs and tasks.

    Formula:
        (1 / NM) Σ_{r,m} max(γ − x_{r,m}, 0) = γ − mean(min(x, γ)); scores above γ count
        as γ, so no task can make up for another.

    Source:
        Agarwal et al. (2021), section 4.3; rliable
        ``rliable/metrics.py:aggregate_optimality_gap`` (``gamma - np.mean(np.minimum(scores,
        gamma))``).

    Args:
        scores: Matrix of shape (num_runs, num_tasks).
        gamma: The target score γ (1 for normalised scores).

    Returns:
        The gap; 0 when every score reaches γ.

    Raises:
        ValueError: ``scores`` is not a non-empty 2-D matrix.

    """
    return float(np.mean(np.maximum(gamma - _matrix(scores), 0.0)))


def success_rate(successes: ArrayLike) -> float:
    """Fraction of successful episodes.

    Formula:
        (1 / NM) Σ_{r,m} 1[success_{r,m}]; with as many runs per task, this is also the
        mean over tasks of the per-task success rate.

    Source:
        The mean of binary scores, as rliable aggregates any score (Agarwal et al., 2021,
        section 4.3).

    Args:
        successes: Matrix (num_runs, num_tasks) of 0/1 or bool outcomes.

    Returns:
        The rate, in [0, 1].

    Raises:
        ValueError: not a non-empty 2-D matrix, or values other than 0 and 1.

    """
    matrix = _matrix(successes)
    if not np.all((matrix == 0.0) | (matrix == 1.0)):
        raise ValueError("successes must hold only 0/1 (or bool) values")
    return float(np.mean(matrix))


#: The aggregates :func:`aggregate_intervals` reports, by name.
AGGREGATES: dict[str, Callable[[FloatArray], float]] = {
    "mean": aggregate_mean,
    "median": aggregate_median,
    "iqm": aggregate_iqm,
    "optimality_gap": optimality_gap,
}


def stratified_bootstrap_interval(
    scores: ArrayLike,
    statistic: Callable[[FloatArray], float],
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> Interval:
    """Stratified bootstrap interval of an aggregate of a (num_runs, num_tasks) matrix.

    Formula:
        Each replicate redraws, for every task m independently, N runs with replacement
        from that task's N runs (tasks are strata and are never resampled), applies the
        statistic, and the interval is the percentile interval of the replicates.

    Source:
        Agarwal et al. (2021), section 4.1; rliable ``StratifiedBootstrap.update_indices``
        (``rliable/library.py``: draws run indices uniformly with replacement, indexing runs
        per cell, the task index stays fixed) with ``method="percentile"``. rliable's
        ``get_interval_estimates`` defaults to 50,000 reps; envsuite defaults to 2000, the
        number rliable uses for performance profiles.

    Args:
        scores: Matrix of shape (num_runs, num_tasks).
        statistic: Aggregate of a score matrix, e.g. :func:`aggregate_iqm`.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the :class:`numpy.random.Generator` drawing the resamples.

    Returns:
        The statistic on ``scores`` and its interval.

    Raises:
        ValueError: bad matrix, ``reps`` or ``confidence``.

    """
    check_bootstrap_args(reps, confidence)
    matrix = _matrix(scores)
    num_runs, num_tasks = matrix.shape
    rng = np.random.default_rng(seed)
    columns = np.arange(num_tasks)[np.newaxis, :]
    replicates = np.empty(reps)
    for rep in range(reps):
        rows = rng.integers(0, num_runs, size=(num_runs, num_tasks))
        replicates[rep] = statistic(matrix[rows, columns])
    low, high = percentile_interval(replicates, confidence)
    return Interval(float(statistic(matrix)), low, high, confidence)


def aggregate_intervals(
    scores: ArrayLike,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> dict[str, Interval]:
    """Mean, median, IQM and optimality gap (γ = 1), each with a stratified interval.

    Formula:
        :func:`stratified_bootstrap_interval` of each aggregate in :data:`AGGREGATES`,
        each drawn from a generator seeded with ``seed``.

    Source:
        Agarwal et al. (2021), section 4.3 (the four aggregates reported together);
        rliable ``get_interval_estimates``.

    Args:
        scores: Matrix of shape (num_runs, num_tasks).
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the bootstrap generator.

    Returns:
        Aggregate name -> interval.

    Raises:
        ValueError: bad matrix, ``reps`` or ``confidence``.

    """
    return {
        name: stratified_bootstrap_interval(
            scores, statistic, reps=reps, confidence=confidence, seed=seed
        )
        for name, statistic in AGGREGATES.items()
    }


def _record_value(record: EpisodeRecord, field: ScoreField, agent: str | None) -> float:
    if field == "return":
        return scalar_return(record, agent)
    value = record.success if field == "success" else record.score
    if value is None:
        raise ValueError(f"{record.env_id} seed {record.seed} records no {field}")
    return float(value)


def score_matrix(
    records: Iterable[EpisodeRecord], field: ScoreField = "score", *, agent: str | None = None
) -> tuple[FloatArray, list[TaskKey]]:
    """Build the (num_runs, num_tasks) matrix rliable aggregates from episode records.

    A task is ``(task_id, env_id, canonical env_kwargs)``; a run is a seed. A cell is the
    mean of ``field`` over that seed's attempts. Within a task, runs are ordered by seed;
    the stratified bootstrap never pairs runs across tasks, so seeds need not match across
    tasks, but every task needs the same number of seeds. Infrastructure errors are left out.

    Args:
        records: Episode records of one agent.
        field: ``"success"``, ``"score"`` or ``"return"`` (the episode return).
        agent: For multi-agent records with ``field="return"``, whose return to use.

    Returns:
        The matrix and the task of each column (sorted).

    Raises:
        ValueError: bad records, a record without the field, or tasks with different
            numbers of seeds (named in the message).

    """
    normal, _ = split_infra_errors(checked_records(records))
    cells: dict[TaskKey, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in normal:
        cells[task_key(record)][record.seed].append(_record_value(record, field, agent))
    if not cells:
        raise ValueError("every episode hit an infrastructure error; nothing to score")
    tasks = sorted(cells)
    seed_counts = {task: len(cells[task]) for task in tasks}
    if len(set(seed_counts.values())) > 1:
        raise ValueError(f"tasks have different numbers of seeds: {seed_counts}")
    columns = [
        [float(np.mean(cells[task][seed])) for seed in sorted(cells[task])] for task in tasks
    ]
    return np.array(columns, dtype=np.float64).T, tasks
