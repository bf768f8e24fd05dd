"""The run's ``episodes.jsonl``: appended one flushed line per episode, safe to resume.

Only the coordinating process writes, so lines never interleave, and only one process at a
time: the runner holds :func:`run_dir_lock` while it runs, so a second ``envsuite eval`` on
the same directory is refused instead of recording episodes twice (the lock goes with the
process, even when it is killed). Each line is flushed to the operating
system as its episode ends, which is what survives the process being killed (even by
SIGKILL); it is not fsync'ed, so a power loss may cost the last few episodes, which then
simply run again. A run killed mid-write leaves at most one partial last line; opening the
store cuts it off before appending, and the episode it belonged to runs again. Records are
keyed, so a resumed run skips every episode already on disk and writes each missing one
exactly once.

A file edited or concatenated by hand may hold an episode twice. A line identical to an
earlier one says nothing new: opening the store drops it from the file (replacing the file
atomically) and counts it, for a warning. Two different records of one episode contradict
each other, and which one is right only a person can tell: opening the store refuses them,
before anything runs.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from envsuite.errors import UsageError
from envsuite.records import EpisodeRecord, read_unique_records

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; one eval per directory is then on the user
    fcntl = None  # type: ignore[assignment]

RECORDS_FILE = "episodes.jsonl"


class RunInUseError(UsageError):
    """Another process has the run directory open for writing."""


class RunPathIsAFileError(UsageError):
    """The run directory's path names a file."""


class RecordStore:
    """Append-only records file of one run directory.

    Args:
        run_dir: The run's output directory (created if needed).

    Attributes:
        path: The records file.
        records: Every record on disk (each episode once), then every appended one.
        done: The keys of ``records``.
        duplicates: Lines dropped on opening because an identical earlier line exists.

    Raises:
        RecordFileError: a line that is not a valid record, or two different records of
            one episode.
    """

    def __init__(self, run_dir: str | Path) -> None:
        self.path = Path(run_dir) / RECORDS_FILE
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._drop_partial_last_line()
        self.records: list[EpisodeRecord] = []
        self.duplicates = 0
        if self.path.exists():
            self.records, repeated = read_unique_records(self.path)
            self._drop_lines(repeated)
            self.duplicates = len(repeated)
        self.done = {record.key for record in self.records}

    def _drop_partial_last_line(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as handle:
                handle.truncate(cut)

    def _drop_lines(self, numbers: list[int]) -> None:
        """Rewrite the file without lines ``numbers`` (1-based), atomically."""
        if not numbers:
            return
        dropped = set(numbers)
        lines = self.path.read_bytes().splitlines(keepends=True)
        kept = b"".join(line for number, line in enumerate(lines, 1) if number not in dropped)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".episodes-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(kept)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def append(self, record: EpisodeRecord) -> None:
        """Write ``record`` as one line and flush it to the OS before returning."""
        key = record.key
        if key in self.done:
            raise ValueError(f"a record for {key} is already in {self.path}")
        _append_to_file(self.path, (record.to_json_line() + "\n").encode("utf-8"))
        self.records.append(record)
        self.done.add(key)


def _append_to_file(path: Path, data: bytes) -> None:
    """Append ``data`` to ``path`` (created if needed) with unbuffered writes, then close it.

    Written straight to the OS: nothing is left in a buffer of this process when it returns.
    Cheaper than a text-mode ``open``, which builds a buffer and a codec per call (a tenth
    of a millisecond, as much as a fast env's whole episode).
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)  # no \r\n
    descriptor = os.open(path, flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view) :]
    finally:
        os.close(descriptor)


@contextmanager
def run_dir_lock(run_dir: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on ``run_dir`` (created if needed) for the ``with`` block.

    The lock is ``flock`` on the directory itself, so it adds no file and is released when
    the process ends, however it ends. Without ``fcntl`` (Windows) nothing is locked.

    Raises:
        RunInUseError: another process (or another open lock here) holds it.
        RunPathIsAFileError: ``run_dir`` is a file.
    """
    folder = Path(run_dir)
    if folder.is_file():
        raise RunPathIsAFileError(
            f"{folder} is a file, not a run directory; use another --out (a new directory or "
            "a run's)"
        )
    folder.mkdir(parents=True, exist_ok=True)
    if fcntl is None:
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise RunInUseError(
                f"{folder} is in use by another envsuite eval (it holds the run's lock); let "
                "it finish, or use another --out"
            ) from exc
        yield
    finally:
        os.close(descriptor)
