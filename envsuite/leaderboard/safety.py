"""Reading untrusted submission folders safely: names, links, sizes and strict JSON.

A submission arrives as a pull request from anyone, so nothing in it is trusted: every
name is checked against a strict pattern (no path traversal), the folder may hold regular
files only (a symlink could point anywhere on the verifying machine, and so could a hard
link: a file with more than one link is refused too), the folders leading to it (board,
version, ``submissions/``) must be real folders, files are size-capped before they are
read, and JSON is parsed strictly (no NaN, no duplicate keys).
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from envsuite import safe_load
from envsuite.leaderboard.errors import (
    HARD_LINK,
    MALFORMED_JSON,
    NOT_REGULAR,
    OVERSIZE,
    SYMLINK,
    UNSAFE_NAME,
    UnsafeInputError,
)

#: A slug: lowercase letters, digits and single dashes, at most 64 characters.
SLUG_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,63}$")
#: A submission folder: ``YYYYMMDD_slug``.
SUBMISSION_DIR_PATTERN = re.compile(r"^(?P<date>[0-9]{8})_(?P<slug>[a-z0-9][a-z0-9-]{0,63})$")
#: A relative file path inside a submission: slash-separated safe components.
_COMPONENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def slugify(name: str) -> str:
    """Turn a display name into a slug ("My Agent (v2)" -> "my-agent-v2").

    Raises:
        UnsafeInputError: nothing usable is left of the name.
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:64].strip("-")
    if not SLUG_PATTERN.match(slug):
        raise UnsafeInputError(
            UNSAFE_NAME.format(what="name", name=name, why="it has no letters or digits")
        )
    return slug


def check_slug(name: str, what: str) -> str:
    """Return ``name`` if it is a slug, else raise (board names, entry slugs)."""
    if not isinstance(name, str) or not SLUG_PATTERN.match(name):
        raise UnsafeInputError(
            UNSAFE_NAME.format(
                what=what, name=name, why="use lowercase letters, digits and single dashes"
            )
        )
    return name


def check_relative_path(text: str) -> PurePosixPath:
    """Return ``text`` as a relative path whose every component is a plain safe name.

    Rejects absolute paths, ``..`` and ``.`` components, backslashes, empty components and
    hidden files: the path can only point inside the folder it is relative to.

    Raises:
        UnsafeInputError: the path could leave its folder or has an unusual name.
    """
    parts = text.split("/")
    if not text or text.startswith("/") or "\\" in text or len(parts) > 4:
        raise UnsafeInputError(
            UNSAFE_NAME.format(what="path", name=text, why="it must be a short relative path")
        )
    for part in parts:
        if part in ("", ".", "..") or not _COMPONENT.match(part):
            raise UnsafeInputError(
                UNSAFE_NAME.format(
                    what="path", name=text, why=f"component {part!r} could escape the folder"
                )
            )
    return PurePosixPath(text)


def check_single_link(path: Path, info: os.stat_result) -> None:
    """Refuse a regular file with more than one hard link.

    A hard link is another name for a file that may live anywhere on the same file system
    (a secret of the verifying machine, another submission's records); reading it would
    follow it as surely as a symlink.

    Raises:
        UnsafeInputError: ``info.st_nlink > 1``.
    """
    if stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
        raise UnsafeInputError(HARD_LINK.format(path=path, links=info.st_nlink))


def check_real_folder(path: Path) -> None:
    """Refuse a folder that is a symlink (or not a folder at all).

    Raises:
        UnsafeInputError: ``path`` is a symbolic link or not a directory.
    """
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        raise UnsafeInputError(f"cannot read {path}: {exc.strerror}") from exc
    if stat.S_ISLNK(mode):
        raise UnsafeInputError(SYMLINK.format(path=path))
    if not stat.S_ISDIR(mode):
        raise UnsafeInputError(NOT_REGULAR.format(path=path))


