"""Clients that vanish, sessions that idle, servers that restart: no leaks, clear errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import envsuite
import envsuite.remote
from envsuite.remote import SessionLost
from envsuite.serve import RunningServer, ServeConfig
from envsuite.testing.logical_state import same
from tests.serve.servers import ROOT, ServerProcess, wait_until

#: A client that plays two steps, says so, and waits to be killed or stopped.
CLIENT = """
import sys, time
import envsuite.remote
env = envsuite.remote.make(sys.argv[1], "envsuite/Wordle-v0")
env.reset(seed=1)
env.step("crane")
env.step("slate")
print("ready", flush=True)
time.sleep(600)
"""


def _client(url: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", CLIENT, url],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def test_a_client_killed_mid_episode_leaves_no_env() -> None:
    with RunningServer(ServeConfig(("envsuite/Wordle-v0",), port=0)) as server:
        client = _client(server.url)
        assert server.sessions.live_envs() == 1
        client.send_signal(signal.SIGKILL)
        client.wait(timeout=30)
        wait_until(lambda: server.sessions.live_envs() == 0, what="the env closed")
        assert server.sessions.snapshot()["counts"]["sessions_disconnected"] == 1


def test_a_half_open_websocket_is_reaped() -> None:
    """A client that stops answering (stopped, not closed: no FIN) loses its session."""
    with RunningServer(ServeConfig(("envsuite/Wordle-v0",), port=0, idle_timeout=1.0)) as server:
        client = _client(server.url)
        client.send_signal(signal.SIGSTOP)
        try:
            assert server.sessions.live_envs() == 1
            wait_until(lambda: server.sessions.live_envs() == 0, what="the idle session reaped")
            assert not server.sessions.sessions
            assert server.sessions.snapshot()["counts"]["sessions_reaped"] == 1
        finally:
            client.send_signal(signal.SIGKILL)
            client.wait(timeout=30)


def test_a_session_that_never_steps_is_reaped_and_its_client_told() -> None:
    with RunningServer(ServeConfig(("envsuite/Wordle-v0",), port=0, idle_timeout=0.5)) as server:
        env = envsuite.remote.make(server.url, "envsuite/Wordle-v0", max_guesses=3)
        env.reset(seed=3)
        wait_until(lambda: server.sessions.live_envs() == 0, what="the idle session reaped")
        with pytest.raises(SessionLost, match="idle timeout"):
            env.step("crane")
        with pytest.raises(SessionLost, match="closed earlier"):  # never a new session's
            env.step("crane")
        # A reset starts a new session with the env's kwargs; the episode is the in-process one.
        local = envsuite.make("envsuite/Wordle-v0", max_guesses=3)
        assert same(env.reset(seed=3), local.reset(seed=3))
        assert same(env.step("crane"), local.step("crane"))
        env.close()
        wait_until(lambda: server.sessions.live_envs() == 0, what="the env closed")


def test_a_server_restarted_mid_run() -> None:
    first = ServerProcess(["envsuite/Wordle-v0"])
    env = envsuite.remote.make(first.url, "envsuite/Wordle-v0")
    env.reset(seed=5)
    env.step("crane")
    first.kill()
    second = ServerProcess(["envsuite/Wordle-v0"], port=first.port)
    try:
        with pytest.raises(SessionLost, match="lost") as lost:
            env.step("slate")
        assert "reset() starts a new session" in str(lost.value)
        local = envsuite.make("envsuite/Wordle-v0")
        assert same(env.reset(seed=5), local.reset(seed=5))
        for word in ("crane", "slate"):
            assert same(env.step(word), local.step(word))
        env.close()
    finally:
        assert second.stop()


def test_no_server_at_all_is_a_clear_error() -> None:
    with RunningServer(ServeConfig(("envsuite/Wordle-v0",), port=0)) as server:
        url = server.url
    time.sleep(0.1)
    with pytest.raises(SessionLost, match="cannot connect to the envsuite server"):
        envsuite.remote.make(url, "envsuite/Wordle-v0", timeout=5)
