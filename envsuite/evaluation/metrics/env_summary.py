"""Per-env summaries of episode records: success rate, mean return and mean score with intervals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

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
from envsuite.evaluation.metrics.seed_means import per_seed_means
from envsuite.records import EpisodeRecord


@dataclass(frozen=True)
class EnvSummary:
    """Outcome statistics of one task (env configuration) from its records.

    Attributes:
        task: ``(task_id, env_id, canonical env_kwargs)``.
        n_episodes: Episodes that ran (infrastructure errors excluded).
        n_infra_errors: Episodes lost to infrastructure errors.
        success_rate: Fraction of episodes with ``success`` True, over the episodes that
            define success (per-seed fractions averaged over seeds), with a bootstrap
            interval over seeds; None when none does.
        mean_return: Mean episode return (over seeds of the per-seed means) with a
            bootstrap interval over seeds; None when no episode ran.
        mean_score: Mean ``score`` over episodes that define it, likewise; or None.

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
        Per task, the attempts at each seed are averaged first (they share a problem
        instance, so they are not independent draws), then the mean over seeds; intervals
        by the IID bootstrap over seeds
        (:func:`~envsuite.evaluation.metrics.bootstrap.bootstrap_interval`, percentile).
        With one attempt per seed this is the mean and bootstrap over episodes.

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

    def interval(pairs: list[tuple[int, float]]) -> Interval | None:
        """Mean over seeds of the per-seed means; the bootstrap redraws seeds."""
        if not pairs:
            return None
        episode_seeds = [episode_seed for episode_seed, _ in pairs]
        means = per_seed_means(np.array([value for _, value in pairs]), episode_seeds)
        return bootstrap_interval(means, reps=reps, confidence=confidence, seed=seed)

    summaries: dict[TaskKey, EnvSummary] = {}
    for task in sorted(by_task):
        normal, errors = split_infra_errors(by_task[task])
        summaries[task] = EnvSummary(
            task=task,
            n_episodes=len(normal),
            n_infra_errors=len(errors),
            success_rate=interval(
                [(r.seed, float(r.success)) for r in normal if r.success is not None]
            ),
            mean_return=interval([(r.seed, scalar_return(r, agent)) for r in normal]),
            mean_score=interval([(r.seed, float(r.score)) for r in normal if r.score is not None]),
        )
    return summaries
