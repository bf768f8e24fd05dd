"""The local executor: the calling process for one worker, a process pool for more."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from envsuite.evaluation.episode_runner import EnvCache, run_job
from envsuite.evaluation.executors import WorkerLostError
from envsuite.evaluation.executors.frozen_heap import frozen_heap
from envsuite.evaluation.executors.parent_death import die_with_parent
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.records import EpisodeRecord

if TYPE_CHECKING:
    from concurrent.futures import Future

_worker_cache: EnvCache | None = None


def _run_in_worker(job: EpisodeJob) -> EpisodeRecord:
    global _worker_cache
    if _worker_cache is None:
        _worker_cache = EnvCache()
    return run_job(job, _worker_cache)


class LocalExecutor:
    """Runs jobs in this process (``workers=1``) or in a pool of worker processes.

    Workers are spawned (fresh interpreters, not forks of this process, which may hold
    threads, such as the progress bar's). They are this process's own children and die
    with it, even when it is killed with SIGKILL (see :mod:`.parent_death`); a fork server
    would be a second parent that outlives a killed run, together with its workers and the
    temporary folder holding its socket. multiprocessing's resource tracker outlives a
    killed run only until its last worker is gone, then removes the queues' named
    semaphores (and says so on stderr). Each worker keeps its made envs across jobs. At
    most ``2 * workers`` jobs are in flight, so stopping early wastes little work.

    Args:
        workers: Number of worker processes.
    """

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers

    def run(self, jobs: Sequence[EpisodeJob]) -> Iterator[EpisodeRecord]:
        """Run ``jobs``, yielding records as they complete."""
        if self.workers == 1:
            cache = EnvCache()
            try:
                with frozen_heap():
                    for job in jobs:
                        yield run_job(job, cache)
            finally:
                cache.close()
            return
        yield from _run_in_pool(jobs, self.workers)


def _run_in_pool(jobs: Sequence[EpisodeJob], workers: int) -> Iterator[EpisodeRecord]:
    # Imported here: a run in this process (one worker) needs no pool, and importing
    # concurrent.futures costs a short run tens of milliseconds.
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")
    pending = list(reversed(jobs))
    with ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        running: dict[Future[EpisodeRecord], EpisodeJob] = {}
        while pending or running:
            while pending and len(running) < 2 * workers:
                job = pending.pop()
                running[pool.submit(_run_in_worker, job)] = job
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                job = running.pop(future)
                try:
                    record = future.result()
                except BrokenProcessPool as exc:
                    raise WorkerLostError(
                        f"a worker process ended abruptly (killed, out of memory, or a "
                        f"crash in native code) with {job.env_id} seed {job.seed} attempt "
                        f"{job.attempt} or another episode in flight; the records written "
                        "so far are kept: run the same command again to resume"
                    ) from exc
                yield record
