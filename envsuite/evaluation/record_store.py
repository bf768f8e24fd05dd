"""The run's ``episodes.jsonl``: appended one flushed line per episode, safe to resume.

Only the coordinating process writes, so lines never interleave. Each line is flushed to
the operating system as its episode ends, which is what survives the process being killed
(even by SIGKILL); it is not fsync'ed, so a power loss may cost the last few episodes,
which then simply run again. A run killed mid-write
leaves at most one partial last line; opening the store cuts it off before appending, and
the episode it belonged to runs again. Records are keyed, so a resumed run skips every
episode already on disk and writes each missing one exactly once.

A file edited or concatenated by hand may hold an episode twice. Two identical lines say
the same thing: the later one is ignored (and counted, for a warning). Two different
records of one episode contradict each other, and which one is right only a person can
tell: opening the store refuses them, before anything runs.
"""

from __future__ import annotations

from pathlib import Path

from envsuite.records import EpisodeRecord, read_unique_records

RECORDS_FILE = "episodes.jsonl"


class RecordStore:
    """Append-only records file of one run directory.

    Args:
        run_dir: The run's output directory (created if needed).

    Attributes:
        path: The records file.
        records: Every record on disk (each episode once), then every appended one.
        done: The keys of ``records``.
        duplicates: Lines ignored on opening because an identical earlier line exists.

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
            self.records, self.duplicates = read_unique_records(self.path)
        self.done = {record.key for record in self.records}

    def _drop_partial_last_line(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as handle:
                handle.truncate(cut)

    def append(self, record: EpisodeRecord) -> None:
        """Write ``record`` as one line and flush it to the OS before returning."""
        if record.key in self.done:
            raise ValueError(f"a record for {record.key} is already in {self.path}")
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(record.to_json_line() + "\n")
            handle.flush()
        self.records.append(record)
        self.done.add(record.key)
