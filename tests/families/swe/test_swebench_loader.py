"""SWE-bench instances for a repository on disk, graded with the local sandbox.

The repository is made here: a tiny library with a bug at the base commit, a later commit
(the fix) that must not be reachable from the sandbox, and tests in the SWE-bench shape
(the new test arrives in the test patch).
"""

from __future__ import annotations

import json
import subprocess

import pytest

import envsuite
from envsuite.families.swe.grading import PARTIAL, RESOLVED, UNRESOLVED, grade_patch
from envsuite.families.swe.repo_snapshot import COMMIT_ENV, repo_archive
from envsuite.families.swe.swebench_loader import (
    SWEBenchFormatError,
    load_swebench_jsonl,
)
from envsuite.families.swe.unified_diff import make_file_diff
from envsuite.sandbox.local_sandbox import LocalSandbox

BUGGY = "def add(a, b):\n    return a - b\n\n\ndef neg(a):\n    return a\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return -a\n"
HALF = "def add(a, b):\n    return a + b\n\n\ndef neg(a):\n    return a\n"
OLD_TESTS = "from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"
NEW_TESTS = OLD_TESTS + (
    "\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    "\n\ndef test_neg():\n    from calc import neg\n    assert neg(2) == -2\n"
)


def git(repo, *args):
    env = {**COMMIT_ENV, "PATH": "/usr/local/bin:/usr/bin:/bin"}
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def instance_file(tmp_path_factory):
    root = tmp_path_factory.mktemp("repos")
    repo = root / "acme__calc"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "calc.py").write_text(BUGGY)
    (repo / "test_calc.py").write_text(OLD_TESTS)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "buggy")
    base = git(repo, "rev-parse", "HEAD").strip()
    (repo / "calc.py").write_text(FIXED)
    git(repo, "commit", "-qam", "the fix (must stay invisible)")
    instance = {
        "instance_id": "acme__calc-1",
        "repo": "acme/calc",
        "base_commit": base,
        "patch": make_file_diff("calc.py", BUGGY, FIXED),
        "test_patch": make_file_diff("test_calc.py", OLD_TESTS, NEW_TESTS),
        "problem_statement": "add subtracts and neg does nothing",
        "FAIL_TO_PASS": json.dumps(["test_calc.py::test_add", "test_calc.py::test_neg"]),
        "PASS_TO_PASS": json.dumps(["test_calc.py::test_zero"]),
        "hints_text": "",
        "version": "1.0",
    }
    path = root / "instances.jsonl"
    path.write_text(json.dumps(instance) + "\n")
    return path, root


@pytest.fixture(scope="module")
def task(instance_file):
    path, root = instance_file
    [task] = load_swebench_jsonl(path, root)
    return task


def local(task):
    return lambda: LocalSandbox(task.environment.sandbox_environment(""))


def test_fields_are_read(task):
    assert task.FAIL_TO_PASS == ("test_calc.py::test_add", "test_calc.py::test_neg")
    assert task.test_files == ("test_calc.py",) and task.metadata["version"] == "1.0"


def test_the_sandbox_history_ends_at_the_base_commit(task):
    archive, _ = repo_archive(task)
    with local(task)() as sandbox:
        sandbox.load_repo(archive)
        log = sandbox.run("git log --all --oneline | wc -l; cat calc.py").output
    assert log.startswith("1\n") and "a - b" in log


def test_grading_gold_half_empty_and_broken(task):
    assert grade_patch(task, task.patch, local(task)).resolution == RESOLVED
    half = grade_patch(task, make_file_diff("calc.py", BUGGY, HALF), local(task))
    assert half.resolution == PARTIAL and half.dense_score == 0.5
    empty = grade_patch(task, "", local(task))
    assert empty.resolution == UNRESOLVED and empty.dense_score == 0.0
    breaking = FIXED.replace(
        "def add(a, b):\n    return a + b", "def add(a, b):\n    return a + b + (a == 0)"
    )
    broken = grade_patch(task, make_file_diff("calc.py", BUGGY, breaking), local(task))
    assert broken.resolution == UNRESOLVED and broken.pass_to_pass["failure"] == [
        "test_calc.py::test_zero"
    ]
    assert broken.dense_score == 0.0


def test_a_patch_that_does_not_apply_is_unresolved(task):
    stale = make_file_diff("calc.py", "something else\n", "x\n")
    report = grade_patch(task, stale, local(task))
    assert report.resolution == UNRESOLVED and not report.patch_applied


def test_exiting_before_pytest_finishes_is_unresolved(task):
    # Library code that ends the test process with status 0 at import: no credit. Written
    # plainly, the diff screen stops it; hidden from the screen, the runner's missing
    # end-of-session record does.
    plain = FIXED + "\nimport os\nos._exit(0)\n"
    report = grade_patch(task, make_file_diff("calc.py", BUGGY, plain), local(task))
    assert report.resolution == UNRESOLVED and "[hard-exit] os._exit(0)" in report.error
    hidden = FIXED + "\nimport os\ngetattr(os, '_ex' + 'it')(0)\n"
    report = grade_patch(task, make_file_diff("calc.py", BUGGY, hidden), local(task))
    assert report.resolution == UNRESOLVED and "did not finish its session" in report.error


def test_a_planted_pytest_module_cannot_replace_the_runner(task):
    fake = "import sys\nprint('3 passed')\nsys.exit(0)\n"
    honest_half = make_file_diff("calc.py", BUGGY, HALF)
    report = grade_patch(task, honest_half + make_file_diff("pytest.py", None, fake), local(task))
    assert ["pytest.py", "adds a module that shadows 'pytest'"] in [list(d) for d in report.dropped]
    assert report.resolution == PARTIAL  # the honest half of the diff still counts


def test_the_env_runs_swebench_tasks(instance_file):
    path, root = instance_file
    env = envsuite.make(
        "envsuite/SWE-v0", tasks_file=str(path), repos_root=str(root), backend="local"
    )
    observation, info = env.reset(seed=0)
    assert "add subtracts" in observation and info["instance_id"] == "acme__calc-1"
    env.step(json.dumps({"tool": "replace", "path": "calc.py", "old": "a - b", "new": "a + b"}))
    env.step(
        json.dumps(
            {"tool": "replace", "path": "calc.py", "old": "return a\n", "new": "return -a\n"}
        )
    )
    _, reward, terminated, _, info = env.step(json.dumps({"tool": "submit"}))
    assert terminated and reward == 1.0 and info["resolution"] == "resolved"
    env.close()


def test_missing_fields_and_repositories_are_reported(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"instance_id": "x", "repo": "a/b"}) + "\n")
    with pytest.raises(SWEBenchFormatError, match="missing"):
        load_swebench_jsonl(bad, tmp_path)
