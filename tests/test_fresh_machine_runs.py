"""The fresh-machine runs' clean-up (tests/fresh_machine_runs.py) also after SIGTERM.

A real pytest process over a small generated project installs the same SIGTERM handling
as a run that starts containers, and is stopped by SIGTERM in the middle of a test: its
session must still finish (where the containers are killed and the image removed).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CONFTEST = """
import os
from pathlib import Path

from tests.fresh_machine_runs import interrupt_on_sigterm


def pytest_sessionstart(session):
    if os.environ["HANDLE_SIGTERM"] == "1":
        interrupt_on_sigterm()


def pytest_sessionfinish(session, exitstatus):
    Path(os.environ["FINISHED"]).write_text(str(int(exitstatus)))
"""

SLOW_TEST = """
import os
import time
from pathlib import Path


def test_waits_to_be_stopped():
    Path(os.environ["STARTED"]).touch()
    time.sleep(120)
"""


def _stop_with_sigterm(tmp_path: Path, handle: bool) -> tuple[int, Path]:
    """Run the project's pytest, SIGTERM it once its test runs; its exit code and mark file."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_slow.py").write_text(SLOW_TEST)
    started, finished = tmp_path / "started", tmp_path / "finished"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HANDLE_SIGTERM": "1" if handle else "0",
        "STARTED": str(started),
        "FINISHED": str(finished),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(project)],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not started.exists():
            assert process.poll() is None, "pytest ended before its test started"
            assert time.monotonic() < deadline, "the test never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        return process.wait(timeout=60), finished
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_sigterm_still_finishes_the_session(tmp_path: Path) -> None:
    code, finished = _stop_with_sigterm(tmp_path, handle=True)
    assert finished.read_text() == "2"  # pytest.ExitCode.INTERRUPTED
    assert code == 2


def test_without_the_handler_sigterm_skips_the_session_finish(tmp_path: Path) -> None:
    """The control: what the handler prevents does happen without it."""
    code, finished = _stop_with_sigterm(tmp_path, handle=False)
    assert code == -signal.SIGTERM
    assert not finished.exists()
