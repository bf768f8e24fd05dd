"""``envsuite transcript RUN_DIR``: a run's episodes as the chat messages a trainer consumes.

Each episode's action trace is replayed in its env to regain the observations (see
:mod:`envsuite.evaluation.transcripts`); the output has one row per transcript (one per
agent for multi-agent envs) with the episode's identity, ``messages`` and ``rewards``.
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from envsuite.cli.console import line, stderr
from envsuite.cli.exits import FAILURE, USAGE, exit_with, reports_errors
from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.records import EpisodeRecord, read_unique_records


class Format(enum.StrEnum):
    """Output formats: JSON Lines (one transcript a line) or one JSON list."""

    jsonl = "jsonl"
    json = "json"


RunDirArgument = Annotated[
    Path,
    typer.Argument(
        metavar="RUN_DIR",
        help=f"A run directory written by the runner (its {RECORDS_FILE}), or a records file.",
        show_default=False,
    ),
]
EpisodeOption = Annotated[
    int | None,
    typer.Option(
        "--episode",
        min=0,
        metavar="N",
        help="Only the N-th episode of the run (0-based, in file order).",
        show_default=False,
    ),
]
FormatOption = Annotated[
    Format,
    typer.Option("--format", help="jsonl: one transcript per line; json: one indented list."),
]


def register(app: typer.Typer) -> None:
    """Add ``transcript`` to ``app``."""
    app.command("transcript")(transcript)


@reports_errors
def transcript(
    run_dir: RunDirArgument, episode: EpisodeOption = None, format: FormatOption = Format.jsonl
) -> None:
    """Print a run's episodes as chat transcripts (system, user and assistant messages).

    Each row holds the episode's run, task, env, kwargs, seed, attempt and agent, then
    ``agent`` (the agent's name in multi-agent envs), ``messages`` (OpenAI chat format) and
    ``rewards`` (one per assistant message). Episodes that cannot be replayed (an infra
    error, no trace) are left out with a warning, or are an error with ``--episode``.
    """
    from envsuite.evaluation.transcripts import TranscriptError, transcript_rows

    records = _records(run_dir)
    if episode is not None:
        if episode >= len(records):
            exit_with(
                f"{run_dir} holds {len(records)} episodes; --episode {episode} is not one", USAGE
            )
        records = records[episode : episode + 1]
    errors = stderr()

    def skip(record: EpisodeRecord, problem: TranscriptError) -> None:
        if episode is not None:
            exit_with(str(problem), FAILURE)
        line(errors, f"Warning: skipped an episode: {problem}", "yellow")

    rows = transcript_rows(records, on_error=skip)
    if format is Format.jsonl:
        for row in rows:
            sys.stdout.write(_dumps(row) + "\n")
    else:
        sys.stdout.write(_dumps(list(rows), indent=2) + "\n")
    sys.stdout.flush()


def _records(path: Path) -> list[EpisodeRecord]:
    """The run's records, each episode once; a path that holds none is a usage error."""
    records_file = path / RECORDS_FILE if path.is_dir() else path
    if not records_file.is_file():
        exit_with(f"{path} is not a run directory (no {RECORDS_FILE}) nor a records file", USAGE)
    records, _ = read_unique_records(records_file)
    return records


def _dumps(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)
