"""Verifying every board and submission under ``leaderboards/`` (CI and ``verify`` with no path).

The newest version of each board must match the installed envsuite and is verified fully,
replays included. An older version that no longer matches it (an env or dataset changed,
or envsuite moved to another release series, and a newer version was made) is *superseded*:
its files are still checked — manifests, frozen files, version lock, completeness,
consistency and recomputation — but its traces are not replayed, since the installed envs
are no longer the ones it pins.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from envsuite.leaderboard.board import load_board_version
from envsuite.leaderboard.errors import BoardError, SubmissionRejected
from envsuite.leaderboard.layout import list_boards, list_submissions, list_versions, version_dir
from envsuite.leaderboard.verify import ReplayMode, VerificationReport, verify_submission


@dataclass(frozen=True)
class TreeOutcome:
    """The result of verifying one submission (or one board version without submissions).

    Attributes:
        path: The submission folder, or the board version folder.
        report: The verification report when it passed.
        error: The rejection when it failed.
        superseded: Why the version was checked without replays (None when fully checked).
    """

    path: Path
    report: VerificationReport | None
    error: SubmissionRejected | None
    superseded: str | None = None


def verify_tree(
    root: Path,
    *,
    replay: ReplayMode = "sample",
    replay_opt_in: bool = False,
    on_outcome: Callable[[TreeOutcome], None] | None = None,
    boards: Collection[str] | None = None,
) -> list[TreeOutcome]:
    """Verify every board version and submission under ``root``; never stops at the first.

    Args:
        root: The leaderboards folder.
        replay: Which traces the newest versions replay (superseded ones replay none).
        replay_opt_in: Whether opt-in families (SWE) are replayed too.
        on_outcome: Called with each outcome as it is found.
        boards: Verify only these boards (None: every board under ``root``).

    Returns:
        One outcome per submission, plus one per board version that fails to load.
    """
    outcomes: list[TreeOutcome] = []

    def keep(outcome: TreeOutcome) -> None:
        outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)

    for board in list_boards(root):
        if boards is not None and board not in boards:
            continue
        numbers = list_versions(root, board)
        for number in numbers:
            path = version_dir(root, board, number)
            superseded = None
            try:
                load_board_version(path, check_installed=False)
            except BoardError as exc:  # broken or tampered, whatever envsuite is installed
                keep(TreeOutcome(path, None, exc))
                continue
            try:
                load_board_version(path)
            except BoardError as exc:
                if number == numbers[-1]:
                    keep(TreeOutcome(path, None, exc))
                    continue
                superseded = f"superseded by v{numbers[-1]}: {exc}"
            for folder in list_submissions(path):
                try:
                    report = verify_submission(
                        folder,
                        replay="none" if superseded else replay,
                        replay_opt_in=replay_opt_in,
                        check_installed=superseded is None,
                    )
                    keep(TreeOutcome(folder, report, None, superseded))
                except SubmissionRejected as exc:
                    keep(TreeOutcome(folder, None, exc, superseded))
    return outcomes
