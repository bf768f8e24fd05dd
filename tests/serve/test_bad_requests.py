"""Malformed requests get a 4xx with a message: never a 500, never a crashed server."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect

from envsuite.serve import LOOPBACK, RunningServer, ServeConfig

TOKEN = "s3cret-token"
PNG = "data:image/png;base64,"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def guarded() -> Iterator[RunningServer]:
    """A server with a token and a small message cap."""
    config = ServeConfig(
        ("envsuite/Bandit-v0", "envsuite/Nim-v0"),
        port=0,
        token=TOKEN,
        max_message_bytes=64 * 1024,
    )
    with RunningServer(config) as running:
        yield running


def _ws(server: RunningServer, path: str = "/ws", headers: dict[str, str] | None = None):
    url = server.url.replace("http://", "ws://") + path
    return connect(url, additional_headers=AUTH if headers is None else headers)


def _ask(ws, message: str) -> dict:
    ws.send(message)
    return json.loads(ws.recv(timeout=10))


def _post(server, path: str, **kwargs) -> httpx.Response:
    kwargs.setdefault("headers", AUTH)
    return httpx.post(server.url + path, timeout=10, **kwargs)


def _fresh_session(server) -> str:
    answer = _post(server, "/reset", json={"seed": 1})
    assert answer.status_code == 200
    return answer.json()["session_id"]


# (what, method, path, request kwargs, status, words the message holds)
HTTP_CASES = [
    ("bad JSON", "/reset", {"content": b"{not json"}, 400, "invalid JSON"),
    ("a JSON list", "/reset", {"json": [1, 2]}, 422, "JSON object"),
    ("huge body", "/reset", {"content": b"{" + b" " * 200_000 + b"}"}, 413, "over"),
    ("unknown env", "/envs/Nope-v0/reset", {"json": {}}, 404, "not served here"),
    ("kwarg outside the set", "/reset", {"json": {"arm_means": [0.5]}}, 403, "arm_means"),
    ("seed of the wrong type", "/reset", {"json": {"seed": "7"}}, 422, "seed must be"),
    ("negative seed", "/reset", {"json": {"seed": -1}}, 422, "seed must lie"),
    ("bool seed", "/reset", {"json": {"seed": True}}, 422, "seed must be"),
    ("bad kwarg value", "/reset", {"json": {"num_arms": "many"}}, 400, "num_arms"),
    ("bad render mode", "/reset", {"json": {"render_mode": "human"}}, 422, "render_mode"),
    (
        "step without a session",
        "/step",
        {"json": {"action": {"action": "blue"}}},
        422,
        "session_id",
    ),
    (
        "unknown session",
        "/step",
        {"json": {"session_id": "x", "action": {}}},
        404,
        "no open session",
    ),
    ("close unknown session", "/close", {"json": {"session_id": 5}}, 404, "no open session"),
]


@pytest.mark.parametrize(
    ("what", "path", "kwargs", "status", "words"), HTTP_CASES, ids=lambda c: str(c)
)
def test_malformed_http_requests_get_a_4xx(guarded, what, path, kwargs, status, words) -> None:
    answer = _post(guarded, path, **kwargs)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["message"]


def test_malformed_steps_of_a_live_session(guarded) -> None:
    session = _fresh_session(guarded)
    cases = [
        ({"session_id": session, "action": "blue"}, 422, '"action" must be an object'),
        ({"session_id": session, "action": {}}, 422, "lacks 'action'"),
        ({"session_id": session, "action": {"action": {"$array": ["O", [1], [1]]}}}, 422, "dtype"),
        ({"session_id": session, "action": {"action": {"$nope": 1}}}, 422, "unknown"),
        (
            {"session_id": session, "action": {"action": {"$image": ["data:x", [1, 1, 3]]}}},
            422,
            "png",
        ),
        (
            {"session_id": session, "action": {"action": {"$image": [PNG + "AAAA", [1, 1, 3]]}}},
            422,
            "PNG",
        ),
        (
            {"session_id": session, "action": {"action": {"$array": ["<f8", [10**9, 10**9], []]}}},
            422,
            "more than",
        ),
    ]
    for body, status, words in cases:
        answer = _post(guarded, "/step", json=body)
        assert answer.status_code == status, answer.text
        assert words in answer.json()["message"]
    # The session survived all of that: a real step works.
    answer = _post(guarded, "/step", json={"session_id": session, "action": {"action": "blue"}})
    assert answer.status_code == 200
    assert answer.json()["observation"]["info"]["parse_error"] is None


def test_a_wrong_token_is_refused(guarded) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": TOKEN}):
        answer = _post(guarded, "/reset", json={}, headers=headers)
        assert answer.status_code == 401
        assert "token" in answer.json()["message"]
    assert httpx.get(guarded.url + "/metrics", timeout=10).status_code == 401
    assert httpx.get(guarded.url + "/health", timeout=10).status_code == 200
    with _ws(guarded, headers={"Authorization": "Bearer nope"}) as ws:
        error = json.loads(ws.recv(timeout=10))
        assert error["type"] == "error" and error["data"]["code"] == "UNAUTHORIZED"


def test_malformed_websocket_messages_get_errors_and_the_session_goes_on(guarded) -> None:
    with _ws(guarded) as ws:
        assert _ask(ws, "{nope")["data"]["code"] == "INVALID_JSON"
        assert _ask(ws, "[1, 2]")["data"]["code"] == "VALIDATION_ERROR"
        assert _ask(ws, '{"type": "dance"}')["data"]["code"] == "UNKNOWN_TYPE"
        assert _ask(ws, '{"type": "step", "data": {"action": "blue"}}')["data"]["code"] == (
            "SESSION_ERROR"
        )
        refused = _ask(ws, '{"type": "reset", "data": {"seed": 1.5}}')["data"]
        assert refused["code"] == "VALIDATION_ERROR" and "seed" in refused["message"]
        refused = _ask(ws, '{"type": "reset", "data": {"arm_means": [1]}}')["data"]
        assert refused["code"] == "KWARG_NOT_ALLOWED"
        assert _ask(ws, '{"type": "oracle_reset", "data": {}}')["data"]["code"] == "NOT_ALLOWED"
        assert _ask(ws, '{"type": "reset", "data": {"seed": 3}}')["type"] == "observation"
        answer = _ask(ws, '{"type": "step", "data": {"action": "blue"}}')
        assert answer["type"] == "observation"


def test_a_websocket_message_over_the_cap_closes_only_that_connection(guarded) -> None:
    with _ws(guarded) as ws:
        ws.send(json.dumps({"type": "step", "data": {"action": "x" * 200_000}}))
        with pytest.raises(Exception):  # noqa: B017 (the server closes with 1009)
            ws.recv(timeout=10)
    assert httpx.get(guarded.url + "/health", timeout=10).status_code == 200


def test_unknown_env_over_websocket(guarded) -> None:
    with _ws(guarded, "/envs/Nope-v0/ws") as ws:
        error = json.loads(ws.recv(timeout=10))
        assert error["data"]["code"] == "UNKNOWN_ENV"
        assert "Bandit-v0" in error["data"]["message"]


def test_unknown_routes_and_methods(guarded) -> None:
    assert httpx.get(guarded.url + "/nowhere", timeout=10).status_code == 404
    assert httpx.get(guarded.url + "/reset", timeout=10, headers=AUTH).status_code == 405


def test_nothing_above_was_a_500_and_the_server_is_fine(guarded) -> None:
    seen = httpx.get(guarded.url + "/metrics", headers=AUTH, timeout=10).json()
    assert "EXECUTION_ERROR" not in seen["errors"]
    assert seen["errors"]  # the refusals above were counted
    assert httpx.get(guarded.url + "/health", timeout=10).json() == {"status": "healthy"}


def test_a_full_server_refuses_more_sessions() -> None:
    with RunningServer(ServeConfig(("envsuite/Bandit-v0",), port=0, max_sessions=2)) as server:
        sessions = [httpx.post(server.url + "/reset", json={}, timeout=10) for _ in range(2)]
        assert all(answer.status_code == 200 for answer in sessions)
        third = httpx.post(server.url + "/reset", json={}, timeout=10)
        assert third.status_code == 429
        assert "maximum of 2 sessions" in third.json()["message"]


def test_the_server_binds_loopback_unless_told_otherwise() -> None:
    assert ServeConfig(("envsuite/Bandit-v0",)).host == LOOPBACK == "127.0.0.1"
    with RunningServer(ServeConfig(("envsuite/Bandit-v0",), port=0)) as server:
        assert server.host == "127.0.0.1"
    from typer.testing import CliRunner

    from envsuite.cli import app

    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).output
    assert "127.0.0.1" in shown


def test_a_full_server_refuses_a_remote_env_clearly() -> None:
    import envsuite.remote

    with RunningServer(ServeConfig(("envsuite/Bandit-v0",), port=0, max_sessions=1)) as server:
        first = envsuite.remote.make(server.url, "envsuite/Bandit-v0")
        with pytest.raises(envsuite.remote.RemoteError, match="maximum of 1 sessions") as full:
            envsuite.remote.make(server.url, "envsuite/Bandit-v0")
        assert full.value.code == "CAPACITY_REACHED"
        first.close()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["envsuite/Bandt-v0"], "Did you mean 'envsuite/Bandit-v0'"),
        (["envsuite/Bandit-v0", "--allow-kwargs", "envsuite/Bandit-v0=nope"], "nope"),
        (["envsuite/Bandit-v0", "--set", "envsuite/Nim-v0:misere=true"], "not served"),
        (["envsuite/Bandit-v0", "--set", "oops"], "ENV_ID:KEY=VALUE"),
    ],
)
def test_serve_command_refuses_bad_setups(args, words) -> None:
    from typer.testing import CliRunner

    from envsuite.cli import app

    result = CliRunner().invoke(app, ["serve", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert words in result.output


def test_an_action_over_the_cap_is_a_malformed_action_not_an_error(guarded) -> None:
    import envsuite.remote

    env = envsuite.remote.make(guarded.url, "envsuite/Bandit-v0", token=TOKEN)
    env.reset(seed=0)
    _, _, _, _, info = env.step("x" * 200_000)  # over the server's 64 KiB
    assert "UnencodableAction" in info["parse_error"]  # the env's own refusal of it
    _, _, _, _, info = env.step("blue")  # the session goes on
    assert info["parse_error"] is None
    game = envsuite.remote.make(guarded.url, "envsuite/Nim-v0", token=TOKEN)
    game.reset(seed=0)
    game.step(["take 1 from heap 1"] * 100_000)
    assert game.infos["player_0"]["parse_error"]
    env.close()
    game.close()
