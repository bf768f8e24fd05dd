"""``envsuite leaderboard submit``: turn a run directory into a submission folder.

The folder holds the run's records for the board's protocol (in protocol order), the
metadata the submitter gives, the numbers recomputed from the records as the claims, the
environment lock, and a manifest; it is then verified like any submission.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
from pathlib import Path

import yaml

from envsuite.jsonable import canonical_json
from envsuite.leaderboard.board import BoardVersion
from envsuite.leaderboard.duplicates import check_not_duplicate
from envsuite.leaderboard.errors import (
    MISSING_EPISODES,
    CompletenessError,
    ConsistencyError,
    SchemaError,
)
from envsuite.leaderboard.layout import PROTOCOL_FILE, SUBMISSIONS_DIR
from envsuite.leaderboard.manifest import write_manifest
from envsuite.leaderboard.panel_metrics import entry_agent
from envsuite.leaderboard.record_checks import expected_keys
from envsuite.leaderboard.safety import check_real_folder, read_json_object, slugify
from envsuite.leaderboard.submission import (
    ENV_LOCK_FILE,
    EPISODES_FILE,
    SUBMISSION_FILE,
    Compute,
    Leakage,
    LockedEnv,
    SubmissionMeta,
    current_env_lock,
)
from envsuite.leaderboard.verify import recompute
from envsuite.records import (
    EpisodeRecord,
    RecordFileError,
    read_unique_records,
    write_records,
)

RUN_FILE = "run.json"
RECORDS_FILE = "episodes.jsonl"


def _run_records(
    board: BoardVersion, run_dir: Path
) -> tuple[dict[str, object], list[EpisodeRecord]]:
    """The run's metadata and its records of the board's episodes, in protocol order."""
    if not (run_dir / RUN_FILE).is_file() or not (run_dir / RECORDS_FILE).is_file():
        raise SchemaError(f"{run_dir} is not a run directory (no {RUN_FILE} / {RECORDS_FILE})")
    run = read_json_object(run_dir / RUN_FILE, 1 << 20)
    try:
        records, _ = read_unique_records(run_dir / RECORDS_FILE)
    except RecordFileError as exc:
        raise SchemaError(str(exc)) from exc
    by_key = {record.key: record for record in records}
    wanted = expected_keys(board)
    missing = [key for key in wanted if key not in by_key]
    if missing:
        task, env_id, kwargs, seed, attempt = missing[0]
        example = f"{task}: {env_id} {kwargs} seed {seed} attempt {attempt}"
        hint = f"; run `envsuite eval {board.path / PROTOCOL_FILE} --agent ... --out {run_dir}`"
        raise CompletenessError(MISSING_EPISODES.format(count=len(missing), example=example) + hint)
    return run, [by_key[key] for key in wanted]


def make_submission(
    board: BoardVersion,
    run_dir: Path,
    *,
    name: str,
    authors: list[str],
    leakage: str,
    seen_test_data: bool = False,
    model: str | None = None,
    code_url: str | None = None,
    hardware: str = "unspecified",
    wall_time_hours: float | None = None,
    notes: str = "",
    date: datetime.date | None = None,
) -> Path:
    """Write ``<board>/v<N>/submissions/<YYYYMMDD>_<slug>/`` from a run directory.

    Args:
        board: The board version to submit to.
        run_dir: A run directory of ``envsuite eval`` on the board's protocol (or on a
            protocol with the same id whose episodes include the board's).
        name: Display name of the entry (its slug names the folder).
        authors: Who is responsible.
        leakage: Leakage disclosure in words.
        seen_test_data: Whether the agent saw any of the board's problems.
        model: The model behind the agent, if any.
        code_url: https URL of the agent's code, if public.
        hardware: What the run used.
        wall_time_hours: How long the run took.
        notes: Free text.
        date: Submission date (default: today).

    Returns:
        The new submission folder.

    Raises:
        CompletenessError: the run lacks episodes of the board's protocol.
        SchemaError: the run directory or the metadata is invalid, or the folder exists.
        DuplicateRunError: a submission of the board version already holds these episodes.
        UnsafeInputError: the board's ``submissions/`` folder is a symlink.
    """
    run, records = _run_records(board, run_dir)
    day = date or datetime.date.today()
    submissions = board.path / SUBMISSIONS_DIR
    if os.path.lexists(submissions):
        check_real_folder(submissions)
    folder = submissions / f"{day:%Y%m%d}_{slugify(name)}"
    if os.path.lexists(folder):
        raise SchemaError(f"{folder} exists already; choose another --name")
    agents = sorted({record.agent_id for record in records})
    if board.panel:  # lineups against the panel: the agent is the one in the entry's seat
        agents = [entry_agent(board.protocol, records, str(run_dir))]
    versions = sorted({record.envsuite_version for record in records})
    if len(agents) != 1 or len(versions) != 1:
        raise SchemaError(f"{run_dir} mixes agents {agents} or envsuite releases {versions}")
    errors = [record for record in records if record.infra_error is not None]
    if len(errors) > board.settings.limits.max_infra_error_fraction * len(records):
        raise ConsistencyError(
            f"{len(errors)} of {len(records)} episodes of {run_dir} are infra errors, over the "
            f"board's limit (first: {errors[0].infra_error}); rerun them before submitting"
        )
    results = recompute(board, records)
    meta = SubmissionMeta(
        name=name,
        agent=agents[0],
        authors=authors,
        model=model,
        code_url=code_url,
        compute=Compute(hardware=hardware, wall_time_hours=wall_time_hours),
        attempts_k=board.protocol.attempts,
        leakage=Leakage(seen_test_data=seen_test_data, disclosure=leakage),
        board=board.name,
        board_version=board.version,
        date=day,
        envsuite_version=versions[0],
        run_id=str(run.get("run_id", records[0].run_id)),
        claimed={metric: interval.estimate for metric, interval in results.items()},
        notes=notes,
    )
    # After the metadata is checked, so a bad option is named before a duplicate is looked for.
    check_not_duplicate(board.path, records, board.settings.limits.episodes_bytes)
    used = {(r.env_id, canonical_json(r.env_kwargs)): r for r in records}
    lock = current_env_lock(
        versions[0],
        [LockedEnv(id=r.env_id, kwargs=r.env_kwargs, spec_hash=r.spec_hash) for r in used.values()],
    )
    folder.mkdir(parents=True)
    try:
        text = yaml.safe_dump(meta.model_dump(mode="json"), sort_keys=False, allow_unicode=True)
        (folder / SUBMISSION_FILE).write_text(text, encoding="utf-8")
        (folder / ENV_LOCK_FILE).write_text(
            json.dumps(lock.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
        )
        write_records(folder / EPISODES_FILE, records)
        write_manifest(folder, board.settings.limits.episodes_bytes)
    except BaseException:
        shutil.rmtree(folder)
        raise
    return folder
