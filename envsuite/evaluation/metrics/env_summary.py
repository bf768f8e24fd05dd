"""Per-env summaries of episode records: success rate, mean return and mean score with intervals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    Interval,
    bootstrap_interval,
)
from envsuite.evaluation.metrics.record_groups import (
    TaskKey,
    checked_records,
    scalar_return,
    split_infra_errors,
    task_key,
)
from envsuite.records import EpisodeRecord


@dataclass(frozen=True)
class EnvSummary:
    """Outcome statistics of one task (env configuration) from its records.

    Attributes:
        task: ``(task_id, env_id, canonical env_kwargs)``.
        n_episodes: Episodes that ran (infrastructure errors excluded).
        n_infra_errors: Episodes lost to infrastructure errors.
        success_rate: Fraction of episodes with ``success`` True, over the episodes that
            define success, with a bootstrap interval; None when none does.
        mean_return: Mean episode return with a bootstrap interval; None when no episode
            ran.
        mean_score: Mean ``score`` over episodes that define it, with an interval; or None.

    """

    task: TaskKey
    n_episodes: int
    n_infra_errors: int
    success_rate: Interval | None
    mean_return: Interval | None
    mean_score: Interval | None


def summarize_by_env(
    records: Iterable[EpisodeRecord],
    *,
    agent: str | None = None,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> dict[TaskKey, EnvSummary]:
    """Success rate, mean return and mean score per task, each with a bootstrap interval.

    Formula:
        Per task, the mean over its episodes; intervals by the IID bootstrap over episodes
        (:func:`~envsuite.evaluation.metrics.bootstrap.bootstrap_interval`, percentile).

    Source:
        Efron & Tibshirani (1993), ch. 13; rliable's percentile intervals (Agarwal et al.,
        2021, section 4.1) with one task as the only stratum.

    Args:
        records: Episode records of one agent.
        agent: For multi-agent records, whose return to average.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the bootstrap generator (the same for every task).

    Returns:
        Task -> :class:`EnvSummary`, tasks sorted.

    Raises:
        ValueError: bad records (see ``record_groups.checked_records``) or a multi-agent
            return without ``agent``.

    """
    by_task: dict[TaskKey, list[EpisodeRecord]] = defaultdict(list)
    for record in checked_records(records):
        by_task[task_key(record)].append(record)

    def interval(values: list[float]) -> Interval | None:
        if not values:
            return None
        return bootstrap_interval(values, reps=reps, confidence=confidence, seed=seed)

    summaries: dict[TaskKey, EnvSummary] = {}
    for task in sorted(by_task):
        normal, errors = split_infra_errors(by_task[task])
        summaries[task] = EnvSummary(
            task=task,
            n_episodes=len(normal),
            n_infra_errors=len(errors),
            success_rate=interval([float(r.success) for r in normal if r.success is not None]),
            mean_return=interval([scalar_return(r, agent) for r in normal]),
            mean_score=interval([float(r.score) for r in normal if r.score is not None]),
        )
    return summaries
