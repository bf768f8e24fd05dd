"""``envsuite leaderboard verify``: every check a submission must pass, in order.

1. board: the board version loads, a published one is unedited, the installed envsuite
   still matches its pins (the board sets the limits the next check applies);
2. safety: folder name, regular files only (no symlinks), allowed names, size limits;
3. manifest: ``MANIFEST.sha256`` lists exactly the files, with their hashes;
4. schema: ``submission.yaml``, ``env_lock.json`` and every record fit their schemas;
5. version lock: env ids, spec hashes and envsuite release as the board pins them;
6. completeness: every env x seed x attempt of the protocol, once, and nothing else;
7. consistency: one agent and run, full traces whose rewards add up to the returns;
8. uniqueness: the records are not the episodes of an earlier submission of the version
   (see :mod:`envsuite.leaderboard.duplicates`);
9. recomputation: every board metric from the records; every claimed number must match;
10. replay: a stratified sample of traces stepped in the real envs, rewards exact (on a
    panel board, the panel's seats re-played by the real opponents, plus a sample of the
    panel's own round robin).

Each check raises its own error class, so the first failure says which check failed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from envsuite.evaluation.episode_runner import EnvCache
from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.leaderboard.board import BoardVersion, load_board_version
from envsuite.leaderboard.duplicates import check_not_duplicate
from envsuite.leaderboard.errors import (
    CLAIM_MISMATCH,
    OVERSIZE,
    MetricMismatchError,
    SchemaError,
    UnsafeInputError,
)
from envsuite.leaderboard.layout import SUBMISSIONS_DIR, submission_parts
from envsuite.leaderboard.manifest import MANIFEST_NAME, check_manifest, manifest_digest
from envsuite.leaderboard.metric_values import metric_interval
from envsuite.leaderboard.panel import panel_strengths
from envsuite.leaderboard.panel_metrics import panel_board_metrics, panel_results
from envsuite.leaderboard.record_checks import (
    check_completeness,
    check_consistency,
    check_version_lock,
)
from envsuite.leaderboard.safety import (
    check_real_folder,
    read_json_lines,
    read_json_object,
    read_yaml_mapping,
    walk_regular_files,
)
from envsuite.leaderboard.submission import (
    ENV_LOCK_FILE,
    EPISODES_FILE,
    LOGS_DIR,
    SUBMISSION_FILE,
    EnvLock,
    SubmissionMeta,
)
from envsuite.leaderboard.trace_replay import opt_in_skipped, replay_record, replay_sample
from envsuite.records import EpisodeRecord

ReplayMode = Literal["sample", "all", "none"]
#: How far a claimed number may sit from the recomputed one (claims may be rounded).
CLAIM_REL_TOLERANCE = 1e-3
CLAIM_ABS_TOLERANCE = 5e-4
_TOP_LEVEL_FILES = {SUBMISSION_FILE, EPISODES_FILE, ENV_LOCK_FILE, MANIFEST_NAME}


@dataclass
class VerificationReport:
    """What verification found for one submission that passed every check.

    Attributes:
        path: The submission folder.
        board: Its board version.
        meta: Its ``submission.yaml``.
        records: Its episode records.
        results: Every board metric recomputed from the records, with its interval.
        checks: The checks passed, in order.
        replayed: Traces replayed.
        replay_skipped: Sampled traces not replayed (opt-in families not asked for).
        panel_replayed: Games of a panel board's round robin replayed.
        digest: sha256 of the manifest (names the exact content verified).
    """

    path: Path
    board: BoardVersion
    meta: SubmissionMeta
    records: list[EpisodeRecord]
    results: dict[str, Interval] = field(default_factory=dict)
    checks: list[str] = field(default_factory=list)
    replayed: int = 0
    replay_skipped: int = 0
    panel_replayed: int = 0
    digest: str = ""


def board_metrics(board: BoardVersion) -> list[str]:
    """The metrics a board shows per entry.

    The ranking metric first, then the protocol's (``ratings`` is board-wide, not per
    entry), then pass@k for k = the board's attempts. A panel board shows its own set
    (:func:`~envsuite.leaderboard.panel_metrics.panel_board_metrics`).
    """
    if board.panel:
        return panel_board_metrics(board.protocol)
    names = [board.settings.ranking.metric]
    names += [m for m in board.protocol.metrics if m != "ratings"]
    names.append(f"pass@{board.protocol.attempts}")
    return list(dict.fromkeys(names))


def _check_files(path: Path, board: BoardVersion) -> None:
    limits = board.settings.limits
    total = 0
    for relative in walk_regular_files(path):
        text = relative.as_posix()
        if text not in _TOP_LEVEL_FILES and relative.parts[0] != LOGS_DIR:
            raise UnsafeInputError(
                f"{path / text} is not a submission file (allowed: "
                f"{', '.join(sorted(_TOP_LEVEL_FILES))} and {LOGS_DIR}/)"
            )
        size = os.lstat(path / relative).st_size
        limit = limits.episodes_bytes if text == EPISODES_FILE else limits.file_bytes
        what = "episode records" if text == EPISODES_FILE else "a submission file"
        if size > limit:
            raise UnsafeInputError(
                OVERSIZE.format(path=path / text, size=size, limit=limit, what=what)
            )
        total += size
    if total > limits.total_bytes:
        raise UnsafeInputError(
            OVERSIZE.format(path=path, size=total, limit=limits.total_bytes, what="a submission")
        )


def _model(model: type[BaseModel], data: object, where: Path) -> BaseModel:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()
        )
        raise SchemaError(f"{where} does not fit its schema: {problems}") from exc


def load_files(
    path: Path, board: BoardVersion
) -> tuple[SubmissionMeta, EnvLock, list[EpisodeRecord]]:
    """Read and schema-check a submission's three data files (after the manifest check).

    Raises:
        SchemaError: a file does not fit its schema, or the folder's date is not the
            submission's.
        UnsafeInputError: malformed JSON or YAML, or an oversize file.
    """
    limits = board.settings.limits
    meta = _model(
        SubmissionMeta, read_yaml_mapping(path / SUBMISSION_FILE, limits.file_bytes), path
    )
    assert isinstance(meta, SubmissionMeta)
    if meta.date.strftime("%Y%m%d") != submission_parts(path)[0]:
        raise SchemaError(f"{path}: the folder's date is not submission.yaml's date {meta.date}")
    lock = _model(EnvLock, read_json_object(path / ENV_LOCK_FILE, limits.file_bytes), path)
    assert isinstance(lock, EnvLock)
    records = []
    episodes = path / EPISODES_FILE
    for number, data in enumerate(read_json_lines(episodes, limits.episodes_bytes), start=1):
        record = _model(EpisodeRecord, data, Path(f"{episodes}:{number}"))
        assert isinstance(record, EpisodeRecord)
        records.append(record)
    if not records:
        raise SchemaError(f"{episodes} holds no records")
    return meta, lock, records


def check_claims(meta: SubmissionMeta, results: dict[str, Interval]) -> None:
    """Every number ``submission.yaml`` claims must equal the recomputed one.

    Raises:
        MetricMismatchError: a claim for a metric the board does not compute, or a claimed
            value farther than the tolerance from the records' value.
    """
    for metric, claimed in sorted(meta.claimed.items()):
        if metric not in results:
            raise MetricMismatchError(
                f"submission.yaml claims {metric}, which this board does not compute "
                f"(it computes {', '.join(results)})"
            )
        actual = results[metric].estimate
        close = math.isclose(
            claimed, actual, rel_tol=CLAIM_REL_TOLERANCE, abs_tol=CLAIM_ABS_TOLERANCE
        )
        if not close:
            raise MetricMismatchError(
                CLAIM_MISMATCH.format(metric=metric, claimed=claimed, actual=f"{actual:.6g}")
            )


def recompute(board: BoardVersion, records: list[EpisodeRecord]) -> dict[str, Interval]:
    """Every board metric of one entry, from its records (see :func:`board_metrics`).

    Raises:
        MetricMismatchError: the records cannot give a metric the board needs.
    """
    ranking = board.settings.ranking
    if board.panel:
        opponents = board.protocol.opponents
        strengths = panel_strengths(board.panel_records, board.protocol)
        try:
            return panel_results(
                board.protocol,
                records,
                [strengths[o] for o in opponents],
                panel_records=board.panel_records,
                reps=ranking.reps,
                exploitability_reps=ranking.exploitability_reps,
                confidence=ranking.confidence,
                seed=ranking.seed,
            )
        except ValueError as exc:
            raise MetricMismatchError(f"cannot compute the board's metrics: {exc}") from exc
    results = {}
    for name in board_metrics(board):
        try:
            results[name] = metric_interval(
                records, name, reps=ranking.reps, confidence=ranking.confidence, seed=ranking.seed
            )
        except ValueError as exc:
            raise MetricMismatchError(f"cannot compute {name} from the records: {exc}") from exc
    return results


def verify_submission(
    path: Path,
    *,
    replay: ReplayMode = "sample",
    replay_opt_in: bool = False,
    check_installed: bool = True,
    on_check: Callable[[str], None] | None = None,
) -> VerificationReport:
    """Run every check on a submission folder (see the module docstring).

    Args:
        path: ``leaderboards/<board>/v<N>/submissions/<YYYYMMDD>_<slug>``.
        replay: ``sample`` (the board's per-env sample), ``all`` or ``none``.
        replay_opt_in: Also replay envs of opt-in families (slow, e.g. SWE).
        check_installed: Require the installed envsuite to match the board's pins (off only
            for superseded versions, which are then checked without replays).
        on_check: Called with each check's name as it passes (for progress output).

    Returns:
        The report of a submission that passed.

    Raises:
        SubmissionRejected: the first check that fails, as its own subclass.
    """
    passed: list[str] = []

    def done(name: str) -> None:
        passed.append(name)
        if on_check is not None:
            on_check(name)

    submission_parts(path)
    if path.parent.name != SUBMISSIONS_DIR:
        raise UnsafeInputError(f"{path} is not inside a board version's {SUBMISSIONS_DIR}/ folder")
    check_real_folder(path.parent)
    board = load_board_version(path.parent.parent, check_installed=check_installed)
    done("board")
    _check_files(path, board)
    done("safety")
    check_manifest(path, board.settings.limits.episodes_bytes)
    digest = manifest_digest(path, board.settings.limits.file_bytes)
    done("manifest")
    meta, lock, records = load_files(path, board)
    done("schema")
    check_version_lock(board, records)
    done("version lock")
    check_completeness(board, records)
    done("completeness")
    check_consistency(board, meta, lock, records)
    done("consistency")
    check_not_duplicate(board.path, records, board.settings.limits.episodes_bytes, path.name)
    done("uniqueness")
    results = recompute(board, records)
    check_claims(meta, results)
    done("recomputation")
    report = VerificationReport(path, board, meta, records, results, passed, digest=digest)
    if replay != "none":
        sample = replay_sample(board, records, digest, -1 if replay == "all" else None)
        cache = EnvCache()
        try:
            for record in sample:
                if opt_in_skipped(board, record) and not replay_opt_in:
                    report.replay_skipped += 1
                    continue
                replay_record(record, cache)
                report.replayed += 1
            # The board's sample of its panel's games, drawn the same way (salted by the
            # submission, so every verification checks other games).
            for record in replay_sample(board, board.panel_records, digest):
                replay_record(record, cache)
                report.panel_replayed += 1
        finally:
            cache.close()
        done("replay")
    return report
