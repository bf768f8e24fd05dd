"""The on-policy runs of a selection: disjoint seed lists, run directories, mean returns.

Logged, budget and true-value episodes use disjoint seed lists derived from the root seed
with :func:`~envsuite.seeding.derive_seed` under the keys ``"select-logged"``,
``"select-budget"`` and ``"select-true"`` (never ``seed + index``); a derived seed equal to
one already taken is skipped, so no list repeats a seed and no two lists share one. Each
(purpose, policy) runs in its own run directory under ``OUT/runs``, so an interrupted
selection resumes where it stopped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from envsuite.evaluation.policy_selection.candidates import Candidate
from envsuite.evaluation.policy_selection.config import SelectionConfig, SelectionError
from envsuite.evaluation.protocol import EnvEntry, TaskProtocol
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord
from envsuite.seeding import derive_seed


def disjoint_seeds(seed: int, counts: dict[str, int]) -> dict[str, list[int]]:
    """``counts[purpose]`` distinct seeds per purpose, no seed in two lists (see the module doc).

    Example:
        >>> lists = disjoint_seeds(0, {"logged": 3, "true": 2})
        >>> len(set(lists["logged"]) | set(lists["true"]))
        5
    """
    taken: set[int] = set()
    lists: dict[str, list[int]] = {}
    for purpose, count in counts.items():
        chosen: list[int] = []
        index = 0
        while len(chosen) < count:
            value = derive_seed(seed, f"select-{purpose}", index)
            index += 1
            if value not in taken:
                taken.add(value)
                chosen.append(value)
        lists[purpose] = chosen
    return lists


def slug(text: str) -> str:
    """``text`` as a lowercase folder name (``[a-z0-9._-]``, at most 60 characters)."""
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-")[:60] or "agent"


def discounted_return(record: EpisodeRecord, gamma: float) -> float:
    """The record's return Σ_t γ^t r_t (from its trace when γ < 1).

    Raises:
        SelectionError: a multi-agent record (per-agent rewards).
    """
    rewards = [step.reward for step in record.trace]
    total = record.episode_return
    if not isinstance(total, int | float) or any(isinstance(r, dict) for r in rewards):
        raise SelectionError("policy selection takes single-agent records (one reward a step)")
    if gamma == 1.0:
        return float(total)
    return math.fsum(gamma**t * float(r) for t, r in enumerate(rewards) if not isinstance(r, dict))


class PolicyRuns:
    """Runs agents over seed lists in run directories under ``OUT/runs``."""

    def __init__(self, config: SelectionConfig, out: Path, run: Callable[..., Any]) -> None:
        self.config, self.out, self.run = config, out, run
        self.values: dict[str, tuple[float, float]] = {}

    def records(self, candidate: Candidate, seeds: list[int], folder: str) -> list[EpisodeRecord]:
        """Run ``candidate`` on ``seeds`` in ``OUT/runs/FOLDER``; its records in seed order."""
        protocol = TaskProtocol(
            id=f"select-{folder.split('/')[0]}",
            envs=[EnvEntry(id=self.config.env_id, kwargs=self.config.env_kwargs)],
            seeds=seeds,
        )
        result = self.run(
            protocol, candidate.agent, self.out / "runs" / folder, agent_options=candidate.options
        )
        order = {seed: i for i, seed in enumerate(seeds)}
        return sorted(result.records, key=lambda record: order[record.seed])

    def value(self, candidate: Candidate, seeds: list[int], folder: str) -> tuple[float, float]:
        """Mean (discounted) return and its standard error, over episodes without infra errors."""
        key = folder.split("/")[0] + canonical_json([candidate.agent, candidate.options])
        if key not in self.values:
            records = self.records(candidate, seeds, folder)
            returns = np.array(
                [discounted_return(r, self.config.gamma) for r in records if r.infra_error is None]
            )
            if returns.size == 0:
                raise SelectionError(f"every {folder} episode of {candidate.name!r} failed")
            stderr = (
                float(returns.std(ddof=1) / np.sqrt(returns.size)) if returns.size > 1 else math.nan
            )
            self.values[key] = (float(returns.mean()), stderr)
        return self.values[key]
