"""Grading the gold and the empty patch of shipped tasks (``envsuite swe validate``)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable

from envsuite.families.swe.grading import RESOLVED, grade_patch
from envsuite.families.swe.task import SWETask
from envsuite.sandbox.provider import Backend, SandboxProvider


@dataclasses.dataclass(frozen=True)
class TaskCheck:
    """The gold and empty patch results of one task, and the seconds grading took."""

    instance_id: str
    gold: str
    empty: str
    gold_error: str | None
    seconds_per_grade: float

    @property
    def ok(self) -> bool:
        """Gold resolves, empty does not."""
        return self.gold == RESOLVED and self.empty != RESOLVED


def check_tasks(
    tasks: Iterable[SWETask],
    backend: Backend = "docker",
    progress: Callable[[TaskCheck], None] | None = None,
) -> list[TaskCheck]:
    """Grade every task's gold patch and the empty patch (fresh sandboxes, no grade cache)."""
    provider = SandboxProvider(backend, pool_size=1)
    checks = []
    try:
        for task in tasks:
            factory = provider.factory(task.environment)
            started = time.perf_counter()
            gold = grade_patch(task, task.patch, factory)
            empty = grade_patch(task, "", factory)
            seconds = (time.perf_counter() - started) / 2
            check = TaskCheck(
                task.instance_id, gold.resolution, empty.resolution, gold.error, seconds
            )
            checks.append(check)
            if progress is not None:
                progress(check)
    finally:
        provider.close()
    return checks
