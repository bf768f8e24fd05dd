"""HTTP sessions, the kwargs allow-list, metrics, and a clean shutdown."""

from __future__ import annotations

import httpx
import pytest

import envsuite
import envsuite.remote
from envsuite.registry import registry
from envsuite.remote import wire
from envsuite.serve import RunningServer, ServeConfig
from envsuite.serve.kwargs_policy import KwargsPolicy, default_allowed_kwargs
from envsuite.testing.logical_state import same


def test_an_http_session_plays_the_in_process_episode(server) -> None:
    base = f"{server.url}/envs/Wordle-v0"
    first = httpx.post(f"{base}/reset", json={"seed": 9}, timeout=10).json()
    session = first["session_id"]
    local = envsuite.make("envsuite/Wordle-v0")
    observation, _ = local.reset(seed=9)
    assert same(wire.decode(first["observation"]["observation"]), observation)
    for word in ("crane", "xx", "slate"):
        body = {"session_id": session, "action": {"action": word}}
        answer = httpx.post(f"{base}/step", json=body, timeout=10).json()
        observation, reward, terminated, truncated, info = local.step(word)
        assert answer["reward"] == reward
        assert answer["done"] == (terminated or truncated)
        assert same(wire.decode(answer["observation"]["observation"]), observation)
        assert same(wire.decode(answer["observation"]["info"]), info)
    state = httpx.get(f"{base}/state", params={"session_id": session}, timeout=10).json()
    assert state["step_count"] == 3 and state["session_id"] == session
    # A reset naming the session starts a new episode in it (no new session).
    again = httpx.post(f"{base}/reset", json={"seed": 9, "session_id": session}, timeout=10)
    assert again.json()["session_id"] == session
    closed = httpx.post(f"{base}/close", json={"session_id": session}, timeout=10)
    assert closed.json() == {"session_id": session, "closed": True}
    assert httpx.get(f"{base}/state", params={"session_id": session}, timeout=10).status_code == 404


def test_openenv_schema_metadata_and_envs(server) -> None:
    schema = httpx.get(f"{server.url}/envs/Nim-v0/schema", timeout=10).json()
    assert set(schema) == {"action", "observation", "state"}
    assert "agent" in schema["action"]["properties"]
    assert "agent_selection" in schema["observation"]["properties"]
    metadata = httpx.get(f"{server.url}/metadata", timeout=10).json()
    assert metadata["name"] == "envsuite/Bandit-v0"
    envs = httpx.get(f"{server.url}/envs", timeout=10).json()
    assert envs["envsuite/Bandit-v0"]["allowed_kwargs"] == sorted(
        default_allowed_kwargs(registry["envsuite/Bandit-v0"])
    )
    assert envs["envsuite/Bandit-v0"]["path"] == "/envs/Bandit-v0"


def test_metrics_count_sessions_steps_and_latencies(server) -> None:
    env = envsuite.remote.make(server.url, "envsuite/Bandit-v0", horizon=5)
    env.reset(seed=0)
    for _ in range(5):
        env.step("red")
    seen = httpx.get(f"{server.url}/metrics", timeout=10).json()
    assert seen["sessions_by_env"]["envsuite/Bandit-v0"] >= 1
    assert seen["counts"]["steps"] >= 5
    latency = seen["step_latency_ms"]
    assert latency["count"] >= 5 and 0 <= latency["p50"] <= latency["p99"] <= latency["max"]
    env.close()


def test_the_default_allow_list_is_the_typed_scalar_arguments() -> None:
    allowed = default_allowed_kwargs(registry["envsuite/Bandit-v0"])
    assert {"num_arms", "horizon", "difficulty", "observation_mode"} <= allowed
    assert "arm_means" not in allowed  # a tuple
    assert "render_mode" not in allowed  # an option of its own
    policy = KwargsPolicy.for_spec(
        registry["envsuite/Bandit-v0"], frozenset({"horizon"}), {"num_arms": 3}
    )
    assert policy.allowed == {"horizon"} and policy.fixed == {"num_arms": 3}


def test_fixed_kwargs_apply_and_cannot_be_changed() -> None:
    config = ServeConfig(
        ("envsuite/Bandit-v0",),
        port=0,
        fixed_kwargs={"envsuite/Bandit-v0": {"num_arms": 3, "observation_mode": "vector"}},
    )
    with RunningServer(config) as server:
        env = envsuite.remote.make(server.url, "envsuite/Bandit-v0")
        local = envsuite.make("envsuite/Bandit-v0", num_arms=3, observation_mode="vector")
        assert env.unwrapped.spec_hash == local.unwrapped.spec_hash
        with pytest.raises(envsuite.remote.RemoteError, match="num_arms"):
            envsuite.remote.make(server.url, "envsuite/Bandit-v0", num_arms=4)
        env.close()


def test_stopping_the_server_closes_every_env() -> None:
    server = RunningServer(ServeConfig(("envsuite/Nim-v0",), port=0))
    envs = [envsuite.remote.make(server.url, "envsuite/Nim-v0") for _ in range(3)]
    for env in envs:
        env.reset(seed=0)
    table = server.sessions
    assert table.live_envs() == 3
    server.stop()
    assert table.live_envs() == 0 and not table.sessions
    counts = table.snapshot()["counts"]
    closed = {
        k: v for k, v in counts.items() if k.startswith("sessions_") and k != "sessions_opened"
    }
    assert sum(closed.values()) == 3  # each closed once (by its dropped connection or shutdown)


def test_a_turn_based_game_over_http(server) -> None:
    base = f"{server.url}/envs/Nim-v0"
    first = httpx.post(f"{base}/reset", json={"seed": 2}, timeout=10).json()
    session = first["session_id"]
    local = envsuite.make("envsuite/Nim-v0")
    local.reset(seed=2)
    assert first["observation"]["agent_selection"] == local.agent_selection
    for move in ("take 1 from heap 1", "take 9 from heap 9", "take 1 from heap 2"):
        mover = local.agent_selection
        body = {"session_id": session, "action": {"action": move, "agent": mover}}
        answer = httpx.post(f"{base}/step", json=body, timeout=10).json()
        local.step(move)
        observation = answer["observation"]
        assert observation["agent_selection"] == local.agent_selection
        assert answer["reward"] == local.rewards[mover]
        assert same(wire.decode(observation["infos"]), local.infos)
        assert same(
            wire.decode(observation["observations"]), {a: local.observe(a) for a in local.agents}
        )
    httpx.post(f"{base}/close", json={"session_id": session}, timeout=10)
