"""Grading a patch as SWE-bench does, in a fresh sandbox, hard to game.

1. A fresh sandbox gets the task's base repository.
2. The agent's diff is applied minus its changes to tests and test-runner configuration
   (:mod:`.patch_filter`); ``pyproject.toml``'s pytest tables are put back.
3. The hidden test patch is applied.
4. pytest runs the task's test files with JUnit XML written outside the repository, through
   envsuite's runner (:mod:`.pytest_runner`: the repository cannot replace pytest).
5. Results come from the XML and the exit code together; printed output counts for nothing.
   A test missing from the XML counts as failed. An exit code that contradicts the XML
   (0 with failures, 1 without), or one other than 0/1, leaves the task unresolved.

FAIL_TO_PASS / PASS_TO_PASS and the resolution follow SWE-bench: *resolved* when every
FAIL_TO_PASS and PASS_TO_PASS test passes, *partial* when some but not all FAIL_TO_PASS
tests pass and every PASS_TO_PASS test does, *unresolved* otherwise.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from envsuite.families.swe.junit import PASSED, JUnitError, TestOutcome, parse_junit
from envsuite.families.swe.output_limits import OutputLimits
from envsuite.families.swe.patch_filter import filter_patch, restore_pytest_tables
from envsuite.families.swe.repo_snapshot import repo_archive
from envsuite.families.swe.sandbox import FileAccessError, Sandbox
from envsuite.families.swe.task import SWETask, TaskEnvironment
from envsuite.families.swe.unified_diff import DiffError

RESOLVED, PARTIAL, UNRESOLVED = "resolved", "partial", "unresolved"
#: Seconds the hidden tests may run.
DEFAULT_TEST_TIMEOUT = 600.0
#: Largest JUnit XML read.
MAX_JUNIT_BYTES = 32 * 1024 * 1024
_INTERNAL = OutputLimits(keep_bytes=64 * 1024, stream_bytes=64 * 1024 * 1024)


class GradingError(RuntimeError):
    """Grading itself failed (the test patch does not apply): a task or infra problem."""


@dataclasses.dataclass(frozen=True)
class GradeReport:
    """The outcome of grading one patch.

    Attributes:
        instance_id: The task.
        resolution: ``resolved``, ``partial`` or ``unresolved``.
        fail_to_pass: FAIL_TO_PASS tests that now pass / still fail.
        pass_to_pass: PASS_TO_PASS tests that pass / broke.
        patch_applied: Whether the (filtered) agent diff applied.
        dropped: Files of the agent's diff that were not applied, with the reason.
        exit_code: pytest's exit code (None when it did not run).
        error: Why the tests could not be trusted or run, if so.
    """

    instance_id: str
    resolution: str
    fail_to_pass: dict[str, list[str]]
    pass_to_pass: dict[str, list[str]]
    patch_applied: bool
    dropped: list[tuple[str, str]]
    exit_code: int | None
    error: str | None = None

    @property
    def resolved(self) -> bool:
        """Whether the task is resolved."""
        return self.resolution == RESOLVED

    @property
    def dense_score(self) -> float:
        """Fraction of FAIL_TO_PASS tests fixed; 0 when any PASS_TO_PASS test broke."""
        if self.error is not None or self.pass_to_pass["failure"]:
            return 0.0
        fixed = len(self.fail_to_pass["success"])
        total = fixed + len(self.fail_to_pass["failure"])
        return fixed / total if total else 1.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (for reports)."""
        data = dataclasses.asdict(self)
        data["dropped"] = [list(item) for item in self.dropped]
        return data

    def summary(self) -> dict[str, Any]:
        """A compact JSON-ready dict for ``info``: counts, and the names of failing tests."""
        return {
            "resolution": self.resolution,
            "fail_to_pass_fixed": len(self.fail_to_pass["success"]),
            "fail_to_pass_failing": self.fail_to_pass["failure"][:20],
            "pass_to_pass_kept": len(self.pass_to_pass["success"]),
            "pass_to_pass_broken": self.pass_to_pass["failure"][:20],
            "patch_applied": self.patch_applied,
            "dropped": [list(item) for item in self.dropped],
            "exit_code": self.exit_code,
            "error": self.error,
        }


def resolution_status(f2p_ok: int, f2p_bad: int, p2p_ok: int, p2p_bad: int) -> str:
    """SWE-bench's resolution from counts (an empty category counts as all passing)."""
    f2p = f2p_ok / (f2p_ok + f2p_bad) if f2p_ok + f2p_bad else 1.0
    p2p = p2p_ok / (p2p_ok + p2p_bad) if p2p_ok + p2p_bad else 1.0
    if f2p == 1.0 and p2p == 1.0:
        return RESOLVED
    if 0.0 < f2p < 1.0 and p2p == 1.0:
        return PARTIAL
    return UNRESOLVED


