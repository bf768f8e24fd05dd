"""The suite split (tests/split_suite.py): two pytest sessions share a queue and together run
every test exactly once; what the container skips or leaves unfinished runs on the host.

The sessions here are real pytest processes over a small generated project whose conftest
wires the split as tests/conftest.py does, with the side and the queue given by variables.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.split_suite import CONTAINER, HOST, SuiteSplit, TestQueue

REPO = Path(__file__).resolve().parents[1]

CONFTEST = """
import os
from pathlib import Path

from tests.split_suite import SPLIT_KEY, SuiteSplit, TestQueue, run_split


def pytest_collection_modifyitems(config, items):
    folder = Path(os.environ["SPLIT_QUEUE"])
    split = SuiteSplit(
        TestQueue(folder), os.environ["SPLIT_SIDE"],
        container_done=(folder.parent / "container-done").exists,
    )
    if os.environ["SPLIT_SIDE"] == "host":
        split.claim_host_only(items)
    config.stash[SPLIT_KEY] = split


def pytest_runtestloop(session):
    return run_split(session, session.config.stash[SPLIT_KEY])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    terminalreporter.write_line(config.stash[SPLIT_KEY].summary(exitstatus == 2))
"""

MODULE = """
import os
import time

import pytest


@pytest.fixture(scope="module")
def shared():
    return []


@pytest.mark.parametrize("n", range({count}))
def test_step(n, shared):
    time.sleep({sleep})
    shared.append(n)
    assert shared == list(range(n + 1))  # module fixture kept across the module's tests
"""

SKIPPING_INSIDE = """
import os

import pytest


def test_everywhere():
    pass


def test_not_inside():
    if os.environ["SPLIT_SIDE"] == "container":
        pytest.skip("not inside")


@pytest.mark.xfail(reason="expected", strict=True)
def test_expected_failure():
    assert False
"""

HOST_ONLY = """
import pytest

pytestmark = pytest.mark.host_only


def test_host():
    pass
"""

DYING_INSIDE = """
import os


def test_first():
    pass


def test_dies_inside():
    if os.environ["SPLIT_SIDE"] == "container":
        os._exit(3)


def test_after():
    pass
