"""Checks of a submission's records against its board: version lock, completeness, consistency.

Each function raises its own error (see :mod:`envsuite.leaderboard.errors`) naming the first
offending episode, so a submitter knows exactly what to fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from envsuite.jsonable import canonical_json
from envsuite.leaderboard.board import BoardVersion
from envsuite.leaderboard.errors import (
    DUPLICATE_EPISODE,
    ENV_NOT_PINNED,
    ENVSUITE_VERSION,
    EXTRA_EPISODES,
    MISSING_EPISODES,
    SPEC_HASH,
    CompletenessError,
    ConsistencyError,
    VersionLockError,
)
from envsuite.leaderboard.panel_metrics import entry_agent
from envsuite.leaderboard.pins import spec_hash_under
from envsuite.leaderboard.submission import EnvLock, SubmissionMeta
from envsuite.records import EpisodeRecord, Reward

EpisodeKey = tuple[str, str, str, int, int]


def _describe(key: EpisodeKey) -> str:
    task, env_id, kwargs, seed, attempt = key
    return f"{task}: {env_id} {kwargs} seed {seed} attempt {attempt}"


def check_version_lock(board: BoardVersion, records: Sequence[EpisodeRecord]) -> None:
    """Every record's env is pinned by the board, from an accepted envsuite, with its hash.

    Raises:
        VersionLockError: an env id (e.g. a bumped ``-vN``) or configuration the board does
            not pin, an envsuite release outside the board's series, or a spec hash that is
            not the one the pinned env has under the record's envsuite release.
    """
    lock = board.settings.envsuite
    pinned = ", ".join(sorted({pin.id for pin in board.settings.envs}))
    for record in records:
        kwargs = canonical_json(record.env_kwargs)
        pin = board.pin_for(record.env_id, kwargs)
        if pin is None:
            raise VersionLockError(
                ENV_NOT_PINNED.format(
                    env_id=record.env_id, kwargs=kwargs, board=board.label, pinned=pinned
                )
            )
        if not lock.accepts(record.envsuite_version):
            raise VersionLockError(
                ENVSUITE_VERSION.format(
                    actual=record.envsuite_version,
                    board=board.label,
                    compatible=", ".join(f"{s}.x" for s in lock.compatible),
                )
            )
        expected = spec_hash_under(pin, record.envsuite_version)
        if record.spec_hash != expected:
            raise VersionLockError(
                SPEC_HASH.format(
                    env_id=record.env_id,
                    kwargs=kwargs,
                    seed=record.seed,
                    actual=record.spec_hash,
                    expected=expected,
                    version=record.envsuite_version,
                )
            )


def expected_keys(board: BoardVersion) -> list[EpisodeKey]:
    """Every episode the board's protocol asks for: env entries x seeds x attempts.

    On a panel board every seed is played against each opponent from every seat, so its
    attempts run to ``seats x opponents x attempts`` (see :mod:`envsuite.evaluation.protocol`).
    """
    protocol = board.protocol
    return [
        (protocol.id, entry.id, canonical_json(entry.kwargs), seed, attempt)
        for entry in protocol.envs
        for seed in protocol.seed_values()
        for attempt in range(
            protocol.plays_per_seed("", entry) if board.panel else protocol.attempts
        )
    ]


def check_completeness(board: BoardVersion, records: Sequence[EpisodeRecord]) -> None:
    """Exactly the protocol's episodes, each once: nothing missing, extra or doubled.

    Raises:
        CompletenessError: a duplicated, missing or extra episode (the first one named).
    """
    seen: set[EpisodeKey] = set()
    for record in records:
        if record.key in seen:
            raise CompletenessError(DUPLICATE_EPISODE.format(example=_describe(record.key)))
        seen.add(record.key)
    wanted = expected_keys(board)
    missing = [key for key in wanted if key not in seen]
    if missing:
        raise CompletenessError(
            MISSING_EPISODES.format(count=len(missing), example=_describe(missing[0]))
        )
    extra = sorted(seen - set(wanted))
    if extra:
        raise CompletenessError(
            EXTRA_EPISODES.format(count=len(extra), example=_describe(extra[0]))
        )


def _sequential_totals(record: EpisodeRecord) -> Reward:
    """The return the runner computes from the trace: rewards added in step order."""
    if isinstance(record.episode_return, dict):
        totals = dict.fromkeys(record.episode_return, 0.0)
        for step in record.trace:
            rewards: Any = step.reward
            for name, reward in rewards.items() if isinstance(rewards, dict) else ():
                if name not in totals:
                    return {"<unknown agent>": 0.0}
                totals[name] += float(reward)
        return totals
    total = 0.0
    for step in record.trace:
        if isinstance(step.reward, dict):
            return float("nan")
        total += float(step.reward)
    return total


#: Stand-ins the runner stores for an action it cannot keep whole: no JSON form, or over
#: the trace's size cap (see :mod:`envsuite.evaluation.episode_runner`). Neither can be replayed.
_STAND_INS = ("unserialisable", "trace_cut")


def _unserialisable(action: Any) -> bool:
    if isinstance(action, dict):
        return any(key in action for key in _STAND_INS) or any(
            _unserialisable(v) for v in action.values()
        )
    return False


def check_consistency(
    board: BoardVersion,
    meta: SubmissionMeta,
    lock: EnvLock,
    records: Sequence[EpisodeRecord],
) -> None:
    """Records agree with each other, with ``submission.yaml`` and with ``env_lock.json``.

    One agent, one run and one envsuite release throughout; attempts as the board asks;
    every record carries a full, replayable trace whose rewards add up to its return; infra
    errors within the board's limit.

    Raises:
        ConsistencyError: the first contradiction found.
    """
    where = f"{board.label} submission {meta.name!r}"
    if meta.board != board.name or meta.board_version != board.version:
        raise ConsistencyError(
            f"{where}: submission.yaml names {meta.board} v{meta.board_version}, not this board"
        )
    if meta.attempts_k != board.protocol.attempts:
        raise ConsistencyError(
            f"{where}: attempts_k is {meta.attempts_k}; the board runs "
            f"{board.protocol.attempts} attempt(s) per problem"
        )
    if board.panel:
        agent = entry_agent(board.protocol, records, where)
        if agent != meta.agent:
            raise ConsistencyError(
                f"{where}: the records' games against the panel are played by {agent!r}, "
                f"submission.yaml names {meta.agent!r}"
            )
    agent_ids = {meta.agent} if board.panel else {r.agent_id for r in records} | {meta.agent}
    for field, values in (
        ("agent_id", agent_ids),
        ("run_id", {r.run_id for r in records} | {meta.run_id}),
        ("envsuite_version", {r.envsuite_version for r in records} | {lock.envsuite_version}),
    ):
        if len(values) > 1:
            raise ConsistencyError(
                f"{where}: records, submission.yaml and env_lock.json disagree on "
                f"{field}: {sorted(values)}"
            )
    if meta.envsuite_version != lock.envsuite_version:
        raise ConsistencyError(f"{where}: submission.yaml and env_lock.json name other releases")
    locked = {(env.id, canonical_json(env.kwargs), env.spec_hash) for env in lock.envs}
    used = {(r.env_id, canonical_json(r.env_kwargs), r.spec_hash) for r in records}
    if locked != used:
        raise ConsistencyError(f"{where}: env_lock.json does not list the envs the records use")
    errors = sum(record.infra_error is not None for record in records)
    if errors > board.settings.limits.max_infra_error_fraction * len(records):
        raise ConsistencyError(
            f"{where}: {errors} of {len(records)} episodes are infra errors, over the board's "
            f"limit of {board.settings.limits.max_infra_error_fraction:.0%}; rerun them"
        )
    for record in records:
        _check_record(record)


def _check_record(record: EpisodeRecord) -> None:
    name = f"{record.env_id} {canonical_json(record.env_kwargs)} seed {record.seed}"
    name += f" attempt {record.attempt}"
    if record.infra_error is not None:
        return
    if len(record.trace) != record.length:
        raise ConsistencyError(
            f"{name}: length {record.length} but its trace has {len(record.trace)} steps "
            "(a submission needs full traces: run without disabling record_trace)"
        )
    for number, step in enumerate(record.trace, start=1):
        if _unserialisable(step.action):
            raise ConsistencyError(
                f"{name}: step {number} holds an action that could not be recorded whole "
                "(no JSON form, or over the trace's size cap), so the episode cannot be replayed"
            )
    if _sequential_totals(record) != record.episode_return:
        raise ConsistencyError(
            f"{name}: episode_return {record.episode_return} is not the sum of the trace's "
            f"rewards ({_sequential_totals(record)})"
        )
