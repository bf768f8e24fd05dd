"""Where boards live: ``leaderboards/<board>/v<N>/`` with its board file and submissions.

::

    leaderboards/
      <board>/README.md                      rendered tables, one section per version
      <board>/v<N>/board.yaml                the pins and settings (see board.py)
      <board>/v<N>/protocol.yaml             the task protocol the board runs
      <board>/v<N>/KNOWN_ISSUES.md           problems found after publication
      <board>/v<N>/FROZEN.sha256             present once published: hashes of the above
      <board>/v<N>/submissions/<YYYYMMDD>_<slug>/   one folder per submission
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from envsuite.data_paths import REPO_ROOT
from envsuite.leaderboard.errors import UNSAFE_NAME, BoardError, UnsafeInputError
from envsuite.leaderboard.safety import SUBMISSION_DIR_PATTERN, check_slug

BOARD_FILE = "board.yaml"
PROTOCOL_FILE = "protocol.yaml"
KNOWN_ISSUES_FILE = "KNOWN_ISSUES.md"
FROZEN_FILE = "FROZEN.sha256"
SUBMISSIONS_DIR = "submissions"
README_FILE = "README.md"
_VERSION_DIR = re.compile(r"^v(?P<number>[1-9][0-9]*)$")


def leaderboards_root() -> Path:
    """The ``leaderboards/`` folder of the checkout (``$ENVSUITE_LEADERBOARDS`` if set)."""
    return Path(os.environ.get("ENVSUITE_LEADERBOARDS") or REPO_ROOT / "leaderboards")


def version_dir(root: Path, board: str, version: int) -> Path:
    """``root/<board>/v<version>`` (the board name checked to be a slug)."""
    return root / check_slug(board, "board name") / f"v{version}"


def list_boards(root: Path) -> list[str]:
    """Names of the boards under ``root`` (folders with at least one version), sorted.

    Symlinked folders are listed too, so that verification rejects them (loading a board
    refuses a symlinked board or version folder) instead of skipping them unseen.
    """
    if not root.is_dir():
        return []
    return sorted(
        path.name for path in root.iterdir() if path.is_dir() and list_versions(root, path.name)
    )


def list_versions(root: Path, board: str) -> list[int]:
    """Version numbers of a board that have a board file, ascending (symlinks included)."""
    folder = root / board
    if not folder.is_dir():
        return []
    numbers = []
    for path in folder.iterdir():
        match = _VERSION_DIR.match(path.name)
        if match and (path / BOARD_FILE).is_file():
            numbers.append(int(match["number"]))
    return sorted(numbers)


def latest_version(root: Path, board: str) -> int:
    """The newest version of a board.

    Raises:
        BoardError: the board does not exist (the message lists those that do).
    """
    versions = list_versions(root, check_slug(board, "board name"))
    if not versions:
        known = ", ".join(list_boards(root)) or "none"
        raise BoardError(f"no board {board!r} under {root} (boards: {known})")
    return versions[-1]


def list_submissions(version_path: Path) -> list[Path]:
    """Submission folders of a board version, sorted by name (date first)."""
    folder = version_path / SUBMISSIONS_DIR
    if not folder.is_dir():
        return []
    # Everything is listed, stray files and symlinks included, so that verify rejects them.
    return sorted(folder.iterdir())


def parse_version_dir(path: Path) -> int:
    """The version number of a ``v<N>`` folder.

    Raises:
        BoardError: the folder is not named ``v<N>``.
    """
    match = _VERSION_DIR.match(path.name)
    if match is None:
        raise BoardError(f"{path} is not a board version folder (v1, v2, ...)")
    return int(match["number"])


def submission_parts(folder: Path) -> tuple[str, str]:
    """``(YYYYMMDD, slug)`` of a submission folder name.

    Raises:
        UnsafeInputError: the name is not ``YYYYMMDD_slug``.
    """
    match = SUBMISSION_DIR_PATTERN.match(folder.name)
    if match is None:
        raise UnsafeInputError(
            UNSAFE_NAME.format(
                what="submission folder", name=folder.name, why="it must be YYYYMMDD_slug"
            )
        )
    check_slug(match["slug"], "submission slug")
    return match["date"], match["slug"]
