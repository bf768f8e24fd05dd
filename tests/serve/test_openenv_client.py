"""OpenEnv's own Python client (openenv-core, from PyPI, in its own venv) talks to the server."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import envsuite
from envsuite.remote import wire
from envsuite.serve import RunningServer, ServeConfig
from envsuite.testing.logical_state import same
from tests.serve.openenv_venv import openenv_python
from tests.serve.servers import wait_until

# Its side venv builds on this machine from collection on (tests/serve/conftest.py); the
# fresh-machine container leaves the module to this machine (tests/split_suite.py).
pytestmark = pytest.mark.host_only

SCRIPT = Path(__file__).with_name("openenv_session.py")
WORDS = ("crane", "slate", "???", "pious")


@pytest.fixture(scope="module")
def python() -> Path:
    if os.environ.get("ENVSUITE_FRESH_MACHINE") == "1":
        # The outer suite on the same machine runs this test; building the side venv again
        # in the fresh-machine container would only add minutes to CI's critical path.
        pytest.skip("OpenEnv's client is checked by the outer suite, not in the container")
    try:
        return openenv_python()
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            raise
        pytest.skip(f"no openenv-core venv: {exc}")


def test_openenv_client_plays_an_episode_unchanged(python: Path) -> None:
    with RunningServer(ServeConfig(("envsuite/Wordle-v0",), port=0)) as server:
        done = subprocess.run(
            [str(python), str(SCRIPT), server.url, *WORDS],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        wait_until(lambda: server.sessions.live_envs() == 0, what="the session closed")
    local = envsuite.make("envsuite/Wordle-v0")
    observation, info = local.reset(seed=7)
    first = lines[0]
    assert first["done"] is False and first["reward"] is None
    assert same(wire.decode(first["observation"]["observation"]), observation)
    assert same(wire.decode(first["observation"]["info"]), info)
    for word, answer in zip(WORDS, lines[1 : 1 + len(WORDS)], strict=True):
        observation, reward, terminated, truncated, info = local.step(word)
        assert answer["reward"] == reward
        assert answer["done"] == (terminated or truncated)
        assert same(wire.decode(answer["observation"]["observation"]), observation)
        assert same(wire.decode(answer["observation"]["info"]), info)
    state = lines[1 + len(WORDS)]["state"]
    assert state["step_count"] == len(WORDS) and state["env_id"] == "envsuite/Wordle-v0"
    error = lines[-1]["error"]
    assert "seed must be a non-negative int" in error and "VALIDATION_ERROR" in error
