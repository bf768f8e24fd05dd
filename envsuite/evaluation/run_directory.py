"""A run directory: protocol x agent -> ``episodes.jsonl``, resumable.

This module manages the directory; :mod:`envsuite.evaluation.episode_runner` runs each
episode job into a record, on the loops of :mod:`envsuite.episodes`.

A run directory holds ``run.json`` (what was asked: agent, protocol, envsuite version) and
``episodes.jsonl`` (one record per finished episode, flushed as it ends). Running the same
command again on the same directory resumes: episodes already recorded are skipped, the
rest run, and every episode ends up recorded exactly once.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from envsuite.agents.loading import AgentLoadError, check_agent_string
from envsuite.errors import UsageError
from envsuite.evaluation.executors import make_executor
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.evaluation.metrics.record_groups import checked_records
from envsuite.evaluation.protocol import TaskProtocol
from envsuite.evaluation.record_store import RECORDS_FILE, RecordStore, run_dir_lock
from envsuite.jsonable import to_jsonable
from envsuite.records import EpisodeRecord, RecordFileError
from envsuite.safe_load import DataFileError, read_json
from envsuite.version import __version__

RUN_FILE = "run.json"


class RunDirError(UsageError):
    """The output directory holds a different run."""


@dataclass
class RunResult:
    """What a call to :func:`evaluate` left in the run directory.

    Attributes:
        run_dir: The run directory.
        run_id: Its run id.
        records: The protocol's records, each episode once.
        new: Episodes run by this call.
        resumed: Episodes found recorded already.
        duplicate_lines: Lines dropped from ``episodes.jsonl`` as repeats of an identical one.
    """

    run_dir: Path
    run_id: str
    records: list[EpisodeRecord]
    new: int
    resumed: int
    duplicate_lines: int = 0


#: Agent options never written to ``run.json`` (their values, not their presence).
SECRET_OPTIONS = frozenset({"api_key"})


def open_run(
    run_dir: str | Path,
    protocol: TaskProtocol,
    agent: str,
    agent_options: dict[str, Any] | None = None,
) -> str:
    """Create ``run.json`` (or check it matches, when resuming) and return the run id.

    ``run.json`` records the agent, its options (secrets such as ``api_key`` redacted) and
    the protocol; resuming with any of them changed is refused.

    Raises:
        RunDirError: ``run_dir`` holds a run of another protocol, agent or agent options.
    """
    path = Path(run_dir) / RUN_FILE
    options = {
        key: "<redacted>" if key in SECRET_OPTIONS else value
        for key, value in sorted((agent_options or {}).items())
    }
    asked = {
        "agent": agent,
        "agent_options": to_jsonable(options),
        "protocol": protocol.model_dump(mode="json"),
    }
    if path.exists():
        existing = _read_run_file(path)
        if {k: existing.get(k) for k in asked} != asked:
            protocol_data = existing.get("protocol")
            task = protocol_data.get("id") if isinstance(protocol_data, dict) else None
            raise RunDirError(
                f"{run_dir} holds a different run (agent {existing.get('agent')!r}, task "
                f"{task!r}; {run_differences(existing, asked)}); use another --out to start "
                "a new one"
            )
        return str(existing["run_id"])
    Path(run_dir).mkdir(parents=True, exist_ok=True)
    run_id = f"{Path(run_dir).resolve().name}-{time.strftime('%Y%m%dT%H%M%S')}"
    meta = {"run_id": run_id, "envsuite_version": __version__, **asked}
    path.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return run_id


#: How much of a differing value, and how many differences, the refusal shows.
SHOWN_VALUE_CHARS = 60
SHOWN_DIFFERENCES = 3


def _shown(value: Any) -> str:
    """``value`` as compact JSON, cut to :data:`SHOWN_VALUE_CHARS`."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    if len(text) <= SHOWN_VALUE_CHARS:
        return text
    return text[: SHOWN_VALUE_CHARS - 3] + "..."


def run_differences(existing: dict[str, Any], asked: dict[str, Any]) -> str:
    """Say what differs between the run in ``run.json`` and the one asked for.

    Each differing entry (``agent``, ``agent_options``, or a field of the protocol, such as
    ``seeds`` when only ``--episodes`` changed) as ``name: recorded VALUE, asked VALUE``:
    the first few, long values cut short.

    Args:
        existing: ``run.json``'s mapping.
        asked: The run asked for: ``agent``, ``agent_options`` and ``protocol``.
    """
    differences = []
    for key, wanted in asked.items():
        recorded = existing.get(key)
        if recorded == wanted:
            continue
        if isinstance(recorded, dict) and isinstance(wanted, dict) and key == "protocol":
            names = dict.fromkeys([*wanted, *recorded])
            differences += [
                (f"{key} {name}", recorded.get(name), wanted.get(name))
                for name in names
                if recorded.get(name) != wanted.get(name)
            ]
        else:
            differences.append((key, recorded, wanted))
    shown = "; ".join(
        f"{name}: recorded {_shown(recorded)}, asked {_shown(wanted)}"
        for name, recorded, wanted in differences[:SHOWN_DIFFERENCES]
    )
    more = len(differences) - SHOWN_DIFFERENCES
    return shown + (f"; and {more} more" if more > 0 else "")


