"""Grading the gold and the empty patch of shipped problems (``envsuite swe validate``)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable

from envsuite.families.swe.grading import RESOLVED, grade_patch
from envsuite.families.swe.problem import SWEProblem
from envsuite.sandbox.provider import Backend, SandboxProvider


@dataclasses.dataclass(frozen=True)
class ProblemCheck:
    """The gold and empty patch results of one problem, and the seconds grading took."""

    instance_id: str
    gold: str
    empty: str
    gold_error: str | None
    seconds_per_grade: float

    @property
    def ok(self) -> bool:
        """Gold resolves, empty does not."""
        return self.gold == RESOLVED and self.empty != RESOLVED


def check_problems(
    problems: Iterable[SWEProblem],
    backend: Backend = "docker",
    progress: Callable[[ProblemCheck], None] | None = None,
) -> list[ProblemCheck]:
    """Grade every problem's gold patch and the empty patch (fresh sandboxes, no grade cache)."""
    provider = SandboxProvider(backend, pool_size=1)
    checks = []
    try:
        for problem in problems:
            factory = provider.factory(problem.environment)
            started = time.perf_counter()
            gold = grade_patch(problem, problem.patch, factory)
            empty = grade_patch(problem, "", factory)
            seconds = (time.perf_counter() - started) / 2
            check = ProblemCheck(
                problem.instance_id, gold.resolution, empty.resolution, gold.error, seconds
            )
            checks.append(check)
            if progress is not None:
                progress(check)
    finally:
        provider.close()
    return checks
