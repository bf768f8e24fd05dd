"""Unpack a tar under the rules of tarfile's ``"data"`` filter, also on Pythons without it.

The filter came with Python 3.11.4; Debian 12's Python is 3.11.2 (with every update), where
``extractall(filter=...)`` is a TypeError. There, :func:`extract_data` checks every member
before extracting anything, by its path alone (the destination is new and empty): a member
may not land or link outside the destination, nor go through a symbolic link of the archive
(stricter than the filter, which follows links that stay inside), nor be a device or fifo;
modes and owners change as the filter changes them.
"""

from __future__ import annotations

import os
import stat
import tarfile
from pathlib import Path

#: Mode bits the data filter clears: setuid, setgid, sticky, group and other write.
_CLEARED_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX | stat.S_IWGRP | stat.S_IWOTH


def _stays_inside(path: str) -> bool:
    normal = os.path.normpath(path)
    return not os.path.isabs(path) and normal != ".." and not normal.startswith("../")


def _through_link(path: str, links: set[str]) -> bool:
    parts = path.split("/")
    return any(os.path.normpath("/".join(parts[:end])) in links for end in range(1, len(parts)))


def _refusal(member: tarfile.TarInfo, links: set[str]) -> str | None:
    """Why the data filter's rules refuse ``member``, or None."""
    if not (member.isfile() or member.isdir() or member.issym() or member.islnk()):
        return "is a device or fifo"
    targets = [member.name]
    if member.issym():
        targets.append(os.path.join(os.path.dirname(member.name), member.linkname))
    elif member.islnk():
        targets.append(member.linkname)
    for path in targets:
        if not _stays_inside(path):
            return "lands or links outside the destination"
        if _through_link(path, links):
            return "goes through a symbolic link of the archive"
    return None


def _as_the_filter_sets_it(member: tarfile.TarInfo) -> None:
    if not member.issym():
        mode = member.mode & ~_CLEARED_BITS
        if member.isfile():
            mode |= stat.S_IRUSR | stat.S_IWUSR
            if not mode & stat.S_IXUSR:
                mode &= ~(stat.S_IXGRP | stat.S_IXOTH)
        member.mode = mode
    member.uid, member.gid = os.getuid(), os.getgid()
    member.uname = member.gname = ""


def extract_data(tar: tarfile.TarFile, destination: Path) -> None:
    """Extract every member of ``tar`` into the new, empty folder ``destination``.

    Raises:
        tarfile.TarError: a member would land or link outside ``destination`` (or through
            a link), or is a device or fifo.
    """
    if hasattr(tarfile, "data_filter"):
        tar.extractall(destination, filter="data")
        return
    members = tar.getmembers()
    links = {os.path.normpath(member.name) for member in members if member.issym()}
    for member in members:
        refusal = _refusal(member, links)
        if refusal is not None:
            raise tarfile.TarError(f"{member.name!r} {refusal}")
        _as_the_filter_sets_it(member)
    tar.extractall(destination, members=members)