def split_outcomes(
    task: SWETask, outcomes: dict[str, TestOutcome], trusted: bool
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """FAIL_TO_PASS and PASS_TO_PASS split into success/failure (missing = failure)."""

    def split(names: tuple[str, ...]) -> dict[str, list[str]]:
        ok = [n for n in names if trusted and n in outcomes and outcomes[n].status == PASSED]
        return {"success": ok, "failure": [n for n in names if n not in ok]}

    return split(task.FAIL_TO_PASS), split(task.PASS_TO_PASS)


def pytest_command(sandbox: Sandbox, task: SWETask, junit_path: str) -> str:
    """The shell command that runs the task's tests into ``junit_path``."""
    return runner_command(sandbox, task.environment, junit_path, task.test_files)


def runner_command(
    sandbox: Sandbox, environment: TaskEnvironment, junit_path: str, test_files: Sequence[str]
) -> str:
    """The shell command that runs ``test_files`` with envsuite's runner into ``junit_path``."""
    argv = list(sandbox.test_runner)
    for root in environment.python_path:
        argv += ["--path", sandbox.repo_dir if root in (".", "") else f"{sandbox.repo_dir}/{root}"]
    argv += [
        "--", "-p", "no:cacheprovider", "-o", "junit_family=xunit1",
        f"--junitxml={junit_path}", "-q", "--no-header", "-rN",
        *environment.pytest_args, *test_files,
    ]  # fmt: skip
    return " ".join(shlex.quote(a) for a in argv)


def _apply(sandbox: Sandbox, name: str, diff: str) -> str | None:
    """``git apply`` ``diff`` in the repository; None on success, else git's message."""
    path = sandbox.put_private_file(name, diff.encode("utf-8"))
    result = sandbox.run(
        f"git apply --whitespace=nowarn {shlex.quote(path)}", timeout_s=120, limits=_INTERNAL
    )
    return None if result.exit_code == 0 else result.output.strip()[-1000:]


def _guard_pyproject(sandbox: Sandbox) -> None:
    original = sandbox.run("git show HEAD:pyproject.toml", timeout_s=60, limits=_INTERNAL)
    try:
        current = sandbox.read_file("pyproject.toml").decode("utf-8")
    except (FileAccessError, UnicodeDecodeError):
        return
    old = original.output if original.exit_code == 0 else ""
    fixed = restore_pytest_tables(old, current)
    if fixed != current:
        sandbox.write_file("pyproject.toml", fixed.encode("utf-8"))


def grade_patch(
    task: SWETask,
    diff: str,
    new_sandbox: Callable[[], Sandbox],
    *,
    test_timeout_s: float = DEFAULT_TEST_TIMEOUT,
) -> GradeReport:
    """Grade ``diff`` against ``task``'s hidden tests in a fresh sandbox (see the module).

    Args:
        task: The task.
        diff: The agent's diff against the base commit ("" for the empty patch).
        new_sandbox: Starts a fresh sandbox of the task's environment.
        test_timeout_s: Seconds the tests may run before they count as failed.

    Raises:
        GradingError: the hidden test patch does not apply (a broken task).
    """
    try:
        filtered = filter_patch(diff, task.environment.python_path)
    except DiffError as exc:
        return _unresolved(task, f"the submission is not a readable diff: {exc}", applied=False)
    archive, _ = repo_archive(task)
    with new_sandbox() as sandbox:
        sandbox.load_repo(archive)
        if filtered.diff:
            failure = _apply(sandbox, "agent.diff", filtered.diff)
            if failure is not None:
                return _unresolved(
                    task, f"the patch does not apply: {failure}", False, filtered.dropped
                )
            if "pyproject.toml" in filtered.kept_paths:
                _guard_pyproject(sandbox)
        if task.test_patch:
            failure = _apply(sandbox, "tests.diff", task.test_patch)
            if failure is not None:
                raise GradingError(f"{task.instance_id}: the test patch does not apply: {failure}")
        junit_path = f"{sandbox.private_dir}/junit.xml"
        sandbox.run(
            f"mkdir -p {shlex.quote(sandbox.private_dir)} && rm -f {shlex.quote(junit_path)}",
            timeout_s=30,
        )
        run = sandbox.run(
            pytest_command(sandbox, task, junit_path), timeout_s=test_timeout_s, limits=_INTERNAL
        )
        xml = sandbox.read_private_file(junit_path, MAX_JUNIT_BYTES)
    error: str | None = None
    outcomes: dict[str, TestOutcome] = {}
    if run.timed_out:
        error = f"the tests timed out after {test_timeout_s:.0f} s"
    if xml is None:
        error = error or f"pytest wrote no JUnit XML (exit code {run.exit_code})"
    else:
        try:
            outcomes = parse_junit(xml, task.test_files)
        except JUnitError as exc:
            error = error or str(exc)
    bad = [o for o in outcomes.values() if o.status in ("failed", "error")]
    if error is None and run.exit_code not in (0, 1):
        error = f"pytest exited with {run.exit_code} (interrupted, internal or usage error)"
    elif error is None and (run.exit_code == 0) == bool(bad):
        error = f"pytest's exit code {run.exit_code} contradicts its JUnit XML"
    f2p, p2p = split_outcomes(task, outcomes, trusted=error is None)
    resolution = (
        UNRESOLVED
        if error is not None
        else resolution_status(
            len(f2p["success"]), len(f2p["failure"]), len(p2p["success"]), len(p2p["failure"])
        )
    )
    return GradeReport(
        instance_id=task.instance_id,
        resolution=resolution,
        fail_to_pass=f2p,
        pass_to_pass=p2p,
        patch_applied=True,
        dropped=list(filtered.dropped),
        exit_code=run.exit_code,
        error=error,
    )


def _unresolved(
    task: SWETask,
    error: str,
    applied: bool,
    dropped: tuple[tuple[str, str], ...] = (),
) -> GradeReport:
    f2p, p2p = split_outcomes(task, {}, trusted=False)
    return GradeReport(task.instance_id, UNRESOLVED, f2p, p2p, applied, list(dropped), None, error)
