"""Screening mutations against a library's test suite, and validating finished problems.

Screening runs the whole suite in one long-lived sandbox: the pristine baseline twice (a
test counts only if it passed both times), then each mutation (write the mutated file,
run, restore). Validation uses the real grader in fresh sandboxes: the gold patch must
resolve the problem three times in a row and the empty patch must not.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Sequence

from envsuite.families.swe.grading import RESOLVED, grade_patch, runner_command
from envsuite.families.swe.junit import PASSED, JUnitError, TestOutcome, parse_junit
from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.synthesis.mutators import Mutation
from envsuite.sandbox.environment import SoftwareEnvironment
from envsuite.sandbox.interface import Sandbox
from envsuite.sandbox.output_limits import OutputLimits

SUITE_TIMEOUT_S = 300.0
_LIMITS = OutputLimits(keep_bytes=4096, stream_bytes=64 * 1024 * 1024)


@dataclasses.dataclass(frozen=True)
class ScreenResult:
    """What a mutation did to the suite: tests it broke (with their errors), and all outcomes."""

    broken: dict[str, TestOutcome]
    outcomes: dict[str, TestOutcome]


def run_suite(
    sandbox: Sandbox, environment: SoftwareEnvironment, test_files: Sequence[str]
) -> dict[str, TestOutcome]:
    """Run ``test_files`` in ``sandbox``; node id -> outcome ({} when pytest wrote nothing)."""
    junit = f"{sandbox.private_dir}/suite.xml"
    sandbox.run(f"mkdir -p {sandbox.private_dir} && rm -f {shlex.quote(junit)}", timeout_s=30)
    sandbox.run(
        runner_command(sandbox, environment, junit, test_files),
        timeout_s=SUITE_TIMEOUT_S,
        limits=_LIMITS,
    )
    xml = sandbox.read_private_file(junit, 64 * 1024 * 1024)
    if xml is None:
        return {}
    try:
        return parse_junit(xml, test_files)
    except JUnitError:
        return {}


def baseline(
    sandbox: Sandbox, environment: SoftwareEnvironment, test_files: Sequence[str]
) -> set[str]:
    """Tests that pass on the pristine source in two runs."""
    passing: set[str] | None = None
    for _ in range(2):
        outcomes = run_suite(sandbox, environment, test_files)
        now = {name for name, o in outcomes.items() if o.status == PASSED}
        passing = now if passing is None else passing & now
    return passing or set()


def screen(
    sandbox: Sandbox,
    environment: SoftwareEnvironment,
    test_files: Sequence[str],
    mutation: Mutation,
    original: str,
    passing: set[str],
) -> ScreenResult:
    """Apply ``mutation`` in the screening sandbox, run the suite, restore the file."""
    sandbox.write_file(mutation.path, mutation.source.encode("utf-8"))
    try:
        outcomes = run_suite(sandbox, environment, test_files)
    finally:
        sandbox.write_file(mutation.path, original.encode("utf-8"))
    if not outcomes:
        return ScreenResult({}, {})
    broken = {
        name: outcomes.get(name, TestOutcome("error", "the test did not run"))
        for name in passing
        if name not in outcomes or outcomes[name].status != PASSED
    }
    return ScreenResult(broken, outcomes)


def validate_problem(
    problem: SWEProblem, new_sandbox: Callable[[], Sandbox], gold_runs: int = 3
) -> str | None:
    """Why ``problem`` is rejected, or None when it is valid.

    Valid: the gold patch resolves it ``gold_runs`` times in a row and the empty patch
    does not.
    """
    for attempt in range(gold_runs):
        report = grade_patch(problem, problem.patch, new_sandbox)
        if not report.resolved:
            detail = report.error or report.fail_to_pass
            return f"gold run {attempt + 1}: {report.resolution} ({detail})"
    empty = grade_patch(problem, "", new_sandbox)
    if empty.resolution == RESOLVED:
        return "the empty patch resolves it"
    return None
