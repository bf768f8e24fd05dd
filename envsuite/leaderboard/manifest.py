"""``MANIFEST.sha256``: the sha256 of every file of a submission, in ``sha256sum`` format.

The manifest makes a submission's bytes explicit: a reviewer (or ``sha256sum -c``) can
check that what was verified is what is committed, and verification refuses any file the
manifest does not list, any listed file that is missing, and any hash that differs.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePosixPath

from envsuite.leaderboard.errors import (
    MANIFEST_MISMATCH,
    MISSING_FILE,
    UNLISTED_FILE,
    ManifestError,
)
from envsuite.leaderboard.safety import check_relative_path, read_capped, walk_regular_files

MANIFEST_NAME = "MANIFEST.sha256"
_LINE = re.compile(r"^(?P<digest>[0-9a-f]{64})  (?P<path>\S.*)$")


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def file_digests(folder: Path, limit: int) -> dict[PurePosixPath, str]:
    """sha256 of every regular file under ``folder`` except the manifest itself.

    Raises:
        UnsafeInputError: see :func:`~envsuite.leaderboard.safety.walk_regular_files`, or a
            file over ``limit`` bytes.
    """
    return {
        relative: sha256_bytes(read_capped(folder / relative, limit, "a submission file"))
        for relative in walk_regular_files(folder)
        if relative.as_posix() != MANIFEST_NAME
    }


def write_manifest(folder: Path, limit: int) -> Path:
    """Write ``folder/MANIFEST.sha256`` listing every other file, sorted by path."""
    digests = file_digests(folder, limit)
    lines = [f"{digests[path]}  {path.as_posix()}\n" for path in sorted(digests)]
    target = folder / MANIFEST_NAME
    target.write_text("".join(lines), encoding="utf-8")
    return target


def read_manifest(folder: Path, limit: int) -> dict[PurePosixPath, str]:
    """Parse ``folder/MANIFEST.sha256`` (every path checked for traversal).

    Raises:
        ManifestError: the manifest is missing, or a line is not ``<sha256>  <path>``.
        UnsafeInputError: a listed path could leave the folder.
    """
    path = folder / MANIFEST_NAME
    if not path.is_file():
        raise ManifestError(f"{path} is missing; `envsuite leaderboard submit` writes it")
    listed: dict[PurePosixPath, str] = {}
    text = read_capped(path, limit, "the manifest").decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        match = _LINE.match(line)
        if match is None:
            raise ManifestError(f"{path}:{number}: expected '<sha256>  <path>', got {line!r:.80}")
        relative = check_relative_path(match["path"])
        if relative in listed:
            raise ManifestError(f"{path}:{number}: {relative} is listed twice")
        listed[relative] = match["digest"]
    return listed


def check_manifest(folder: Path, limit: int) -> dict[PurePosixPath, str]:
    """Check that the manifest lists exactly the folder's files with their current hashes.

    Returns:
        Relative path -> sha256 of every file the manifest covers.

    Raises:
        ManifestError: a missing, unlisted or changed file.
        UnsafeInputError: a symlink, special file, unsafe name or oversize file.
    """
    listed = read_manifest(folder, limit)
    actual = file_digests(folder, limit)
    for relative in sorted(listed):
        if relative not in actual:
            raise ManifestError(MISSING_FILE.format(path=folder / relative))
    for relative in sorted(actual):
        if relative not in listed:
            raise ManifestError(UNLISTED_FILE.format(path=folder / relative))
        if actual[relative] != listed[relative]:
            raise ManifestError(
                MANIFEST_MISMATCH.format(
                    path=folder / relative, actual=actual[relative], expected=listed[relative]
                )
            )
    return actual


def manifest_digest(folder: Path, limit: int) -> str:
    """sha256 of the manifest file: one hash that names the submission's exact content."""
    return sha256_bytes(read_capped(folder / MANIFEST_NAME, limit, "the manifest"))
