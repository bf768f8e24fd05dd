"""Step latency of served envs: 1,000 concurrent sessions against one server, over in-process.

1,000 WebSocket sessions (short text bandit episodes, :mod:`tests.serve.load`) run at once
against one ``envsuite serve`` process; every episode must equal its in-process run. The
client-side step latency (send to answer, with 1,000 sessions in flight) and the server's
own step latency (``/metrics``) are reported as p50/p99 and as ratios over the in-process
step of the same episodes, timed in the same run. ``pytest tests/benchmarks
--benchmark-enable`` prints the timings; the figures are in ``extra_info``. Nothing here is
asserted about time.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import numpy as np

import envsuite
from envsuite.testing.logical_state import same
from tests.serve.load import ARMS, ENV_ID, KWARGS, actions_for, in_process, run_concurrently
from tests.serve.servers import ServerProcess, metrics

SESSIONS = 1_000


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def in_process_step_seconds(episodes: int) -> np.ndarray:
    """Every in-process step's wall time over the load's episodes."""
    env = envsuite.make(ENV_ID, **KWARGS)
    seconds = []
    for episode in range(episodes):
        env.reset(seed=episode)
        for action in actions_for(episode):
            started = time.perf_counter()
            env.step(action)
            seconds.append(time.perf_counter() - started)
    return np.asarray(seconds)


def test_thousand_concurrent_sessions(benchmark) -> None:
    benchmark.group = "serve"
    server = ServerProcess([ENV_ID, "--max-sessions", str(SESSIONS)])
    latencies: list[float] = []
    try:

        def run() -> list[object]:
            latencies.clear()
            return asyncio.run(run_concurrently(server.url, SESSIONS, latencies))

        server_cpu, client_cpu = _cpu_seconds(server.process.pid), time.process_time()
        started = time.perf_counter()
        records = benchmark.pedantic(run, rounds=1, iterations=1)
        wall = time.perf_counter() - started
        server_cpu = _cpu_seconds(server.process.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        served = metrics(server.url)
    finally:
        assert server.stop()
    for episode, record in enumerate(records):
        assert same(record, in_process(episode)), f"episode {episode} differs"
    assert served["errors"] == {}
    local = in_process_step_seconds(SESSIONS) * 1000
    remote = np.asarray(latencies) * 1000
    local_p50, local_p99 = np.percentile(local, [50, 99])
    remote_p50, remote_p99 = np.percentile(remote, [50, 99])
    info = benchmark.extra_info
    info["sessions"] = SESSIONS
    info["steps"] = int(remote.size)
    info["steps_per_s"] = float(remote.size / wall)
    # On a shared machine the wall time is mostly other processes'; CPU time is the cost.
    info["server_cpu_us_per_step"] = server_cpu / remote.size * 1e6
    info["client_cpu_us_per_step"] = client_cpu / remote.size * 1e6
    info["in_process_step_ms_p50"] = float(local_p50)
    info["in_process_step_ms_p99"] = float(local_p99)
    info["client_step_ms_p50"] = float(remote_p50)
    info["client_step_ms_p99"] = float(remote_p99)
    info["server_step_ms_p50"] = served["step_latency_ms"]["p50"]
    info["server_step_ms_p99"] = served["step_latency_ms"]["p99"]
    info["client_p50_over_in_process_p50"] = float(remote_p50 / local_p50)
    info["client_p99_over_in_process_p99"] = float(remote_p99 / local_p99)
    print(
        {key: round(value, 4) if isinstance(value, float) else value for key, value in info.items()}
    )


def test_one_session_step_latency(benchmark) -> None:
    """Unloaded: one session's steps in sequence, over the same steps in-process."""
    benchmark.group = "serve"
    steps = 3_000
    server = ServerProcess([ENV_ID])
    try:
        import envsuite.remote

        env = envsuite.remote.make(server.url, ENV_ID, horizon=steps)
        local = envsuite.make(ENV_ID, horizon=steps)

        def timed(target: object) -> np.ndarray:
            target.reset(seed=0)  # type: ignore[attr-defined]
            seconds = []
            for index in range(steps):
                action = ARMS[index % len(ARMS)]
                started = time.perf_counter()
                target.step(action)  # type: ignore[attr-defined]
                seconds.append(time.perf_counter() - started)
            return np.asarray(seconds) * 1000

        remote = benchmark.pedantic(timed, args=(env,), rounds=1, iterations=1)
        env.close()
    finally:
        assert server.stop()
    in_process_ms = timed(local)
    info = benchmark.extra_info
    for name, values in (("client", remote), ("in_process", in_process_ms)):
        info[f"{name}_step_ms_p50"], info[f"{name}_step_ms_p99"] = map(
            float, np.percentile(values, [50, 99])
        )
    info["p50_ratio"] = info["client_step_ms_p50"] / info["in_process_step_ms_p50"]
    info["p99_ratio"] = info["client_step_ms_p99"] / info["in_process_step_ms_p99"]
    print({key: round(value, 4) for key, value in info.items()})
