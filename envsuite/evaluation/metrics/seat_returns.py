"""Mean return of the agents of a multi-agent run by agent, seat, role and team.

A record's per-seat returns (``EpisodeRecord.agents``, or its per-agent
``episode_return`` for records without them) are credited to whoever sat in the seat,
read from the record's ``agent_id`` as in :mod:`~envsuite.evaluation.metrics.game_outcomes`.
So under a protocol's ``seat_rotation`` an agent's mean return averages over the seats it
played, where the per-seat means of the report mix every agent that sat there. This is
the number for games without winners (repeated matrix games, cooperative tasks), beside
the win rates of games with them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from envsuite.agents.lineup import LineupError, seat_agents, seat_order
from envsuite.evaluation.metrics.bootstrap import (
    DEFAULT_CONFIDENCE,
    DEFAULT_REPS,
    Interval,
    check_bootstrap_args,
    percentile_interval,
)
from envsuite.evaluation.metrics.game_outcomes import DIMENSIONS, Dimension
from envsuite.evaluation.metrics.record_groups import checked_records, split_infra_errors
from envsuite.records import EpisodeRecord


@dataclass(frozen=True)
class GroupReturn:
    """The mean return of one group (an agent, a seat, a role, a team, an agent in a role).

    Attributes:
        dimension: What the group is.
        group: The group's name.
        episodes: Episodes in which the group held a seat.
        trials: Seats of those episodes it held.
        mean_return: Mean return per seat held, with its interval resampling episodes.
    """

    dimension: Dimension
    group: str
    episodes: int
    trials: int
    mean_return: Interval


def _seat_groups(record: EpisodeRecord) -> list[tuple[dict[Dimension, str | None], float]]:
    """Each seat's groups along every dimension, and its return."""
    if record.agents:
        returns = {seat: entry.episode_return for seat, entry in record.agents.items()}
    elif isinstance(record.episode_return, dict):
        returns = dict(record.episode_return)
    else:
        return []
    seats = sorted(returns, key=seat_order)
    try:
        sitting = seat_agents(record.agent_id, seats)
    except LineupError as exc:
        raise ValueError(f"{record.env_id} seed {record.seed}: {exc}") from exc
    result = []
    for seat in seats:
        entry = record.agents.get(seat)
        role = entry.role if entry else None
        team = entry.team if entry else None
        groups: dict[Dimension, str | None] = {
            "agent": sitting[seat],
            "seat": seat,
            "role": role,
            "team": team,
            "agent_role": None if role is None else f"{sitting[seat]} as {role}",
        }
        result.append((groups, float(returns[seat])))
    return result


def group_returns(
    records: Iterable[EpisodeRecord],
    dimensions: Sequence[Dimension] = DIMENSIONS,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> list[GroupReturn]:
    """Mean return per seat held, per group along each dimension, with episode-bootstrap CIs.

    Formula:
        For group g, with S_e the sum of g's returns in episode e and n_e the seats g held
        there: mean = Σ_e S_e / Σ_e n_e over the episodes that ran. Each bootstrap
        replicate draws g's episodes with replacement and recomputes the ratio (episodes
        are the resampled unit: seats of one episode are not independent); the interval
        is the percentile interval.

    Source:
        Efron & Tibshirani (1993), ch. 6 and 13 (a cluster bootstrap of a ratio mean).

    Args:
        records: Records of one run (one agent string, or the seatings of one lineup).
        dimensions: The dimensions to group by, in the order rows come out.
        reps: Bootstrap resamples.
        confidence: Coverage of the intervals.
        seed: Seed of the bootstrap generator (one generator per group, same seed).

    Returns:
        One :class:`GroupReturn` per (dimension, group), groups sorted (seats in seat
        order); none for single-agent records.

    Raises:
        ValueError: records that cannot be aggregated together, a malformed lineup, or
            bad ``reps`` / ``confidence``.
    """
    check_bootstrap_args(reps, confidence)
    normal, _ = split_infra_errors(checked_records(records))
    seats = [_seat_groups(record) for record in normal]
    rows: list[GroupReturn] = []
    for dimension in dimensions:
        # group -> episode index -> (sum of returns, seats held)
        totals: dict[str, dict[int, list[float]]] = defaultdict(dict)
        for episode, held in enumerate(seats):
            for groups, value in held:
                group = groups[dimension]
                if group is None:
                    continue
                cell = totals[group].setdefault(episode, [0.0, 0.0])
                cell[0] += value
                cell[1] += 1.0
        for group in sorted(totals, key=seat_order):
            cells = np.array(list(totals[group].values()))
            sums, counts = cells[:, 0], cells[:, 1]
            rng = np.random.default_rng(seed)
            drawn = rng.integers(0, len(cells), size=(reps, len(cells)))
            replicates = sums[drawn].sum(axis=1) / counts[drawn].sum(axis=1)
            low, high = percentile_interval(replicates, confidence)
            estimate = float(sums.sum() / counts.sum())
            rows.append(
                GroupReturn(
                    dimension=dimension,
                    group=group,
                    episodes=len(cells),
                    trials=int(counts.sum()),
                    mean_return=Interval(estimate, low, high, confidence),
                )
            )
    return rows