"""


def _project(tmp_path: Path, modules: dict[str, str]) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "conftest.py").write_text(CONFTEST)
    (project / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    host_only: host only\naddopts = -p no:cacheprovider\n"
    )
    for name, text in modules.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    # A folder with a conftest of its own: its tests' hooks come from a subset of the
    # plugins, which must hash (pytest's per-folder hook proxies).
    (project / "sub").mkdir(exist_ok=True)
    (project / "sub" / "conftest.py").write_text("")
    (tmp_path / "queue").mkdir()
    return project


def _start(project: Path, side: str) -> subprocess.Popen[str]:
    environment = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "SPLIT_SIDE": side,
        "SPLIT_QUEUE": str(project.parent / "queue"),
    }
    environment.pop("PYTEST_ADDOPTS", None)
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:randomly", str(project)],
        cwd=project,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    output, _ = process.communicate(timeout=120)
    return process.returncode, output


def _outcomes(output: str) -> Counter[tuple[str, str]]:
    """(outcome, node id) of every test ``-v`` reports."""
    found = re.findall(r"^(\S+::\S+) (PASSED|FAILED|SKIPPED|XFAIL|ERROR)", output, re.MULTILINE)
    return Counter((outcome, nodeid) for nodeid, outcome in found)


def test_a_claim_is_taken_once_and_names_its_side(tmp_path):
    queue = TestQueue(tmp_path)
    assert queue.claim("tests/a/test_x.py", HOST)
    assert not queue.claim("tests/a/test_x.py", CONTAINER)
    assert queue.owner("tests/a/test_x.py") == HOST and queue.owner("tests/b.py") is None
    queue.finish("tests/a/test_x.py", ["tests/a/test_x.py::test_y[1-a/b]"])
    queue.finish("tests/c.py", [])
    assert queue.finished("tests/a/test_x.py") and queue.finished("tests/c.py")
    assert queue.handed_back() == {"tests/a/test_x.py": ["tests/a/test_x.py::test_y[1-a/b]"]}


def test_both_sides_at_once_run_every_test_exactly_once(tmp_path):
    modules = {f"test_m{k}.py": MODULE.format(count=4, sleep=0.05) for k in range(6)}
    modules.update({f"sub/test_s{k}.py": MODULE.format(count=4, sleep=0.05) for k in range(2)})
    project = _project(tmp_path, modules)
    host, container = _start(project, HOST), _start(project, CONTAINER)
    status, container_output = _finish(container)
    (tmp_path / "container-done").touch()
    host_status, host_output = _finish(host)
    assert status == 0 and host_status == 0, container_output + host_output
    ran = _outcomes(host_output) + _outcomes(container_output)
    expected = {("PASSED", f"{name}::test_step[{n}]") for name in modules for n in range(4)}
    assert set(ran) == expected and set(ran.values()) == {1}, ran
    assert "suite split: this machine ran" in host_output
    assert "suite split: the fresh-machine container ran" in container_output


def test_the_host_keeps_host_only_modules_and_runs_what_the_container_skipped(tmp_path):
    project = _project(
        tmp_path,
        {
            "test_host_only.py": HOST_ONLY,
            "test_skipping.py": SKIPPING_INSIDE,
            "test_plain.py": MODULE.format(count=2, sleep=0),
        },
    )
    # The host claims its own modules at collection, before the container starts.
    TestQueue(tmp_path / "queue").claim("test_host_only.py", HOST)
    status, container_output = _finish(_start(project, CONTAINER))
    assert status == 0, container_output
    inside = _outcomes(container_output)
    assert inside == Counter(
        {
            ("PASSED", "test_plain.py::test_step[0]"): 1,
            ("PASSED", "test_plain.py::test_step[1]"): 1,
            ("PASSED", "test_skipping.py::test_everywhere"): 1,
            ("SKIPPED", "test_skipping.py::test_not_inside"): 1,
            ("XFAIL", "test_skipping.py::test_expected_failure"): 1,
        }
    ), container_output
    (tmp_path / "container-done").touch()
    status, host_output = _finish(_start(project, HOST))
    assert status == 0, host_output
    assert _outcomes(host_output) == Counter(
        {
            ("PASSED", "test_host_only.py::test_host"): 1,
            ("PASSED", "test_skipping.py::test_not_inside"): 1,  # handed back, not the xfail
        }
    ), host_output
    assert "1 tests handed back by the container ran here" in host_output


def test_a_module_the_container_died_in_runs_on_the_host(tmp_path):
    project = _project(
        tmp_path, {"test_a.py": MODULE.format(count=1, sleep=0), "test_dying.py": DYING_INSIDE}
    )
    status, container_output = _finish(_start(project, CONTAINER))
    assert status == 3, container_output
    (tmp_path / "container-done").touch()
    status, host_output = _finish(_start(project, HOST))
    assert status == 0, host_output
    assert set(_outcomes(host_output)) == {
        ("PASSED", "test_dying.py::test_first"),
        ("PASSED", "test_dying.py::test_dies_inside"),
        ("PASSED", "test_dying.py::test_after"),
    }, host_output


@pytest.mark.parametrize("side", [HOST, CONTAINER])
def test_a_failure_fails_the_side_that_ran_it(tmp_path, side):
    project = _project(tmp_path, {"test_bad.py": "def test_bad():\n    assert False\n"})
    (tmp_path / "container-done").touch()
    status, output = _finish(_start(project, side))
    assert status == 1 and ("FAILED", "test_bad.py::test_bad") in _outcomes(output), output


def test_an_interrupted_side_does_not_say_the_other_ran_the_rest(tmp_path: Path) -> None:
    split = SuiteSplit(TestQueue(tmp_path), HOST, ran={"tests/test_a.py": 3})
    assert "the rest of the collected modules ran on" in split.summary()
    line = split.summary(interrupted=True)
    assert line.startswith("suite split: interrupted after this machine had started 1 modules")
    assert "ran on" not in line
