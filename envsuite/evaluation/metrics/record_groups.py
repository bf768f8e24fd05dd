"""Grouping episode records into the units metrics count: tasks, problems and runs.

The adapters of every metric share these rules, so a number means the same thing in every
report:

* a *task* is ``(task_id, env_id, canonical env_kwargs)`` — one configuration of one env;
* a *problem* is a task together with a seed — one instance, attempted one or more times;
* records must come from one agent, and no episode (task, seed, attempt) may appear twice;
  the seatings of one lineup (``player_0=a,player_1=b`` and ``player_0=b,player_1=a``,
  from a protocol's ``seat_rotation``) are one agent: one run played them all;
* records with ``infra_error`` set are infrastructure failures, never agent failures: the
  adapters leave them out of every statistic and count them separately;
* records are taken in one canonical order (task, seed, attempt), never in the order a file
  or an executor delivered them: ``--workers``, Ray and a resumed run write episodes in
  different orders, and a bootstrap that draws row indices would otherwise resample
  different units, so the same records would give different intervals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from envsuite.agents.lineup import LineupError, is_lineup, is_panel_agent, parse_lineup
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord

#: ``(task_id, env_id, env_kwargs as canonical JSON)``.
TaskKey = tuple[str, str, str]
#: ``(task_id, env_id, env_kwargs as canonical JSON, seed)``.
ProblemKey = tuple[str, str, str, int]


def task_key(record: EpisodeRecord) -> TaskKey:
    """Return the task a record belongs to: ``(task_id, env_id, canonical kwargs)``."""
    return (record.task_id, record.env_id, canonical_json(record.env_kwargs))


def problem_key(record: EpisodeRecord) -> ProblemKey:
    """Return the problem a record attempts: its task and its seed."""
    return (*task_key(record), record.seed)


def record_order(record: EpisodeRecord) -> tuple[str, str, str, int, int, str, str]:
    """Sort key of the canonical record order: task, seed, attempt (then agent, run).

    Within one agent's checked records (see :func:`checked_records`) task, seed and attempt
    already tell every record apart; agent and run id make the order total for any records.
    """
    return (*problem_key(record), record.attempt, record.agent_id, record.run_id)


def task_label(key: TaskKey) -> str:
    """Human-readable name of a task: the env id, with its kwargs when there are any."""
    task_id, env_id, kwargs = key
    name = env_id if kwargs == "{}" else f"{env_id} {kwargs}"
    return f"{task_id}: {name}" if task_id else name


def lineup_identity(agent_id: str) -> str:
    """What the seatings of one lineup share: its seats and the agents in them, unplaced.

    ``player_0=a,player_1=b`` and ``player_0=b,player_1=a`` give the same identity; a plain
    agent string (or a malformed lineup) is its own identity. A panel's reference
    opponents (``panel:AGENT``) are not part of it: the plays of one agent against every
    opponent of a panel are one agent's records.
    """
    if not is_lineup(agent_id):
        return agent_id
    try:
        seats = parse_lineup(agent_id)
    except LineupError:
        return agent_id
    agents = sorted(a for a in seats.values() if not is_panel_agent(a))
    return canonical_json({"seats": sorted(seats), "agents": agents})


def checked_records(records: Iterable[EpisodeRecord]) -> list[EpisodeRecord]:
    """Return the records in canonical order after checking they can be aggregated together.

    The order is :func:`record_order`'s (task, seed, attempt), whatever order the records
    came in, so every metric computed from the returned list is the same for any
    permutation of the same records.

    Raises:
        ValueError: no records, records from more than one agent (seatings of one lineup
            are one agent: see :func:`lineup_identity`), or an episode (task, seed,
            attempt) recorded twice.

    """
    items = list(records)
    if not items:
        raise ValueError("no records to compute a metric from")
    identities = {lineup_identity(record.agent_id) for record in items}
    agents = sorted({record.agent_id for record in items})
    if len(identities) > 1:
        raise ValueError(f"records come from several agents {agents}; compute metrics per agent")
    seen: set[tuple[str, str, str, int, int]] = set()
    for record in items:
        key = (*problem_key(record), record.attempt)
        if key in seen:
            raise ValueError(f"episode recorded twice: {key}")
        seen.add(key)
    return sorted(items, key=record_order)


def split_infra_errors(
    records: Sequence[EpisodeRecord],
) -> tuple[list[EpisodeRecord], list[EpisodeRecord]]:
    """Split records into ``(ran normally, infrastructure errors)``."""
    normal = [record for record in records if record.infra_error is None]
    errors = [record for record in records if record.infra_error is not None]
    return normal, errors


def scalar_return(record: EpisodeRecord, agent: str | None = None) -> float:
    """Return a record's episode return as one number.

    Args:
        record: The record.
        agent: For multi-agent records (per-agent returns), the agent whose return to use.

    Raises:
        ValueError: a multi-agent return without ``agent``, or ``agent`` not in it.

    """
    value = record.episode_return
    if isinstance(value, dict):
        if agent is None:
            raise ValueError(
                f"{record.env_id} records per-agent returns {sorted(value)}; pass agent=..."
            )
        if agent not in value:
            raise ValueError(f"agent {agent!r} not among {sorted(value)} in {record.env_id}")
        return float(value[agent])
    return float(value)
