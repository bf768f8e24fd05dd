"""Versioned leaderboards with verified submissions.

A board (``leaderboards/<board>/v<N>/``) pins a task protocol: env ids and versions, spec
hashes, dataset checksums, seeds, attempts and metrics. A submission is a folder of
metadata, episode records with their action traces, an environment lock and a manifest.
Verification recomputes every number from the records and replays a sample of the traces
in the real envs; ranking shows paired bootstrap intervals, rank intervals and tied ranks
(and Bradley–Terry ratings on multi-agent boards); rendering writes README tables and a
static site. A published board version is frozen.
"""

from envsuite.leaderboard.board import BoardSettings, BoardVersion, load_board_version
from envsuite.leaderboard.board_admin import create_board, new_version, publish
from envsuite.leaderboard.errors import (
    BoardError,
    CompletenessError,
    ConsistencyError,
    FrozenBoardError,
    ManifestError,
    MetricMismatchError,
    SchemaError,
    SubmissionRejected,
    TraceReplayError,
    UnsafeInputError,
    VersionLockError,
)
from envsuite.leaderboard.layout import leaderboards_root
from envsuite.leaderboard.render import render_all
from envsuite.leaderboard.standings import Standings, board_standings
from envsuite.leaderboard.submission import SubmissionMeta, submission_json_schema
from envsuite.leaderboard.submit import make_submission
from envsuite.leaderboard.verify import VerificationReport, verify_submission

__all__ = [
    "BoardError",
    "BoardSettings",
    "BoardVersion",
    "CompletenessError",
    "ConsistencyError",
    "FrozenBoardError",
    "ManifestError",
    "MetricMismatchError",
    "SchemaError",
    "Standings",
    "SubmissionMeta",
    "SubmissionRejected",
    "TraceReplayError",
    "UnsafeInputError",
    "VerificationReport",
    "VersionLockError",
    "board_standings",
    "create_board",
    "leaderboards_root",
    "load_board_version",
    "make_submission",
    "new_version",
    "publish",
    "render_all",
    "submission_json_schema",
    "verify_submission",
]
