"""Executors run episode jobs and yield their records as they finish.

``local`` (the default) uses processes on this machine; ``ray`` uses a Ray cluster (a local
one unless ``RAY_ADDRESS`` points elsewhere). Both run the same :func:`run_job`, so the
same jobs give the same records whichever executor ran them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from envsuite.errors import EnvsuiteError
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.records import EpisodeRecord

EXECUTORS = ("local", "ray")


class WorkerLostError(EnvsuiteError):
    """A worker process ended abruptly (killed, out of memory, a crash in native code)."""


class Executor(Protocol):
    """Runs jobs, yielding each record as soon as its episode is done (in any order)."""

    def run(self, jobs: Sequence[EpisodeJob]) -> Iterator[EpisodeRecord]:
        """Run every job once."""
        ...


def make_executor(name: str, workers: int = 1) -> Executor:
    """The executor called ``name`` with ``workers`` parallel workers."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if name == "local":
        from envsuite.evaluation.executors.local import LocalExecutor

        return LocalExecutor(workers)
    if name == "ray":
        from envsuite.evaluation.executors.ray_executor import RayExecutor

        return RayExecutor(workers)
    raise ValueError(f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}")
