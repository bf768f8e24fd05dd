"""Reading run directories for a report: records, run metadata, and the checks between runs.

A run directory (see :mod:`envsuite.evaluation.run_directory`) holds ``run.json`` (agent and task
protocol) and ``episodes.jsonl`` (the records). Everything a report says is computed from
the records; ``run.json`` only labels the run and says how many episodes the protocol
asks for, so a partly done run can be reported as what it holds.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from envsuite.errors import EnvsuiteError
from envsuite.evaluation.metrics.record_groups import TaskKey, checked_records, task_key
from envsuite.evaluation.protocol import ProtocolError, TaskProtocol
from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.evaluation.run_directory import RUN_FILE
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord, RecordFileError, read_records

#: Longest error message about a bad records line, in characters.
MESSAGE_LENGTH = 300
#: Protocol fields that do not change which episodes run or what they yield.
PRESENTATION_FIELDS = frozenset({"description", "metrics"})


class ReportError(EnvsuiteError, ValueError):
    """Run directories that cannot be reported (together), with the reason in one line."""


@dataclass(frozen=True)
class Run:
    """One run directory, loaded.

    Attributes:
        path: The directory.
        label: How tables and plots name the run (the agent, made unique if needed).
        agent: The agent string of ``run.json`` (or the records' agent id without it).
        run_id: The run id of ``run.json`` (None without it).
        protocol: The task protocol of ``run.json`` (None without it).
        records: Every record in ``episodes.jsonl``, in canonical order (task, seed,
            attempt; see ``record_groups.record_order``), never in file order.
        notes: What the reader should know about the run (missing ``run.json``, ...).

    """

    path: Path
    label: str
    agent: str
    run_id: str | None
    protocol: TaskProtocol | None
    records: list[EpisodeRecord]
    notes: tuple[str, ...] = ()

    @property
    def expected_episodes(self) -> int | None:
        """Episodes the protocol asks for (envs x seeds x seatings x attempts); None without it."""
        if self.protocol is None:
            return None
        return sum(self.expected_by_task().values())

    def expected_by_task(self) -> dict[TaskKey, int]:
        """Episodes the protocol asks for, per task (empty without a protocol).

        With seat rotation, each seed is played once per seating of the run's agent string.
        """
        if self.protocol is None:
            return {}
        expected = {}
        for entry in self.protocol.envs:
            try:
                plays = self.protocol.plays_per_seed(self.agent, entry)
            except ProtocolError:  # an agent string the run could not have run
                plays = self.protocol.attempts
            key = (self.protocol.id, entry.id, canonical_json(entry.kwargs))
            expected[key] = len(self.protocol.seed_values()) * plays
        return expected


def _one_line(message: str) -> str:
    """Collapse a multi-line message (pydantic's) into one short line.

    Doc links and pydantic's ``[type=..., input_value=...]`` echoes of the bad line go;
    what is left is cut at :data:`MESSAGE_LENGTH` characters.
    """
    parts = [part.strip() for part in message.splitlines()]
    text = " ".join(p for p in parts if p and not p.startswith("For further information"))
    text = re.sub(r"\s*\[type=[^\]]*\]", "", text)
    return text if len(text) <= MESSAGE_LENGTH else text[: MESSAGE_LENGTH - 1] + "…"


def _read_records(path: Path) -> list[EpisodeRecord]:
    file = path / RECORDS_FILE
    if not file.is_file():
        raise ReportError(f"{path} holds no {RECORDS_FILE}; is it a run directory?")
    try:
        records = read_records(file)
    except RecordFileError as exc:
        raise ReportError(_one_line(str(exc))) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"cannot read {file}: {exc}") from exc
    if not records:
        raise ReportError(f"{file} holds no episode records (the run has not finished one)")
    return records


def _read_run_file(path: Path) -> dict[str, Any] | None:
    file = path / RUN_FILE
    if not file.exists():
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{file} is unreadable: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("agent"), str):
        raise ReportError(f"{file} is not a run file (no 'agent' string)")
    return data


def _protocol(data: dict[str, Any], file: Path) -> TaskProtocol | None:
    if "protocol" not in data:
        return None
    try:
        return TaskProtocol.model_validate(data["protocol"])
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ReportError(f"{file}: protocol is not valid ({where}: {first['msg']})") from exc


def load_run(path: str | Path) -> Run:
    """Read one run directory.

    Args:
        path: The run directory.

    Returns:
        The :class:`Run`, labelled by its agent.

    Raises:
        ReportError: a missing directory, a missing or empty ``episodes.jsonl``, a line
            that is not a record (file and line named), an unreadable ``run.json``,
            records of several agents or task protocols, or an episode recorded twice.

    """
    directory = Path(path)
    if not directory.exists():
        raise ReportError(f"{directory}: no such run directory")
    if not directory.is_dir():
        raise ReportError(f"{directory} is not a directory; give a run directory")
    records = _read_records(directory)
    try:
        records = checked_records(records)
    except ValueError as exc:
        raise ReportError(f"{directory / RECORDS_FILE}: {exc}") from exc
    task_ids = sorted({record.task_id for record in records})
    if len(task_ids) > 1:
        raise ReportError(
            f"{directory / RECORDS_FILE} mixes records of several task protocols {task_ids}"
        )
    meta = _read_run_file(directory)
    notes: list[str] = []
    if meta is None:
        notes.append(
            f"{directory} has no {RUN_FILE}: labelled by the records' agent id; the number "
            "of episodes its protocol asks for is unknown"
        )
        agent = records[0].agent_id
        return Run(directory, agent, agent, None, None, records, tuple(notes))
    protocol = _protocol(meta, directory / RUN_FILE)
    if protocol is None:
        notes.append(
            f"{directory / RUN_FILE} names no protocol: the number of episodes it asks for "
            "is unknown"
        )
    if protocol is not None and task_ids[0] != protocol.id:
        raise ReportError(
            f"{directory}: records are of task {task_ids[0]!r} but {RUN_FILE} names task "
            f"protocol {protocol.id!r}"
        )
    run_id = meta.get("run_id")
    return Run(
        path=directory,
        label=meta["agent"],
        agent=meta["agent"],
        run_id=run_id if isinstance(run_id, str) else None,
        protocol=protocol,
        records=records,
        notes=tuple(notes),
    )


def _protocol_fields(protocol: TaskProtocol) -> dict[str, Any]:
    dumped = protocol.model_dump(mode="json")
    return {k: v for k, v in dumped.items() if k not in PRESENTATION_FIELDS}


def check_same_protocol(runs: Sequence[Run]) -> None:
    """Check that runs compared in one report ran one task protocol.

    Runs with ``run.json`` must have protocols equal in everything that decides which
    episodes run (description and metric list aside); runs without it must at least
    record the same task id.

    Raises:
        ReportError: naming the two runs and what differs.

    """
    first = runs[0]
    for other in runs[1:]:
        if first.protocol is not None and other.protocol is not None:
            mine, theirs = _protocol_fields(first.protocol), _protocol_fields(other.protocol)
            differ = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
            if differ:
                raise ReportError(
                    f"{first.path} and {other.path} ran different task protocols (they differ "
                    f"in {', '.join(differ)}); compare runs of one protocol"
                )
        first_task, other_task = first.records[0].task_id, other.records[0].task_id
        if first_task != other_task:
            raise ReportError(
                f"{first.path} and {other.path} hold records of different task protocols "
                f"({first_task!r} and {other_task!r}); compare runs of one protocol"
            )


def _unique_labels(runs: Sequence[Run]) -> list[str]:
    counts = Counter(run.label for run in runs)
    labels = [
        f"{run.label} ({run.path.name})" if counts[run.label] > 1 else run.label for run in runs
    ]
    if len(set(labels)) < len(labels):
        labels = [f"{run.label} ({run.path})" for run in runs]
    return labels


def load_runs(paths: Sequence[str | Path]) -> list[Run]:
    """Read run directories to be reported together, one row per agent in every table.

    Labels are the agents; where two runs share an agent, their directory names are added.

    Raises:
        ReportError: no directory, a directory given twice, any error of
            :func:`load_run`, or runs of different task protocols.

    """
    if not paths:
        raise ReportError("give at least one run directory")
    resolved = [Path(p).resolve() for p in paths]
    twice = sorted({str(p) for p in resolved if resolved.count(p) > 1})
    if twice:
        raise ReportError(f"run directory given twice: {twice[0]}")
    runs = [load_run(path) for path in paths]
    check_same_protocol(runs)
    return [
        Run(run.path, label, run.agent, run.run_id, run.protocol, run.records, run.notes)
        for run, label in zip(runs, _unique_labels(runs), strict=True)
    ]


def task_keys(runs: Sequence[Run]) -> list[TaskKey]:
    """Every task (env configuration) any run holds records of, in protocol order.

    Tasks the protocol lists come in its order (protocols list levels easiest first);
    any others follow, sorted. The order depends on the protocol and the records held,
    never on the order of the records in their files.
    """
    held = {task_key(record) for run in runs for record in run.records}
    listed: list[TaskKey] = []
    for run in runs:
        for task in run.expected_by_task():
            if task in held and task not in listed:
                listed.append(task)
    return listed + sorted(held - set(listed))
