"""Board metrics recomputed from records: per-problem matrices and intervals per entry.

Every number a board shows comes from here, and everything here comes from envsuite's
metrics module applied to the records: :func:`score_matrix` for success, score and return,
:func:`regret_curves` for final regret, the pass@k estimators for pass@k and pass^k, and
the rliable aggregates with their stratified bootstrap for the intervals. A *problem* is a
task (env configuration) and a seed; the matrices have one row per seed and one column per
task, each cell the mean over that problem's attempts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from envsuite.evaluation.metrics import (
    aggregate_iqm,
    aggregate_mean,
    count_attempts,
    optimality_gap,
    pass_at_k_from_records,
    regret_curves,
    score_matrix,
    stratified_bootstrap_interval,
)
from envsuite.evaluation.metrics.bootstrap import FloatArray, Interval
from envsuite.evaluation.metrics.pass_at_k import Estimator, per_problem
from envsuite.evaluation.metrics.record_groups import TaskKey, split_infra_errors, task_key
from envsuite.records import EpisodeRecord


@dataclass(frozen=True)
class MetricDef:
    """How a board metric is aggregated and which way is better.

    Attributes:
        name: The metric name (``success_rate``, ``regret``, ``pass@5``, ...).
        higher_is_better: Whether larger values rank higher.
        statistic: The aggregate of a (seeds, tasks) matrix (rliable's mean, IQM or gap).
    """

    name: str
    higher_is_better: bool
    statistic: Callable[[FloatArray], float]


def metric_def(name: str) -> MetricDef:
    """The definition of a board metric.

    Raises:
        ValueError: a metric boards cannot rank or tabulate.
    """
    if name == "iqm_score":
        return MetricDef(name, True, aggregate_iqm)
    if name == "optimality_gap":
        return MetricDef(name, False, optimality_gap)
    if name == "regret":
        return MetricDef(name, False, aggregate_mean)
    if name in ("success_rate", "mean_return", "mean_score") or name.startswith(("pass@", "pass^")):
        return MetricDef(name, True, aggregate_mean)
    raise ValueError(f"boards cannot aggregate metric {name!r}")


def seats(records: Sequence[EpisodeRecord]) -> list[str]:
    """The agent names of multi-agent records ([] for single-agent records)."""
    first = records[0].episode_return
    return sorted(first) if isinstance(first, dict) else []


def _by_problem(records: Sequence[EpisodeRecord]) -> dict[TaskKey, dict[int, list[EpisodeRecord]]]:
    normal, _ = split_infra_errors(list(records))
    groups: dict[TaskKey, dict[int, list[EpisodeRecord]]] = defaultdict(lambda: defaultdict(list))
    for record in normal:
        groups[task_key(record)][record.seed].append(record)
    return groups


def _regret_matrix(records: Sequence[EpisodeRecord]) -> tuple[FloatArray, list[TaskKey]]:
    """Final cumulative regret per problem (mean over attempts, and over seats if several)."""
    curves = [f"{seat}/regret" for seat in seats(records)] or ["regret"]
    groups = _by_problem(records)
    tasks = sorted(groups)
    columns = []
    for task in tasks:
        column = []
        for seed in sorted(groups[task]):
            finals = [regret_curves(groups[task][seed], curve)[:, -1].mean() for curve in curves]
            column.append(float(np.mean(finals)))
        columns.append(column)
    return np.array(columns, dtype=np.float64).T, tasks


def _pass_matrix(records: Sequence[EpisodeRecord], name: str) -> tuple[FloatArray, list[TaskKey]]:
    """pass@k (or pass^k) per problem, from the attempt counts."""
    estimator: Estimator = "pass@k" if name.startswith("pass@") else "pass^k"
    k = int(name[5:])
    counts = [problem for problem in count_attempts(records) if problem.n > 0]
    values = per_problem([p.n for p in counts], [p.c for p in counts], k, estimator=estimator)
    cells: dict[TaskKey, dict[int, float]] = defaultdict(dict)
    for problem, value in zip(counts, values, strict=True):
        cells[problem.problem[:3]][problem.problem[3]] = float(value)
    tasks = sorted(cells)
    columns = [[cells[task][seed] for seed in sorted(cells[task])] for task in tasks]
    return np.array(columns, dtype=np.float64).T, tasks


def problem_matrix(records: Sequence[EpisodeRecord], name: str) -> tuple[FloatArray, list[TaskKey]]:
    """The (seeds, tasks) matrix of a metric's per-problem values for one entry.

    Raises:
        ValueError: the records cannot give the metric (no success flag, no regret curve,
            fewer than k attempts, ...), with the reason.
    """
    if name == "success_rate":
        return score_matrix(records, "success")
    if name in ("mean_score", "iqm_score", "optimality_gap"):
        return score_matrix(records, "score")
    if name == "mean_return":
        names = seats(records)
        if not names:
            return score_matrix(records, "return")
        per_seat = [score_matrix(records, "return", agent=seat) for seat in names]
        return np.mean([matrix for matrix, _ in per_seat], axis=0), per_seat[0][1]
    if name == "regret":
        return _regret_matrix(records)
    if name.startswith(("pass@", "pass^")):
        return _pass_matrix(records, name)
    raise ValueError(f"boards cannot aggregate metric {name!r}")


def metric_interval(
    records: Sequence[EpisodeRecord], name: str, *, reps: int, confidence: float, seed: int
) -> Interval:
    """One entry's value of a board metric with its 95% (``confidence``) interval.

    pass@k uses :func:`pass_at_k_from_records` (bootstrap over problems); every other
    metric the stratified bootstrap of its aggregate over the problem matrix (tasks are
    strata, seeds are resampled within them).
    """
    if name.startswith("pass@"):
        return pass_at_k_from_records(
            records, int(name[5:]), reps=reps, confidence=confidence, seed=seed
        ).pass_at_k
    if name.startswith("pass^"):
        return pass_at_k_from_records(
            records, int(name[5:]), reps=reps, confidence=confidence, seed=seed
        ).pass_hat_k
    matrix, _ = problem_matrix(records, name)
    return stratified_bootstrap_interval(
        matrix, metric_def(name).statistic, reps=reps, confidence=confidence, seed=seed
    )
