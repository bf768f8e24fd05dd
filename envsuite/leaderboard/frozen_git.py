"""Frozen boards against history: what a change (a pull request) may touch under leaderboards/.

``FROZEN.sha256`` catches an edit of a published version's board or protocol file, but a
change could rewrite that file too; so CI also compares the tree with the base branch
(read-only git). In a version that was published at the base, a change may only add new
submission folders and append to KNOWN_ISSUES.md; everything committed before stays as it
was. Submissions already in any version may never change or disappear.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from envsuite.leaderboard.errors import FrozenBoardError
from envsuite.leaderboard.layout import FROZEN_FILE, KNOWN_ISSUES_FILE, SUBMISSIONS_DIR

#: The folder of a checkout that holds the boards.
LEADERBOARDS_DIR = "leaderboards"


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=False
    )


def _exists_at(repo: Path, ref: str, path: str) -> bool:
    return _git(repo, "cat-file", "-e", f"{ref}:{path}").returncode == 0


def checkout_root(start: Path) -> Path:
    """The top folder of the git checkout holding ``start`` (``git rev-parse --show-toplevel``).

    Raises:
        FrozenBoardError: ``start`` is not inside a git checkout.
    """
    result = _git(start, "rev-parse", "--show-toplevel")
    if result.returncode != 0 or not result.stdout.strip():
        raise FrozenBoardError(
            f"{start} is not inside a git checkout ({result.stderr.strip() or 'no top level'}); "
            "run check-frozen inside the checkout whose leaderboards/ it should check, or "
            "pass --root"
        )
    return Path(result.stdout.strip())


def checkout_leaderboards(cwd: Path) -> Path:
    """The ``leaderboards/`` folder of the git checkout holding ``cwd``.

    Raises:
        FrozenBoardError: ``cwd`` is not in a git checkout, or the checkout has no
            ``leaderboards/`` folder.
    """
    folder = checkout_root(cwd) / LEADERBOARDS_DIR
    if not folder.is_dir():
        raise FrozenBoardError(
            f"the git checkout holding {cwd} has no {LEADERBOARDS_DIR}/ folder ({folder}); "
            "pass --root"
        )
    return folder


def changed_paths(repo: Path, base: str, folder: str) -> list[tuple[str, str]]:
    """``(status, path)`` of every file under ``folder`` that differs from ``base``.

    Raises:
        FrozenBoardError: git cannot compare (not a checkout, unknown ref).
    """
    result = _git(repo, "diff", "--name-status", "--no-renames", base, "--", folder)
    if result.returncode != 0:
        raise FrozenBoardError(f"cannot compare with {base!r}: {result.stderr.strip()}")
    changes = []
    for line in result.stdout.splitlines():
        state, _, path = line.partition("\t")
        changes.append((state[:1], path))
    return changes


def check_against_base(repo: Path, root: Path, base: str) -> list[str]:
    """Refuse changes to frozen content since ``base``; returns the changes allowed.

    Raises:
        FrozenBoardError: the first forbidden change (an edited or deleted file of a version
            published at ``base``, a KNOWN_ISSUES.md that was not only appended to, or a
            changed or deleted file of an existing submission).
    """
    folder = root.resolve().relative_to(repo.resolve()).as_posix()
    allowed = []
    for state, path in changed_paths(repo, base, folder):
        parts = Path(path).relative_to(folder).parts
        if len(parts) < 3:
            allowed.append(path)  # READMEs of the boards and the index are generated
            continue
        board, version, rest = parts[0], parts[1], parts[2:]
        in_submission = rest[0] == SUBMISSIONS_DIR
        published = _exists_at(repo, base, f"{folder}/{board}/{version}/{FROZEN_FILE}")
        entry_existed = (
            in_submission
            and len(rest) > 2
            and _exists_at(repo, base, f"{folder}/{board}/{version}/{SUBMISSIONS_DIR}/{rest[1]}")
        )
        if entry_existed:
            raise FrozenBoardError(
                f"{path} belongs to a submission already committed at {base}; submissions "
                "never change (make a new submission instead)"
            )
        if state == "A" and (not published or in_submission):
            allowed.append(path)
            continue
        if published and rest == (KNOWN_ISSUES_FILE,) and state == "M":
            before = _git(repo, "show", f"{base}:{path}").stdout
            after = (repo / path).read_text(encoding="utf-8")
            if after.startswith(before):
                allowed.append(path)
                continue
            raise FrozenBoardError(f"{path} of a published version may only be appended to")
        if published:
            raise FrozenBoardError(
                f"{path} ({'deleted' if state == 'D' else 'edited'}) belongs to {board} "
                f"{version}, published at {base}; published versions are frozen "
                f"(make a new version with `envsuite leaderboard new-version {board}`)"
            )
        allowed.append(path)
    return allowed
