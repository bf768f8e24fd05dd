"""A rollout killed mid-run (SIGKILL) resumes with every episode recorded exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from envsuite.agents.scripted_endpoint import ScriptedEndpoint, cycle_valid_actions
from envsuite.evaluation.rollout import read_transcripts, rollout, rollout_protocol
from tests.evaluation.test_rollout import comparable

GROUPS, SIZE, HORIZON = 12, 4, 8


def slow_policy(messages):
    time.sleep(0.01)
    return cycle_valid_actions(messages)


def kill_midway(command: list[str], records_file: Path, records: int) -> int:
    """Run ``command``, SIGKILL it once ``records_file`` holds ``records`` lines; the lines
    it held when killed."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if records_file.exists() and records_file.read_bytes().count(b"\n") >= records:
            break
        time.sleep(0.005)
    assert process.poll() is None, "the rollout ended before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait()
    return records_file.read_bytes().count(b"\n")


def test_killed_rollout_resumes_to_the_same_records(tmp_path):
    out = tmp_path / "killed"
    with ScriptedEndpoint(policy=slow_policy) as endpoint:
        command = [
            sys.executable, "-m", "envsuite", "rollout", "envsuite/Bandit-v0",
            "--set", f"horizon={HORIZON}", "--model", "scripted",
            "--base-url", endpoint.base_url, "--groups", str(GROUPS),
            "--group-size", str(SIZE), "--concurrency", "4", "--out", str(out),
        ]  # fmt: skip
        records_file = out / "episodes.jsonl"
        done_before = kill_midway(command, records_file, 8)
        assert 8 <= done_before < GROUPS * SIZE

        protocol = rollout_protocol(
            "envsuite/Bandit-v0", {"horizon": HORIZON}, groups=GROUPS, group_size=SIZE
        )
        options = {"base_url": endpoint.base_url, "temperature": 1.0}
        resumed = rollout(protocol, "scripted", out, agent_options=options, concurrency=8)
        whole = rollout(
            protocol, "scripted", tmp_path / "whole", agent_options=options, concurrency=8
        )
    assert resumed.resumed == done_before and resumed.new == GROUPS * SIZE - done_before
    assert len(records_file.read_text().splitlines()) == GROUPS * SIZE

    def key(record):
        return record.key

    assert [comparable(r) for r in sorted(resumed.records, key=key)] == [
        comparable(r) for r in sorted(whole.records, key=key)
    ]
    lines = read_transcripts(resumed.transcripts_path)
    assert sorted((line["seed"], line["attempt"]) for line in lines) == sorted(
        (r.seed, r.attempt) for r in resumed.records
    )
    assert len(lines) == GROUPS * SIZE
