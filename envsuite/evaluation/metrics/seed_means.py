"""Means of one task's episodes with intervals that resample seeds, not episodes.

With several attempts per seed, the attempts at one seed share a problem instance and are
not independent draws; resampling episodes would treat them as such and give intervals
that are too narrow. Here each seed's attempts are first averaged, and the bootstrap
redraws seeds: rliable's stratified bootstrap with the task as the only stratum.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from envsuite.evaluation.metrics.aggregates import (
    ScoreField,
    aggregate_mean,
    stratified_bootstrap_interval,
)
from envsuite.evaluation.metrics.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_REPS, Interval
from envsuite.evaluation.metrics.record_groups import (
    checked_records,
    scalar_return,
    split_infra_errors,
    task_key,
)
from envsuite.records import EpisodeRecord

#: Reads one number from a record, or None where the record does not define it.
RecordValue = Callable[[EpisodeRecord], "float | None"]


def field_value(field: ScoreField, agent: str | None = None) -> RecordValue:
    """Return a reader of ``success`` (as 0/1), ``score`` or the episode return.

    Args:
        field: ``"success"``, ``"score"`` or ``"return"``.
        agent: For multi-agent records and ``field="return"``, whose return to read.

    Returns:
        A function of a record; it gives None where ``success``/``score`` is undefined.

    """

    def read(record: EpisodeRecord) -> float | None:
        if field == "return":
            return scalar_return(record, agent)
        value = record.success if field == "success" else record.score
        return None if value is None else float(value)

    return read


def metric_value(name: str) -> RecordValue:
    """Return a reader of ``record.metrics[name]`` (None where the record lacks it)."""

    def read(record: EpisodeRecord) -> float | None:
        return record.metrics.get(name)

    return read


def per_seed_means(values: np.ndarray, seeds: list[int]) -> np.ndarray:
    """Average the rows of ``values`` that share a seed: one row per seed.

    Args:
        values: One row per episode, ``(E, ...)``.
        seeds: The episodes' seeds, in the rows' order.

    Returns:
        ``(S, ...)``, one row per distinct seed in ascending seed order, whatever order the
        rows came in (a bootstrap drawing row indices then resamples the same seeds for
        any order of the records).

    Raises:
        ValueError: ``seeds`` and ``values`` differ in length.
    """
    values = np.asarray(values, dtype=np.float64)
    if len(seeds) != len(values):
        raise ValueError(f"{len(seeds)} seeds for {len(values)} rows")
    rows: dict[int, list[int]] = defaultdict(list)
    for row, seed in enumerate(seeds):
        rows[seed].append(row)
    if not rows:
        return values
    order = sorted(rows)
    if len(order) == len(seeds):
        # One row per seed (one attempt each, the usual run): the mean of one row is that
        # row to the bit once added to 0.0 (numpy's sum starts there, which turns -0.0
        # into 0.0; the division by 1 changes nothing), so the rows are taken that way
        # instead of averaging each alone, which cost a run's summary milliseconds.
        return values[[rows[seed][0] for seed in order]] + 0.0
    return np.stack([values[rows[seed]].mean(axis=0) for seed in order])


@dataclass(frozen=True)
class SeedMean:
    """A task's mean of one per-episode number, with its interval and where it came from.

    Attributes:
        interval: The mean over seeds of the per-seed means, with its interval.
        n_episodes: Episodes the number was read from (ran and defined it).
        n_seeds: Seeds those episodes cover (the units resampled).

    """

    interval: Interval
    n_episodes: int
    n_seeds: int


def seed_mean_interval(
    records: Iterable[EpisodeRecord],
    value: RecordValue,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> SeedMean | None:
    """Mean of a per-episode number over one task's seeds, with a bootstrap over seeds.

    Formula:
        x̄_s = mean of the value over the attempts at seed s that define it;
        estimate = (1 / S) Σ_s x̄_s over the S seeds with at least one such attempt
        (with as many attempts at every seed, the plain mean over episodes). The interval
        is the percentile interval of the estimate over resamples of the S seeds drawn
        with replacement. Infrastructure errors are left out.

    Source:
        Agarwal et al. (2021), "Deep Reinforcement Learning at the Edge of the Statistical
        Precipice", section 4.1 (stratified bootstrap; here one task, so one stratum);
        :func:`~envsuite.evaluation.metrics.aggregates.stratified_bootstrap_interval`
        with :func:`~envsuite.evaluation.metrics.aggregates.aggregate_mean`.

    Args:
        records: Episode records of one agent on one task (env configuration).
        value: Reads the number from a record (see :func:`field_value`,
            :func:`metric_value`); None leaves the record out.
        reps: Bootstrap resamples.
        confidence: Nominal coverage in (0, 1).
        seed: Seed of the bootstrap generator.

    Returns:
        A :class:`SeedMean`, or None when no episode that ran defines the value.

    Raises:
        ValueError: bad records (see ``record_groups.checked_records``), records of more
            than one task, or as ``value`` raises (e.g. a multi-agent return without agent).

    """
    items = checked_records(records)
    tasks = {task_key(record) for record in items}
    if len(tasks) > 1:
        raise ValueError(f"records span {len(tasks)} tasks; pass one task's records")
    normal, _ = split_infra_errors(items)
    pairs = sorted(
        (
            (record.seed, float(number))
            for record in normal
            if (number := value(record)) is not None
        ),
        key=lambda pair: pair[0],  # stable: attempts keep their order within a seed
    )
    if not pairs:
        return None
    means = per_seed_means(np.array([v for _, v in pairs]), [s for s, _ in pairs])
    interval = stratified_bootstrap_interval(
        means[:, None], aggregate_mean, reps=reps, confidence=confidence, seed=seed
    )
    return SeedMean(interval=interval, n_episodes=len(pairs), n_seeds=len(means))
