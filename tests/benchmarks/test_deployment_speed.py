"""Episodes/s of one 256-episode Wordle rollout in the three deployments of the README.

The same rollout (32 groups of 8, concurrency 64, the loopback scripted endpoint in its own
process answering with a fixed word list, as a model server would) runs with its envs
in-process, on one ``envsuite serve`` server behind Ray, and on two servers behind Ray (one
local Ray of 2 CPUs for the module; each server is a Ray actor, in its own process). Every
row checks its records equal the in-process ones; ``extra_info`` holds its episodes/s,
the client's CPU seconds per episode and its ratio to the in-process row of the same run.
Nothing is asserted about time. ``pytest tests/benchmarks/test_deployment_speed.py
--benchmark-enable`` prints them.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ray")
pytest.importorskip("uvicorn")


from envsuite.evaluation.rollout import EnvFactory, local_env, rollout, rollout_protocol
from envsuite.serve import ServeConfig
from envsuite.serve.ray_servers import RayServers
from tests import helper_processes
from tests.benchmarks.paired_timing import peer_mean, timed_mean
from tests.evaluation.test_rollout import comparable

WORDLE = "envsuite/Wordle-v0"
GROUPS, SIZE, CONCURRENCY = 32, 8, 64
EPISODES = GROUPS * SIZE
PROTOCOL = rollout_protocol(WORDLE, groups=GROUPS, group_size=SIZE)
MEANS: dict[str, float] = {}
RECORDS: dict[str, list[dict[str, Any]]] = {}

ENDPOINT = """
from envsuite.agents.scripted_endpoint import ScriptedEndpoint
from tests.evaluation.test_rollout import wordy_policy

with ScriptedEndpoint(policy=wordy_policy) as endpoint:
    print(endpoint.base_url, flush=True)
    endpoint.thread.join()
"""


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with helper_processes.endpoint_process(ENDPOINT) as url:
        yield url


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    with helper_processes.local_ray():
        yield


def run(base_url: str, name: str, factory: EnvFactory, in_thread: bool) -> int:
    run_dir = tempfile.mkdtemp(prefix="envsuite-deploy-bench-")
    try:
        result = rollout(
            PROTOCOL,
            "bench",
            run_dir,
            agent_options={"base_url": base_url},
            concurrency=CONCURRENCY,
            env_factory=factory,
            env_calls_in_thread=in_thread,
        )
        rows = sorted(
            (comparable(r) for r in result.records), key=lambda r: (r["seed"], r["attempt"])
        )
        assert len(rows) == EPISODES and all(row["infra_error"] is None for row in rows)
        assert RECORDS.setdefault(name, rows) == rows
        return len(rows)
    finally:
        shutil.rmtree(run_dir)


def measure(benchmark: Any, name: str, call: Any) -> None:
    benchmark.group = "deployments"
    cpu = time.process_time()
    mean = timed_mean(benchmark, MEANS, name, call, rounds=2)
    cpu = time.process_time() - cpu
    calls = 3 if getattr(benchmark, "stats", None) is not None else 1
    benchmark.extra_info["episodes_per_s"] = EPISODES / mean
    benchmark.extra_info["client_cpu_ms_per_episode"] = 1000 * cpu / (calls * EPISODES)


def test_in_process(benchmark, base_url):
    measure(benchmark, "in-process", lambda: run(base_url, "in-process", local_env, False))


def test_one_server_behind_ray(benchmark, base_url, local_ray):
    with RayServers(ServeConfig((WORDLE,), port=0), count=1) as one_server:
        pool = one_server.pool()
        measure(benchmark, "1 server", lambda: run(base_url, "1 server", pool, True))
    local = peer_mean(MEANS, "in-process", lambda: run(base_url, "in-process", local_env, False))
    benchmark.extra_info["over_in_process"] = MEANS["1 server"] / local
    assert RECORDS["1 server"] == RECORDS["in-process"]


def test_two_servers_behind_ray(benchmark, base_url, local_ray):
    servers = RayServers(ServeConfig((WORDLE,), port=0), count=2)
    pool = servers.pool()
    envs_on: Counter[str] = Counter()

    def spread(env_id: str, env_kwargs: dict[str, Any]) -> Any:
        env = pool(env_id, env_kwargs)
        envs_on[env.url] += 1
        return env

    with servers:
        measure(benchmark, "2 servers", lambda: run(base_url, "2 servers", spread, True))
    local = peer_mean(MEANS, "in-process", lambda: run(base_url, "in-process", local_env, False))
    benchmark.extra_info["over_in_process"] = MEANS["2 servers"] / local
    benchmark.extra_info["envs_made_per_server"] = sorted(envs_on.values())
    assert RECORDS["2 servers"] == RECORDS["in-process"]
