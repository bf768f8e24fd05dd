"""SWE-v0 speed on the Docker engine: reset latency with and without the warm pool, and
grading time per task.

``pytest tests/benchmarks/test_swe_speed.py --benchmark-enable -s`` measures (and prints
p50/p95 of reset latency); under the repo's default ``--benchmark-disable`` each benchmark
runs once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import statistics
from typing import Any

import pytest

import envsuite
from envsuite.families.swe.dataset import load_problems
from envsuite.families.swe.grading import grade_patch
from envsuite.sandbox.provider import SandboxProvider

from ..sandbox.docker_fixtures import docker_ready, task_images  # noqa: F401  (fixtures)

ROUNDS = 20


def _percentiles(benchmark: Any, label: str) -> None:
    stats = getattr(benchmark, "stats", None)
    data = sorted(stats.stats.data) if stats is not None else []
    if data:
        p95 = data[min(len(data) - 1, round(0.95 * (len(data) - 1)))]
        print(f"\n{label}: p50 {statistics.median(data) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")


@pytest.mark.parametrize("pool_size", [0, 1], ids=["no-pool", "warm-pool"])
def test_reset_latency(benchmark, task_images, pool_size):  # noqa: F811
    env = envsuite.make("envsuite/SWE-v0", libraries=["inflection"], pool_size=pool_size)
    env.reset(seed=0)
    pools = env.unwrapped.provider.pools()

    def refill() -> tuple[tuple[()], dict[str, Any]]:
        for pool in pools.values():
            pool.wait_until_full(timeout_s=120)
        return (), {}

    try:
        observation, info = benchmark.pedantic(
            lambda: env.reset(seed=1), setup=refill, rounds=ROUNDS, iterations=1
        )
        assert info["instance_id"] and info["problem_statement"] in observation
        _percentiles(benchmark, f"reset latency ({'pool' if pool_size else 'no pool'})")
    finally:
        env.close()


def test_grading_time_per_task(benchmark, task_images):  # noqa: F811
    task = load_problems(["inflection"])[0]
    provider = SandboxProvider("docker", pool_size=0)
    try:
        report = benchmark.pedantic(
            lambda: grade_patch(task, task.patch, provider.factory(task.environment)),
            rounds=5,
            iterations=1,
        )
        assert report.resolved
        _percentiles(benchmark, "grading (gold patch, fresh container)")
    finally:
        provider.close()
