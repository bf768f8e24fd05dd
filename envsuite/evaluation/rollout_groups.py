"""GRPO groups of a rollout: where each episode sits, and each group's return statistics.

A group is one env, kwargs, seed and seating; its members differ only in the model's
sampling (see :mod:`envsuite.evaluation.rollout`).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from envsuite.evaluation.game_rollout import chat_seats
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord


@dataclass(frozen=True)
class GroupSummary:
    """The returns of one GRPO group (one env, one seed, ``size`` members).

    Attributes:
        env_id: The env.
        env_kwargs: Its kwargs.
        seed: The env seed every member reset with.
        group: The group's index.
        size: Members recorded.
        infra_errors: Members that hit infra errors (left out of the statistics).
        mean_return: Mean return of the other members (None if none).
        std_return: Their sample standard deviation (``ddof=1``, as TRL's GRPOTrainer
            computes the group std of its advantages; None under two members).
    """

    env_id: str
    env_kwargs: dict[str, Any]
    seed: int
    group: int
    size: int
    infra_errors: int
    mean_return: float | None
    std_return: float | None


@dataclass(frozen=True)
class GroupLayout:
    """Where an episode sits among the groups: seed index, seating, member.

    Attributes:
        seeds: Env seed -> its index in the protocol's seeds.
        size: Members per group (the protocol's attempts).
        seatings: Seatings per seed (1 without seat rotation).
    """

    seeds: Mapping[int, int]
    size: int = 1
    seatings: int = 1

    def place(self, job: EpisodeJob) -> tuple[int, int]:
        """(group, member) of ``job``.

        Seating ``s``, repeat ``m`` of seed index ``i`` is member ``m`` of group
        ``i * seatings + s``.
        """
        seating, member = divmod(job.attempt, self.size)
        return self.seeds.get(job.seed, 0) * self.seatings + seating, member


def member_return(record: EpisodeRecord) -> float:
    """A record's return as its group compares it: a game's, the mean of its chat seats'."""
    if not isinstance(record.episode_return, Mapping):
        return float(record.episode_return)
    seats = chat_seats(record.agent_id, list(record.episode_return)) or record.episode_return
    return statistics.fmean(float(record.episode_return[seat]) for seat in seats)


def group_summaries(
    records: Sequence[EpisodeRecord], groups: Mapping[int, int] | None = None
) -> list[GroupSummary]:
    """Mean and sample std of the return of each group, in seed order.

    A group is an (env, kwargs, seed, seating); a member's return is
    :func:`member_return`. Its index is the one in ``agent_info["rollout"]``, else
    ``groups`` (seed -> index), else the seed's rank.
    """
    by_group: dict[tuple[str, str, int, str], list[EpisodeRecord]] = {}
    for record in records:
        key = (record.env_id, canonical_json(record.env_kwargs), record.seed, record.agent_id)
        by_group.setdefault(key, []).append(record)
    ranks = {seed: rank for rank, seed in enumerate(sorted({r.seed for r in records}))}
    summaries = []
    for (env_id, kwargs, seed, _), members in sorted(
        by_group.items(), key=lambda item: (item[0][:3], min(m.attempt for m in item[1]))
    ):
        returns = [member_return(m) for m in members if m.infra_error is None]
        info = members[0].agent_info.get("rollout")
        index = info.get("group") if isinstance(info, dict) else None
        if index is None and groups is not None:
            index = groups.get(seed)
        summaries.append(
            GroupSummary(
                env_id=env_id,
                env_kwargs=json.loads(kwargs),
                seed=seed,
                group=int(index) if isinstance(index, int) else ranks[seed],
                size=len(members),
                infra_errors=len(members) - len(returns),
                mean_return=statistics.fmean(returns) if returns else None,
                std_return=statistics.stdev(returns) if len(returns) > 1 else None,
            )
        )
    return summaries
