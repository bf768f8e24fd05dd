"""Servers the serve tests start and stop: in a thread of the test process, or a process.

Everything binds 127.0.0.1 on a port the system picks.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
#: The envs the tests serve: a bandit, a word game, SAT, a turn-based and a
#: simultaneous-move game.
SERVED = (
    "envsuite/Bandit-v0",
    "envsuite/Wordle-v0",
    "envsuite/SAT-v0",
    "envsuite/Nim-v0",
    "envsuite/RepeatedGame-v0",
)


def metrics(url: str, token: str | None = None) -> dict[str, Any]:
    """The server's ``GET /metrics``."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{url}/metrics", headers=headers, timeout=10).json()


def wait_until(condition: Any, timeout: float = 20.0, what: str = "condition") -> None:
    """Poll ``condition()`` until true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class ServerProcess:
    """``python -m envsuite serve ARGS --port PORT`` in a child process.

    Args:
        args: Env ids and options.
        port: The port (0: the system picks; read from the server's announcement).
    """

    def __init__(self, args: list[str], port: int = 0) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "envsuite", "serve", *args, "--port", str(port)],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        assert self.process.stderr is not None
        announced = ""
        deadline = time.monotonic() + 60
        while "serving" not in announced:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.kill()
                raise RuntimeError(f"server did not start: {announced}")
            announced += self.process.stderr.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", announced)
        assert found is not None, announced
        self.port = int(found[1])
        self.url = f"http://127.0.0.1:{self.port}"
        wait_until(self._healthy, what="the server's /health")

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.url}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """SIGKILL the server (a crash: nothing closes cleanly)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> bool:
        """SIGTERM the server and wait; whether it shut down cleanly.

        uvicorn closes every session, then ends by the signal it caught (exit code -15).
        """
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        assert self.process.stderr is not None
        rest = self.process.stderr.read()
        return code in (0, -signal.SIGTERM) and "Traceback" not in rest