def _read_run_file(path: Path) -> dict[str, Any]:
    """``run.json`` as a mapping with a ``run_id`` string.

    Raises:
        RunDirError: unreadable, not JSON within the limits, or not a run file.
    """
    try:
        existing = read_json(path, strict=False)
    except OSError as exc:
        raise RunDirError(f"cannot read {path}: {exc.strerror}; use another --out") from exc
    except DataFileError as exc:
        raise RunDirError(f"{exc}; use another --out") from exc
    if not isinstance(existing, dict):
        raise RunDirError(
            f"{path} holds a JSON {type(existing).__name__}, not a run's mapping; use another --out"
        )
    if not isinstance(existing.get("run_id"), str) or not existing["run_id"]:
        raise RunDirError(f"{path} has no run_id string; use another --out")
    return existing


class _RateColumn(ProgressColumn):
    """Episodes per second since the start."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:,.1f} ep/s", style="progress.data.speed")


def evaluate(
    protocol: TaskProtocol,
    agent: str,
    run_dir: str | Path,
    *,
    agent_options: dict[str, Any] | None = None,
    executor: str = "local",
    workers: int = 1,
    console: Console | None = None,
    progress: bool = True,
) -> RunResult:
    """Run every episode of ``protocol`` with ``agent`` not yet recorded in ``run_dir``.

    Args:
        protocol: What to run.
        agent: An agent string.
        run_dir: The run directory (created, or resumed if it holds this run).
        agent_options: Keyword arguments for the agent.
        executor: ``local`` or ``ray``.
        workers: Parallel workers.
        console: Where the progress bar goes (a default console if None).
        progress: Whether to show the progress bar.

    Everything that can be refused is refused before the first episode runs.

    Raises:
        ProtocolError: an env refuses the protocol's kwargs.
        AgentLoadError: ``agent`` names no agent, or no agent for these envs (nothing is
            written then, unless episodes were recorded before).
        RunDirError: ``run_dir`` holds another run, or an unreadable ``run.json``.
        RunInUseError: another process is running into ``run_dir``.
        RecordFileError: ``episodes.jsonl`` holds an invalid line, two different records of
            one episode, or records of several agents.
    """
    protocol.check_envs()
    check_agent_string(agent)
    folder_existed = Path(run_dir).exists()
    new_run = not (Path(run_dir) / RUN_FILE).exists()
    try:
        with run_dir_lock(run_dir):
            run_id = open_run(run_dir, protocol, agent, agent_options)
            store = RecordStore(run_dir)
            jobs = protocol.jobs(run_id, agent, agent_options)
            wanted = {job.key for job in jobs}
            _check_resumable([record for record in store.records if record.key in wanted], store)
            todo = [job for job in jobs if job.key not in store.done]
            resumed = len(jobs) - len(todo)
            new = _execute(todo, store, executor, workers, console, progress, resumed, len(jobs))
    except AgentLoadError:
        if new_run:
            _forget_run_without_records(Path(run_dir), remove_folder=not folder_existed)
        raise
    records = [record for record in store.records if record.key in wanted]
    return RunResult(Path(run_dir), run_id, records, new, resumed, store.duplicates)


def _forget_run_without_records(run_dir: Path, *, remove_folder: bool) -> None:
    """Remove what opening a new run wrote, when its agent could not be built for any episode.

    The agent string's form is checked before the run is opened; whether it fits an env
    (its seat names, a single agent for a single-agent env, a class that builds) is only
    known once the first episode builds it. Without this, the next command into the same
    directory, its agent corrected, would be refused as another run's.
    """
    records = run_dir / RECORDS_FILE
    if records.exists() and records.stat().st_size:
        return
    records.unlink(missing_ok=True)
    (run_dir / RUN_FILE).unlink(missing_ok=True)
    if remove_folder:
        with contextlib.suppress(OSError):  # something else was put there meanwhile
            run_dir.rmdir()


def _check_resumable(records: list[EpisodeRecord], store: RecordStore) -> None:
    """Refuse, before anything runs, recorded episodes that metrics could not summarise.

    Raises:
        RecordFileError: the records come from several agents (or repeat an episode).
    """
    if not records:
        return
    try:
        checked_records(records)
    except ValueError as exc:
        raise RecordFileError(f"{store.path} cannot be resumed: {exc}") from exc


def _execute(
    jobs: Sequence[EpisodeJob],
    store: RecordStore,
    executor: str,
    workers: int,
    console: Console | None,
    show: bool,
    already: int,
    total: int,
) -> int:
    if not jobs:
        return 0
    runner = make_executor(executor, workers)
    columns = (
        TextColumn("[bold]episodes"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeRemainingColumn(),
    )
    new = 0
    with Progress(*columns, console=console, disable=not show, transient=False) as bar:
        task = bar.add_task("episodes", total=total, completed=already)
        for record in runner.run(jobs):
            store.append(record)
            new += 1
            if show:  # a hidden bar's count is never shown; advancing it cost ~13k instructions
                bar.advance(task)
    return new
