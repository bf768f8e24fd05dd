"""Per-item rows: how each run did on each problem instance (each SWE task, ...).

An env class may name the item a seed's episode works on with a class method
``item_labels(kwargs, seeds) -> {seed: label}``, where ``kwargs`` are its constructor
arguments with defaults filled in (the SWE env returns each seed's instance id). For those
envs the report adds one row per item: the episodes of each run on it, how many succeeded
and how many were lost to infrastructure errors (counts, not statistics: the intervals are
in the outcome table). Everything comes from the records (``seed``, ``success``,
``infra_error``) plus the env's own rule for which item a seed picks; envs without the
method get no such rows.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from envsuite.errors import EnvsuiteError
from envsuite.evaluation.metrics.record_groups import TaskKey, split_infra_errors, task_label
from envsuite.records import EpisodeRecord
from envsuite.registry import registry

#: The env class method that names items.
ITEM_HOOK = "item_labels"


@dataclass(frozen=True)
class ItemResult:
    """One run's episodes on one item.

    Attributes:
        run: The run's label.
        ran: Episodes that ran.
        successes: Episodes that succeeded (``success`` true).
        infra_errors: Episodes lost to infrastructure errors.
    """

    run: str
    ran: int
    successes: int
    infra_errors: int

    def cell(self) -> str:
        """``successes/ran``, with infrastructure errors when there are any."""
        if not self.ran and not self.infra_errors:
            return "—"
        text = f"{self.successes}/{self.ran}"
        return text + (f" (+{self.infra_errors} infra)" if self.infra_errors else "")


@dataclass(frozen=True)
class ItemRow:
    """One item of one env configuration, with every run's result on it."""

    task: TaskKey
    item: str
    seeds: tuple[int, ...]
    results: tuple[ItemResult, ...]


def item_labels(task: TaskKey, seeds: Sequence[int]) -> dict[int, str]:
    """The env's label of each seed's item ({} when the env names none).

    Raises:
        ValueError: the env could not name them (its data is missing, a bad argument...).
    """
    try:
        spec = registry[task[1]]
        hook = getattr(spec.load(), ITEM_HOOK, None)
        if hook is None:
            return {}
        kwargs = spec.canonical_kwargs(json.loads(task[2]))
    except EnvsuiteError:
        return {}
    labels = hook(kwargs, sorted(set(seeds)))
    return {int(seed): str(label) for seed, label in labels.items()}


def item_rows(
    task: TaskKey, by_run: Sequence[tuple[str, Sequence[EpisodeRecord]]]
) -> tuple[list[ItemRow], str | None]:
    """The rows of ``task`` (each run's records, by run label); a note when there are none."""
    seeds = [record.seed for _, records in by_run for record in records]
    try:
        labels = item_labels(task, seeds)
    except (ValueError, OSError) as exc:
        return [], f"per-item rows of {task_label(task)} left out: {exc}"
    if not labels:
        return [], None
    seeds_of: dict[str, set[int]] = defaultdict(set)
    for seed, label in labels.items():
        seeds_of[label].add(seed)
    rows = []
    for label in sorted(seeds_of):
        mine = seeds_of[label]
        results = tuple(
            _result(run, [r for r in records if r.seed in mine]) for run, records in by_run
        )
        rows.append(ItemRow(task, label, tuple(sorted(mine)), results))
    return rows, None


def _result(run: str, records: list[EpisodeRecord]) -> ItemResult:
    normal, errors = split_infra_errors(records)
    return ItemResult(
        run=run,
        ran=len(normal),
        successes=sum(r.success is True for r in normal),
        infra_errors=len(errors),
    )
