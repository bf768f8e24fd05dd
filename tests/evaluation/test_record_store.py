"""The records file of a run: repeated and contradicting lines, and one writer at a time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.record_store import (
    RECORDS_FILE,
    RecordStore,
    RunInUseError,
    RunPathIsAFileError,
    run_dir_lock,
)
from envsuite.evaluation.run_directory import evaluate
from envsuite.records import RecordFileError

BANDIT = "envsuite/Bandit-v0"


@pytest.fixture
def finished(tmp_path):
    """A run directory of three finished episodes."""
    run = tmp_path / "run"
    evaluate(adhoc_protocol(BANDIT, {"horizon": 5}, 3, 1), "random", run, progress=False)
    return run


def _lines(run):
    return (run / RECORDS_FILE).read_text(encoding="utf-8").splitlines(keepends=True)


def test_an_identical_repeated_line_is_dropped_from_the_file_and_counted(finished):
    lines = _lines(finished)
    (finished / RECORDS_FILE).write_text("".join([*lines, lines[0], lines[1]]), encoding="utf-8")
    store = RecordStore(finished)
    assert store.duplicates == 2
    assert [r.seed for r in store.records] == [0, 1, 2]
    assert _lines(finished) == lines
    assert [path.name for path in finished.iterdir()] == sorted(["run.json", RECORDS_FILE])


def test_two_different_records_of_one_episode_are_refused_naming_both_lines(finished):
    lines = _lines(finished)
    other = json.loads(lines[1])
    other["episode_return"] = 99.0
    edited = [*lines, json.dumps(other) + "\n"]
    (finished / RECORDS_FILE).write_text("".join(edited), encoding="utf-8")
    with pytest.raises(RecordFileError, match=r"lines 2 and 4 both record .* seed 1 attempt 0"):
        RecordStore(finished)
    assert _lines(finished) == edited  # nothing is dropped when a person must decide


def test_a_line_that_is_not_utf8_is_named_by_its_line(finished):
    path = finished / RECORDS_FILE
    path.write_bytes(path.read_bytes() + b'{"run_id": "\xff"}\n')
    with pytest.raises(RecordFileError, match=r"episodes.jsonl, line 4, column 13: not UTF-8"):
        RecordStore(finished)


def test_a_second_writer_on_the_same_run_directory_is_refused(tmp_path):
    protocol = adhoc_protocol(BANDIT, {"horizon": 5}, 2, 1)
    with run_dir_lock(tmp_path / "run"):
        with pytest.raises(RunInUseError, match="in use by another envsuite eval"):
            evaluate(protocol, "random", tmp_path / "run", progress=False)
        holder = f"""
import sys
from envsuite.evaluation.record_store import run_dir_lock
with run_dir_lock({str(tmp_path / "run")!r}):
    pass
"""
        other = subprocess.run([sys.executable, "-c", holder], capture_output=True, text=True)
        assert "RunInUseError" in other.stderr
    assert evaluate(protocol, "random", tmp_path / "run", progress=False).new == 2


def test_a_file_given_as_the_run_directory_is_refused_by_name(tmp_path):
    # It used to end in mkdir's "File exists", as if an existing run were the trouble.
    path = tmp_path / "notes.txt"
    path.write_text("a file")
    protocol = adhoc_protocol(BANDIT, {"horizon": 5}, 1, 1)
    with pytest.raises(RunPathIsAFileError, match=r"notes\.txt is a file, not a run directory"):
        evaluate(protocol, "random", path, progress=False)
    assert path.read_text() == "a file"