def walk_regular_files(folder: Path) -> Iterator[PurePosixPath]:
    """Yield every file under ``folder`` (relative, sorted), refusing anything but plain files.

    Raises:
        UnsafeInputError: a symlink (to a file or folder), a hard-linked file, a special
            file, or a name that :func:`check_relative_path` refuses.
    """
    check_real_folder(folder)
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(dirs) + sorted(files):
            path = Path(root) / name
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                raise UnsafeInputError(SYMLINK.format(path=path))
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise UnsafeInputError(NOT_REGULAR.format(path=path))
            relative = path.relative_to(folder).as_posix()
            check_relative_path(relative)
            if stat.S_ISREG(mode):
                check_single_link(path, os.lstat(path))
                yield PurePosixPath(relative)


def read_capped(path: Path, limit: int, what: str) -> bytes:
    """Read a regular file of at most ``limit`` bytes without following a link.

    Raises:
        UnsafeInputError: the path is a symlink, a hard-linked or special file, or is over
            ``limit``.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        if os.path.islink(path):
            raise UnsafeInputError(SYMLINK.format(path=path)) from exc
        raise UnsafeInputError(f"cannot read {path}: {exc.strerror}") from exc
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeInputError(NOT_REGULAR.format(path=path))
        check_single_link(path, info)
        if info.st_size > limit:
            raise UnsafeInputError(
                OVERSIZE.format(path=path, size=info.st_size, limit=limit, what=what)
            )
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UnsafeInputError(OVERSIZE.format(path=path, size=len(data), limit=limit, what=what))
    return data


def strict_json(text: str, path: Path | str, line: int = 1) -> Any:
    """Parse JSON strictly: no NaN or Infinity, no duplicate keys, at most 64 levels deep.

    Raises:
        UnsafeInputError: the text is not strict JSON (with the file and line).
    """
    try:
        return safe_load.load_json(text, path, strict=True, line=line)
    except safe_load.DataFileError as exc:
        raise UnsafeInputError(str(exc)) from exc


def decode_utf8(data: bytes, path: Path | str) -> str:
    """Decode bytes as UTF-8, or raise :class:`UnsafeInputError` naming the file and line."""
    try:
        return safe_load.decode_utf8(data, path)
    except safe_load.DataFileError as exc:
        raise UnsafeInputError(str(exc)) from exc


def read_json_lines(path: Path, limit: int) -> list[dict[str, Any]]:
    """Read a JSONL file strictly: every line a JSON object, the last one ending in a newline.

    Raises:
        UnsafeInputError: oversize, not UTF-8, a partial last line, or a malformed line.
    """
    text = decode_utf8(read_capped(path, limit, "episode records"), path)
    if text and not text.endswith("\n"):
        raise UnsafeInputError(
            MALFORMED_JSON.format(
                path=path, line=text.count("\n") + 1, why="the last line has no newline"
            )
        )
    objects = []
    for number, line in enumerate(text.split("\n")[:-1], start=1):
        value = strict_json(line, path, number)
        if not isinstance(value, dict):
            raise UnsafeInputError(
                MALFORMED_JSON.format(path=path, line=number, why="not a JSON object")
            )
        objects.append(value)
    return objects


def read_json_object(path: Path, limit: int) -> dict[str, Any]:
    """Read a JSON file holding one object, strictly."""
    value = strict_json(decode_utf8(read_capped(path, limit, "metadata"), path), path)
    if not isinstance(value, dict):
        raise UnsafeInputError(MALFORMED_JSON.format(path=path, line=1, why="not a JSON object"))
    return value


def read_yaml_mapping(path: Path, limit: int) -> dict[str, Any]:
    """Read a YAML file holding one mapping (safe loader, size-capped).

    Duplicate keys, alias bombs and deep nesting are refused (see :mod:`envsuite.safe_load`).

    Raises:
        UnsafeInputError: oversize, not UTF-8, not YAML, beyond a limit, or not a mapping.
    """
    text = decode_utf8(read_capped(path, limit, "metadata"), path)
    try:
        value = safe_load.load_yaml(text, path)
    except safe_load.DataFileError as exc:
        raise UnsafeInputError(str(exc)) from exc
    if not isinstance(value, dict):
        raise UnsafeInputError(f"{path} must hold a mapping, not {type(value).__name__}")
    return value
