"""A SIGKILLed ``envsuite eval --workers N`` leaves no process, temp folder or semaphore behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from envsuite.evaluation.record_store import RECORDS_FILE
from envsuite.records import read_records

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process tree from /proc"
)

EPISODES = 600


def _command(out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "envsuite",
        "eval",
        "envsuite/Bandit-v0",
        "--agent",
        "random",
        "--out",
        str(out),
        "--episodes",
        str(EPISODES),
        "--set",
        "horizon=200",
        "--workers",
        "2",
        "--no-progress",
    ]


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return found
    for thread in threads:
        try:
            children = Path(f"/proc/{pid}/task/{thread}/children").read_text().split()
        except FileNotFoundError:
            continue
        for child in map(int, children):
            found |= {child, *_descendants(child)}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _shared_memory_files(pids: set[int]) -> set[str]:
    """Files under /dev/shm (named semaphores) that any of ``pids`` has mapped."""
    names: set[str] = set()
    for pid in pids:
        try:
            maps = Path(f"/proc/{pid}/maps").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        names |= {line.split()[-1] for line in maps.splitlines() if "/dev/shm/" in line}
    return names


def _wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_killed_parallel_eval_leaves_nothing_behind_and_resumes(tmp_path):
    out = tmp_path / "run"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}  # multiprocessing's pymp-* folders go here
    process = subprocess.Popen(
        _command(out), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    records = out / RECORDS_FILE
    tree: set[int] = set()

    def running_in_parallel() -> bool:
        tree.update(_descendants(process.pid))
        started = records.exists() and records.read_bytes().count(b"\n") >= 10
        # Two workers and multiprocessing's resource tracker (plus a fork server, if any).
        return (started and len(tree) >= 3) or process.poll() is not None

    assert _wait_until(running_in_parallel, 120), "the workers never started"
    assert process.poll() is None, "the run finished before it could be killed"
    tree.update(_descendants(process.pid))
    semaphores = _shared_memory_files({process.pid, *tree})
    assert semaphores, "the pool's queues hold named semaphores: the check below needs them"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()

    try:
        assert _wait_until(lambda: not any(map(_alive, tree)), 30), [
            Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in tree if _alive(pid)
        ]
    finally:  # a failing run must not leave its orphans to the next test
        for pid in filter(_alive, tree):
            os.kill(pid, signal.SIGKILL)
    assert _wait_until(lambda: not any(map(os.path.exists, semaphores)), 30), semaphores
    assert list(scratch.iterdir()) == []
    assert b"Traceback" not in process.stderr.read()
    process.stderr.close()

    killed_with = len(read_records(out / RECORDS_FILE))
    assert 10 <= killed_with < EPISODES
    wide = {**env, "COLUMNS": "400"}  # the summary's title holds the new/resumed counts
    resumed = subprocess.run(_command(out), env=wide, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    summary = " ".join(resumed.stdout.split())
    assert f"{EPISODES - killed_with} new, {killed_with} resumed" in summary
    seeds = sorted(record.seed for record in read_records(out / RECORDS_FILE))
    assert seeds == list(range(EPISODES))


def test_a_worker_that_ends_abruptly_stops_the_run_with_a_message(tmp_path):
    from envsuite.evaluation.executors import WorkerLostError
    from envsuite.evaluation.protocol import adhoc_protocol
    from envsuite.evaluation.run_directory import evaluate

    protocol = adhoc_protocol("envsuite/Bandit-v0", {"horizon": 5}, episodes=4, attempts=1)
    agent = "tests.evaluation.flaky_agents:EndsItsProcess"
    with pytest.raises(WorkerLostError, match=r"ended abruptly .* run the same command again"):
        evaluate(protocol, agent, tmp_path / "run", workers=2, progress=False)
