"""Grading a patch as SWE-bench does, in a fresh sandbox, hard to game.

1. The agent's diff loses its changes to tests, test-runner configuration, start-up
   hooks, packaging metadata, compiled files and files outside the import roots
   (:mod:`.patch_filter`); the rest is screened line by line (:mod:`.diff_screen`): a
   blocking flag (a library edit naming the test harness, ``os._exit``, frame or memory
   tricks) leaves the problem unresolved without running anything; other flags are recorded.
2. A fresh sandbox gets the problem's base repository; the filtered diff is applied
   (``pyproject.toml``'s pytest tables are put back), then the hidden test patch.
3. The repository is *sealed*: copied, with a file of canary tests (:mod:`.canary`), to a
   place the tests' user can read but not change (root-owned in Docker).
4. The result collector starts as a user the tests cannot signal, trace or write to; the
   tests run from the sealed copy through envsuite's runner
   (:mod:`envsuite.sandbox.pytest_runner`: the repository cannot replace pytest), which
   streams every report to the collector as it happens and has pytest write its JUnit XML
   into a second channel.
5. :mod:`.verdict` trusts the results only if the event stream, the JUnit XML, the three
   exit codes and the canaries all agree; printed output counts for nothing. A test
   missing from the results counts as failed.

FAIL_TO_PASS / PASS_TO_PASS and the resolution follow SWE-bench: *resolved* when every
FAIL_TO_PASS and PASS_TO_PASS test passes, *partial* when some but not all FAIL_TO_PASS
tests pass and every PASS_TO_PASS test does, *unresolved* otherwise.

What this defends against and what remains possible is written down in the SWE threat
model (``envsuite/families/swe/THREAT_MODEL.md``).
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from envsuite.families.swe.canary import make_canary
from envsuite.families.swe.diff_screen import Flag, blocking, screen_diff
from envsuite.families.swe.junit import PASSED, TestOutcome
from envsuite.families.swe.patch_filter import filter_patch, restore_pytest_tables
from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.repo_snapshot import repo_archive
from envsuite.families.swe.unified_diff import DiffError
from envsuite.families.swe.verdict import judge
from envsuite.sandbox.environment import SoftwareEnvironment
from envsuite.sandbox.interface import FileAccessError, Sandbox, SandboxError
from envsuite.sandbox.output_limits import OutputLimits
from envsuite.sandbox.result_channels import ResultCollector

RESOLVED, PARTIAL, UNRESOLVED = "resolved", "partial", "unresolved"
#: Seconds the hidden tests may run.
DEFAULT_TEST_TIMEOUT = 600.0
_INTERNAL = OutputLimits(keep_bytes=64 * 1024, stream_bytes=64 * 1024 * 1024)


class GradingError(RuntimeError):
    """Grading itself failed (the test patch does not apply): a dataset or infrastructure fault."""


@dataclasses.dataclass(frozen=True)
class GradeReport:
    """The outcome of grading one patch.

    Attributes:
        instance_id: The problem.
        resolution: ``resolved``, ``partial`` or ``unresolved``.
        fail_to_pass: FAIL_TO_PASS tests that now pass / still fail.
        pass_to_pass: PASS_TO_PASS tests that pass / broke.
        patch_applied: Whether the (filtered) agent diff applied.
        dropped: Files of the agent's diff that were not applied, with the reason.
        exit_code: pytest's exit code (None when it did not run).
        error: Why the tests could not be trusted or run, if so.
        screen: The diff screen's flags (:class:`~.diff_screen.Flag` as dicts).
        tamper: What the test runner reported as tampering with the harness.
    """

    instance_id: str
    resolution: str
    fail_to_pass: dict[str, list[str]]
    pass_to_pass: dict[str, list[str]]
    patch_applied: bool
    dropped: list[tuple[str, str]]
    exit_code: int | None
    error: str | None = None
    screen: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    tamper: list[str] = dataclasses.field(default_factory=list)

    @property
    def resolved(self) -> bool:
        """Whether the problem is resolved."""
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
            "screen": self.screen[:20],
            "tamper": self.tamper[:20],
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
    problem: SWEProblem, outcomes: dict[str, TestOutcome], trusted: bool
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """FAIL_TO_PASS and PASS_TO_PASS split into success/failure (missing = failure)."""

    def split(names: tuple[str, ...]) -> dict[str, list[str]]:
        ok = [n for n in names if trusted and n in outcomes and outcomes[n].status == PASSED]
        return {"success": ok, "failure": [n for n in names if n not in ok]}

    return split(problem.FAIL_TO_PASS), split(problem.PASS_TO_PASS)


def runner_command(
    sandbox: Sandbox,
    environment: SoftwareEnvironment,
    junit_path: str,
    test_files: Sequence[str],
) -> str:
    """The shell command that runs ``test_files`` with envsuite's runner into ``junit_path``.

    Plain mode, for trusted code (dataset synthesis); grading uses :func:`graded_command`.
    """
    argv = [*sandbox.test_runner, *_path_options(sandbox.repo_dir, environment)]
    argv += ["--", *_pytest_options(environment), f"--junitxml={junit_path}", *test_files]
    return " ".join(shlex.quote(a) for a in argv)


def graded_command(
    sandbox: Sandbox,
    environment: SoftwareEnvironment,
    sealed: str,
    collector: ResultCollector,
    test_files: Sequence[str],
) -> str:
    """The shell command that runs ``test_files`` from the sealed copy in grading mode."""
    roots = _import_roots(sealed, environment)
    argv = [*sandbox.test_runner, "--events", collector.events_path]
    argv += ["--junit", collector.junit_path, "--repo", sealed]
    argv += [*_path_options(sealed, environment), "--", *_pytest_options(environment)]
    argv += list(test_files)
    command = " ".join(shlex.quote(a) for a in argv)
    # Processes the tests start import the sealed copy too, not the agent's /repo.
    return f"cd {shlex.quote(sealed)} && PYTHONPATH={shlex.quote(':'.join(roots))} {command}"


def _import_roots(repo_dir: str, environment: SoftwareEnvironment) -> list[str]:
    return [
        repo_dir if root in (".", "") else f"{repo_dir}/{root.strip('/')}"
        for root in environment.python_path
    ]


def _path_options(repo_dir: str, environment: SoftwareEnvironment) -> list[str]:
    return [item for root in _import_roots(repo_dir, environment) for item in ("--path", root)]


def _pytest_options(environment: SoftwareEnvironment) -> list[str]:
    return [
        "-p", "no:cacheprovider", "-o", "junit_family=xunit1", "-q", "--no-header", "-rN",
        *environment.pytest_args,
    ]  # fmt: skip


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
    problem: SWEProblem,
    diff: str,
    new_sandbox: Callable[[], Sandbox],
    *,
    test_timeout_s: float = DEFAULT_TEST_TIMEOUT,
) -> GradeReport:
    """Grade ``diff`` against ``problem``'s hidden tests in a fresh sandbox (see the module).

    Args:
        problem: The problem.
        diff: The agent's diff against the base commit ("" for the empty patch).
        new_sandbox: Starts a fresh sandbox of the problem's environment.
        test_timeout_s: Seconds the tests may run before they count as failed.

    Raises:
        GradingError: the hidden test patch does not apply (a broken problem).
        SandboxError: the sandbox itself failed.
    """
    try:
        filtered = filter_patch(diff, problem.environment.python_path)
        flags = screen_diff(filtered.diff)
    except DiffError as exc:
        return _unresolved(problem, f"the submission is not a readable diff: {exc}", applied=False)
    screen = [flag.to_json() for flag in flags]
    stopped = blocking(flags)
    if stopped:
        return _unresolved(problem, _blocked(stopped), False, filtered.dropped, screen)
    archive, _ = repo_archive(problem)
    canary = make_canary()
    with new_sandbox() as sandbox:
        sandbox.load_repo(archive)
        if filtered.diff:
            failure = _apply(sandbox, "agent.diff", filtered.diff)
            if failure is not None:
                message = f"the patch does not apply: {failure}"
                return _unresolved(problem, message, False, filtered.dropped, screen)
            if "pyproject.toml" in filtered.kept_paths:
                _guard_pyproject(sandbox)
        if problem.test_patch:
            failure = _apply(sandbox, "tests.diff", problem.test_patch)
            if failure is not None:
                raise GradingError(
                    f"{problem.instance_id}: the test patch does not apply: {failure}"
                )
        try:
            sealed = sandbox.seal_repo({canary.path: canary.source.encode("utf-8")})
        except SandboxError as exc:
            if sandbox.health() is not None:
                raise
            message = f"the repository could not be copied for grading: {exc}"
            return _unresolved(problem, message, True, filtered.dropped, screen)
        collector = sandbox.start_collector()
        command = graded_command(
            sandbox, problem.environment, sealed, collector, [*problem.test_files, canary.path]
        )
        run = sandbox.run(command, timeout_s=test_timeout_s, limits=_INTERNAL)
        collected = collector.finish()
    tracked = [*problem.FAIL_TO_PASS, *problem.PASS_TO_PASS]
    verdict = judge(collected, run, problem.test_files, tracked, canary, test_timeout_s)
    outcomes = {k: v for k, v in verdict.outcomes.items() if k not in canary.expected}
    f2p, p2p = split_outcomes(problem, outcomes, trusted=verdict.error is None)
    resolution = (
        UNRESOLVED
        if verdict.error is not None
        else resolution_status(
            len(f2p["success"]), len(f2p["failure"]), len(p2p["success"]), len(p2p["failure"])
        )
    )
    return GradeReport(
        instance_id=problem.instance_id,
        resolution=resolution,
        fail_to_pass=f2p,
        pass_to_pass=p2p,
        patch_applied=True,
        dropped=list(filtered.dropped),
        exit_code=run.exit_code,
        error=verdict.error,
        screen=screen,
        tamper=list(verdict.tamper),
    )


def _blocked(flags: list[Flag]) -> str:
    first = flags[0]
    more = f" (and {len(flags) - 1} more)" if len(flags) > 1 else ""
    return f"the patch reaches for the test harness: {first.describe()}{more}"


def _unresolved(
    problem: SWEProblem,
    error: str,
    applied: bool,
    dropped: tuple[tuple[str, str], ...] = (),
    screen: list[dict[str, Any]] | None = None,
) -> GradeReport:
    f2p, p2p = split_outcomes(problem, {}, trusted=False)
    return GradeReport(
        problem.instance_id, UNRESOLVED, f2p, p2p, applied, list(dropped), None, error, screen or []
    )
