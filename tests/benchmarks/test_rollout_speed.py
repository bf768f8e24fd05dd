"""Rollout throughput: episodes/s at concurrency 1 and 64 against a model with latency.

The loopback scripted endpoint runs in its own process (as a model server would) and
answers every request after ``LATENCY_S`` seconds, a stand-in for a model's time per
reply, so the speed-up of concurrency 64 over 1 is what overlapping the waits buys. Both
rows run the same 64 episodes (8 groups of 8, Bandit-v0 text, 4 turns each) into fresh run
directories; ``extra_info`` holds the episodes/s of both and their ratio, measured in the
same run (nothing is asserted about it).
``pytest tests/benchmarks/test_rollout_speed.py --benchmark-enable`` prints them.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator

import pytest

from envsuite.evaluation.rollout import rollout, rollout_protocol
from tests import helper_processes
from tests.benchmarks.paired_timing import peer_mean, timed_mean

LATENCY_S = 0.02
GROUPS, SIZE = 8, 8
PROTOCOL = rollout_protocol("envsuite/Bandit-v0", {"horizon": 4}, groups=GROUPS, group_size=SIZE)
MEANS: dict[str, float] = {}

SERVER = f"""
import time
from envsuite.agents.scripted_endpoint import ScriptedEndpoint, cycle_valid_actions

def slow_model(messages):
    time.sleep({LATENCY_S})
    return cycle_valid_actions(messages)

with ScriptedEndpoint(policy=slow_model) as endpoint:
    print(endpoint.base_url, flush=True)
    endpoint.thread.join()
"""


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with helper_processes.endpoint_process(SERVER) as url:
        yield url


def run(base_url: str, concurrency: int) -> int:
    run_dir = tempfile.mkdtemp(prefix="envsuite-rollout-bench-")
    try:
        options = {"base_url": base_url}
        result = rollout(PROTOCOL, "bench", run_dir, agent_options=options, concurrency=concurrency)
        assert all(record.infra_error is None for record in result.records)
        return len(result.records)
    finally:
        shutil.rmtree(run_dir)


def test_rollout_concurrency_1(benchmark, base_url):
    benchmark.group = "rollout-speed"
    mean = timed_mean(benchmark, MEANS, "c1", lambda: run(base_url, 1), rounds=2)
    benchmark.extra_info["episodes_per_s"] = GROUPS * SIZE / mean


def test_rollout_concurrency_64(benchmark, base_url):
    benchmark.group = "rollout-speed"
    mean = timed_mean(benchmark, MEANS, "c64", lambda: run(base_url, 64), rounds=2)
    single = peer_mean(MEANS, "c1", lambda: run(base_url, 1))
    benchmark.extra_info["episodes_per_s"] = GROUPS * SIZE / mean
    benchmark.extra_info["episodes_per_s_at_1"] = GROUPS * SIZE / single
    benchmark.extra_info["speedup_over_1"] = single / mean
