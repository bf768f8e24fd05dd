"""Feeding results into a curriculum: envsuite episode records or plain result lines.

An external trainer reports results either as the ``episodes.jsonl`` that ``envsuite eval``
writes (one :class:`~envsuite.records.EpisodeRecord` per attempt) or as its own JSON lines
``{"problem": "...", "success": true, "level": "n3-k5-l20"}`` (``level`` optional). Both
become :class:`Result` values for :meth:`CurriculumController.record`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from envsuite.families.sat.curriculum import CurriculumController, CurriculumStateError
from envsuite.families.sat.instance_source import resolve_level
from envsuite.families.sat.levels import Level, parse_level
from envsuite.records import EpisodeRecord
from envsuite.safe_load import DataFileError, decode_utf8


@dataclass(frozen=True)
class Result:
    """One attempt's outcome, as the curriculum takes it."""

    problem: str
    success: bool
    level: Level | None
    key: str | None


@dataclass
class RecordSummary:
    """What feeding a batch of results did."""

    results: int = 0
    skipped: int = 0
    advanced: int = 0


def level_of_kwargs(env_kwargs: dict[str, Any]) -> Level:
    """The level that ``SAT-v0`` kwargs select (defaults filled in as the env does)."""
    return resolve_level(
        env_kwargs.get("clause_width"),
        env_kwargs.get("num_vars"),
        env_kwargs.get("num_clauses"),
        env_kwargs.get("level"),
        env_kwargs.get("clause_ratio"),
    )


def result_from_record(record: EpisodeRecord) -> Result | None:
    """The result an episode record reports (None for infra errors, which say nothing)."""
    if record.infra_error is not None:
        return None
    level = level_of_kwargs(record.env_kwargs)
    key = f"{record.run_id}|{record.env_id}|{record.seed}|{record.attempt}"
    return Result(f"{level.name}#{record.seed}", record.success is True, level, key)


def parse_result_line(line: str, where: str) -> Result | None:
    """A result from one JSON line: an episode record or ``{"problem", "success", "level"?}``.

    Raises:
        CurriculumStateError: the line is neither (the message names ``where``).
    """
    try:
        data = json.loads(line)
    except RecursionError as exc:
        raise CurriculumStateError(f"{where}: nests lists or mappings too deep") from exc
    except ValueError as exc:
        raise CurriculumStateError(f"{where}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise CurriculumStateError(f"{where}: expected a JSON object")
    if "env_id" in data and "run_id" in data:
        try:
            return result_from_record(EpisodeRecord.model_validate(data))
        except (ValidationError, ValueError) as exc:
            raise CurriculumStateError(f"{where}: not a valid episode record ({exc})") from exc
    problem, success = data.get("problem"), data.get("success")
    if not isinstance(problem, str) or not isinstance(success, bool):
        raise CurriculumStateError(
            f"{where}: a result line needs 'problem' (str) and 'success' (bool), or is an "
            "episode record from envsuite eval"
        )
    try:
        level = parse_level(data["level"]) if data.get("level") is not None else None
    except ValueError as exc:
        raise CurriculumStateError(f"{where}: {exc}") from exc
    key = data.get("key")
    return Result(problem, success, level, str(key) if key is not None else None)


def read_results(path: Path) -> list[Result]:
    """Every result in a JSONL file (infra-error records left out).

    Raises:
        CurriculumStateError: the file cannot be read or has an invalid line.
    """
    try:
        text = decode_utf8(path.read_bytes(), path)  # a run's records: no size cap
    except (OSError, DataFileError) as exc:
        raise CurriculumStateError(f"cannot read results {path}: {exc}") from exc
    results = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            result = parse_result_line(line, f"{path}:{number}")
            if result is not None:
                results.append(result)
    return results


def feed(controller: CurriculumController, results: list[Result]) -> RecordSummary:
    """Record results in order; count those taken, those skipped and the advances."""
    summary = RecordSummary()
    for result in results:
        before = (controller.stale, controller.duplicates)
        advanced = controller.record(result.problem, result.success, result.level, result.key)
        if (controller.stale, controller.duplicates) != before:
            summary.skipped += 1
        else:
            summary.results += 1
        summary.advanced += int(advanced)
    return summary
