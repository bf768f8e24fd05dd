"""The Ray executor: the same episode jobs, run by actors on a Ray cluster."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from envsuite.evaluation.jobs import EpisodeJob
from envsuite.records import EpisodeRecord
from envsuite.registry import import_optional


class _Worker:
    """A Ray actor holding its own env cache, so envs are made once per actor."""

    def __init__(self) -> None:
        import envsuite  # noqa: F401  (registers the specs in the actor's process)
        from envsuite.evaluation.episode_runner import EnvCache

        self.cache = EnvCache()

    def run(self, job_json: str) -> str:
        from envsuite.evaluation.episode_runner import run_job

        return run_job(EpisodeJob.model_validate_json(job_json), self.cache).to_json_line()


class RayExecutor:
    """Runs jobs on ``workers`` Ray actors; starts a local Ray if none is running.

    Jobs and records cross the wire as JSON, the same form they take on disk.

    Args:
        workers: Number of actors (each takes one CPU).
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self.ray: Any = import_optional("ray", extra="ray")

    def run(self, jobs: Sequence[EpisodeJob]) -> Iterator[EpisodeRecord]:
        """Run ``jobs`` on the actors, yielding records as they complete."""
        ray = self.ray
        if not ray.is_initialized():
            ray.init(
                num_cpus=self.workers,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        actor = ray.remote(num_cpus=1)(_Worker)
        from ray.util import ActorPool

        pool = ActorPool([actor.remote() for _ in range(self.workers)])
        payloads = [job.model_dump_json() for job in jobs]
        for line in pool.map_unordered(lambda worker, job: worker.run.remote(job), payloads):
            yield EpisodeRecord.from_json_line(line)
