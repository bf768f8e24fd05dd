"""Per-player episode metrics of multi-agent runs by agent, role and team.

Envs record per-player numbers as ``metrics["<seat>/<key>"]`` (a social game's belief
probe scores ``player_3/probe_brier``, its speaking reward ``player_3/speaking_reward``;
see each env's ``record_metrics``). This module averages each key over the seats of a
group (an agent, a role, a team, an agent in a role), crediting a seat's value to whoever
sat there, read from the record's ``agent_id`` as in
:mod:`~envsuite.evaluation.metrics.game_outcomes`. ``<seat>/success`` is left out (the
report has its own table for it). A seat that did not record a key (a player never
probed, a villager's ``deception``) is not in that key's count.
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
from envsuite.evaluation.metrics.game_outcomes import Dimension
from envsuite.evaluation.metrics.record_groups import checked_records, split_infra_errors
from envsuite.records import EpisodeRecord

#: The dimensions measures are grouped by (seats have their own per-seat table).
MEASURE_DIMENSIONS: tuple[Dimension, ...] = ("agent", "role", "team", "agent_role")
#: Per-seat keys left out (reported elsewhere).
EXCLUDED_KEYS = frozenset({"success"})


@dataclass(frozen=True)
class GroupMeasure:
    """The mean of one per-player metric over one group's seats.

    Attributes:
        key: The metric (``probe_brier``).
        dimension: What the group is.
        group: The group's name.
        episodes: Episodes in which a seat of the group recorded the key.
        seats: Seats of those episodes that recorded it.
        mean: Mean per seat, with its interval resampling episodes.
    """

    key: str
    dimension: Dimension
    group: str
    episodes: int
    seats: int
    mean: Interval


def _seat_values(record: EpisodeRecord) -> list[tuple[dict[Dimension, str | None], str, float]]:
    """Each (seat's groups, key, value) of the record's per-seat metrics."""
    by_seat: dict[str, dict[str, float]] = defaultdict(dict)
    for name, value in record.metrics.items():
        seat, slash, key = name.partition("/")
        if slash and key not in EXCLUDED_KEYS and seat in record.agents:
            by_seat[seat][key] = float(value)
    if not by_seat:
        return []
    seats = sorted(record.agents, key=seat_order)
    try:
        sitting = seat_agents(record.agent_id, seats)
    except LineupError as exc:
        raise ValueError(f"{record.env_id} seed {record.seed}: {exc}") from exc
    values = []
    for seat in sorted(by_seat, key=seat_order):
        entry = record.agents[seat]
        groups: dict[Dimension, str | None] = {
            "agent": sitting[seat],
            "seat": seat,
            "role": entry.role,
            "team": entry.team,
            "agent_role": None if entry.role is None else f"{sitting[seat]} as {entry.role}",
        }
        values += [(groups, key, value) for key, value in by_seat[seat].items()]
    return values


def group_measures(
    records: Iterable[EpisodeRecord],
    dimensions: Sequence[Dimension] = MEASURE_DIMENSIONS,
    *,
    reps: int = DEFAULT_REPS,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> list[GroupMeasure]:
    """Mean of each per-player metric per group along each dimension, episode-bootstrapped.

    Formula:
        For key k and group g, with S_e the sum of k over g's seats in episode e that
        recorded it and n_e their number: mean = Σ_e S_e / Σ_e n_e. Each bootstrap
        replicate draws those episodes with replacement and recomputes the ratio (seats
        of one episode are not independent); the interval is the percentile interval.
        Non-finite values are left out.

    Source:
        Efron & Tibshirani (1993), ch. 6 and 13 (a cluster bootstrap of a ratio mean).

    Args:
        records: Records of one run (one agent string, or the seatings of one lineup).
        dimensions: The dimensions to group by.
        reps: Bootstrap resamples.
        confidence: Coverage of the intervals.
        seed: Seed of the bootstrap generator (one generator per row, same seed).

    Returns:
        One :class:`GroupMeasure` per (key, dimension, group): keys sorted, then
        dimensions in the order given, then groups sorted. Empty when no record has a
        per-seat metric of a seat in ``record.agents``.

    Raises:
        ValueError: records that cannot be aggregated together, a malformed lineup, or
            bad ``reps`` / ``confidence``.
    """
    check_bootstrap_args(reps, confidence)
    normal, _ = split_infra_errors(checked_records(records))
    # key -> dimension -> group -> episode -> [sum, seats]
    totals: dict[str, dict[Dimension, dict[str, dict[int, list[float]]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(dict))
    )
    for episode, record in enumerate(normal):
        for groups, key, value in _seat_values(record):
            if not np.isfinite(value):
                continue
            for dimension in dimensions:
                group = groups[dimension]
                if group is None:
                    continue
                cell = totals[key][dimension][group].setdefault(episode, [0.0, 0.0])
                cell[0] += value
                cell[1] += 1.0
    rows: list[GroupMeasure] = []
    for key in sorted(totals):
        for dimension in dimensions:
            found = totals[key].get(dimension, {})
            for group in sorted(found, key=seat_order):
                cells = np.array(list(found[group].values()))
                sums, counts = cells[:, 0], cells[:, 1]
                rng = np.random.default_rng(seed)
                drawn = rng.integers(0, len(cells), size=(reps, len(cells)))
                replicates = sums[drawn].sum(axis=1) / counts[drawn].sum(axis=1)
                low, high = percentile_interval(replicates, confidence)
                rows.append(
                    GroupMeasure(
                        key=key,
                        dimension=dimension,
                        group=group,
                        episodes=len(cells),
                        seats=int(counts.sum()),
                        mean=Interval(float(sums.sum() / counts.sum()), low, high, confidence),
                    )
                )
    return rows
