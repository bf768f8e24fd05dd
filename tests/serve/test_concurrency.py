"""Hundreds of sessions at once against one server: no errors, every episode exact."""

from __future__ import annotations

import asyncio

from envsuite.testing.logical_state import same
from tests.serve.load import in_process, run_concurrently
from tests.serve.servers import ServerProcess, metrics, wait_until

#: Concurrent sessions here; tests/benchmarks/test_serve_speed.py runs 1,000.
SESSIONS = 300


def test_hundreds_of_concurrent_sessions_match_in_process_runs() -> None:
    server = ServerProcess(["envsuite/Bandit-v0", "--max-sessions", str(SESSIONS)])
    try:
        latencies: list[float] = []
        remote = asyncio.run(run_concurrently(server.url, SESSIONS, latencies))
        for episode, record in enumerate(remote):
            assert same(record, in_process(episode)), f"episode {episode} differs"
        wait_until(lambda: metrics(server.url)["sessions"] == 0, what="sessions closed")
        seen = metrics(server.url)
        assert seen["errors"] == {}
        assert seen["live_envs"] == 0
        assert seen["counts"]["sessions_opened"] == SESSIONS
        assert seen["counts"]["steps"] == SESSIONS * 20
        assert seen["step_latency_ms"]["count"] == SESSIONS * 20
    finally:
        assert server.stop()
