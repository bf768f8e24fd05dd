"""Duplicate runs: the same episodes submitted again under another name.

A submission's *run fingerprint* is the sha256 of what its episodes did, record by record
(in any order): env, kwargs, seed, attempt, outcome, metrics, curves and the whole action
trace. Names and bookkeeping (run id, agent string, envsuite release, spec hash,
wall time, what the agent reported) are left out, so renaming an entry, relabelling its
run or its agent, or re-running the same deterministic agent does not change it.

Within one board version, a submission whose fingerprint equals that of a submission
sorted before it (folders sort by date, then slug) is a duplicate: ``submit`` refuses to
write it and ``verify`` rejects it, naming the original.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from envsuite.jsonable import canonical_json
from envsuite.leaderboard.errors import DUPLICATE_RUN, DuplicateRunError, SubmissionRejected
from envsuite.leaderboard.layout import list_submissions
from envsuite.leaderboard.safety import check_real_folder, read_json_lines
from envsuite.leaderboard.submission import EPISODES_FILE
from envsuite.records import EpisodeRecord

#: The record fields a run fingerprint covers (see the module docstring).
FINGERPRINT_FIELDS = frozenset(
    {
        "env_id",
        "env_kwargs",
        "seed",
        "attempt",
        "episode_return",
        "success",
        "score",
        "length",
        "terminated",
        "truncated",
        "stop_reason",
        "infra_error",
        "metrics",
        "curves",
        "trace",
    }
)


def run_fingerprint(records: Sequence[EpisodeRecord]) -> str:
    """sha256 of what the records' episodes did, in any order (see the module docstring)."""
    fields = set(FINGERPRINT_FIELDS)
    lines = sorted(
        canonical_json(record.model_dump(mode="json", include=fields)) for record in records
    )
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def _records_of(folder: Path, limit: int) -> list[EpisodeRecord] | None:
    """The records of another submission, or None when they cannot be read safely."""
    try:
        check_real_folder(folder)
        return [
            EpisodeRecord.model_validate(data)
            for data in read_json_lines(folder / EPISODES_FILE, limit)
        ]
    except (SubmissionRejected, ValidationError, RecursionError):
        return None  # that submission is rejected on its own account


def find_duplicate(
    version_path: Path, records: Sequence[EpisodeRecord], limit: int, before: str | None = None
) -> Path | None:
    """The first submission of the board version with the same run fingerprint.

    Args:
        version_path: The board version folder.
        records: The records to look for.
        limit: Largest ``episodes.jsonl`` read (the board's limit).
        before: Only look at submission folders named before this one (None: all).
    """
    fingerprint = run_fingerprint(records)
    for folder in list_submissions(version_path):
        if before is not None and folder.name >= before:
            break
        others = _records_of(folder, limit)
        if others is not None and run_fingerprint(others) == fingerprint:
            return folder
    return None


def check_not_duplicate(
    version_path: Path, records: Sequence[EpisodeRecord], limit: int, before: str | None = None
) -> None:
    """Refuse records that an earlier submission of the board version already holds.

    Raises:
        DuplicateRunError: naming the earlier submission.
    """
    original = find_duplicate(version_path, records, limit, before)
    if original is not None:
        raise DuplicateRunError(
            DUPLICATE_RUN.format(original=original, fingerprint=run_fingerprint(records))
        )
