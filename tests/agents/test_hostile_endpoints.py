"""The chat agent against hostile and broken endpoints: real servers on 127.0.0.1.

Each case is an endpoint that misbehaves in one way (Retry-After asking for 1e9 seconds, a
status line trickled a byte at a time, a 50 MB reply, a gzip bomb, a connection reset
mid-body, ...). The agent must come back, in bounded time and memory, with either a reply
or a :class:`ChatAgentError` saying what went wrong; never hang, never another exception.
Waits between retries are recorded instead of slept (``agent.sleep``), so Retry-After
cases check what the agent *would* wait.
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest

from envsuite.agents.chat_agent import ChatAgent, ChatAgentError
from tests.agents.hostile_endpoints import (
    RawEndpoint,
    completion,
    endless_chunks,
    endless_unframed,
    gzip_body,
    reset_mid_body,
    response,
    send,
    stall,
    trickle,
    zeros_compressed,
)

#: Seconds a case may take before it counts as hanging (a liveness bound, not a speed
#: claim: every case ends within a few timeout_s).
HANG_S = 60
TIMEOUT_S = 1.0
CAP_S = 0.25
BODY_CAP = 1 << 20
FIFTY_MB = 50 << 20
RETRIED = r"failed 2 times; last problem: "
DEADLINE = r"failed 2 times; last problem: no complete answer within timeout_s=1 s"


def _status(status: str, retry_after: str) -> bytes:
    return response(b"{}", status, {"Retry-After": retry_after})


def _big_reply() -> bytes:
    return completion("x" * FIFTY_MB)


# (id, handler, expected: reply text or an error regex, agent options)
CASES: list[tuple[str, Any, str, dict[str, Any]]] = [
    ("retry-after 1e9", send(_status("429 Too Many", "1e9")), RETRIED + "HTTP 429", {}),
    ("retry-after inf", send(_status("503 Busy", "inf")), RETRIED + "HTTP 503", {}),
    ("retry-after nan", send(_status("503 Busy", "nan")), RETRIED + "HTTP 503", {}),
    ("retry-after negative", send(_status("503 Busy", "-5")), RETRIED + "HTTP 503", {}),
    (
        "retry-after 20 digits",
        send(_status("429 Too Many", "9" * 20)),
        RETRIED + "HTTP 429",
        {},
    ),
    (
        "retry-after HTTP date in 9999",
        send(_status("503 Busy", "Fri, 31 Dec 9999 23:59:59 GMT")),
        RETRIED + "HTTP 503",
        {},
    ),
    (
        "retry-after HTTP date passed",
        send(_status("503 Busy", "Sun, 06 Nov 1994 08:49:37 GMT")),
        RETRIED + "HTTP 503",
        {},
    ),
    ("retry-after garbage", send(_status("429 Too Many", "soon\x7f")), RETRIED + "HTTP 429", {}),
    ("status line trickled (slowloris)", trickle(response(completion())), DEADLINE, {}),
    (
        "headers trickled forever",
        trickle(b"HTTP/1.1 200 OK\r\n" + b"X-Pad: " + b"a" * 100_000),
        DEADLINE,
        {},
    ),
    (
        "body trickled one byte at a time",
        trickle(response(completion("z" * 200)), forever=False),
        DEADLINE,
        {},
    ),
    (
        "headers then silence",
        stall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"),
        RETRIED + "(no complete answer|ReadTimeout)",
        {},
    ),
    (
        "50 MB reply with Content-Length",
        send(response(_big_reply())),
        "declares 52,428,[0-9]{3} bytes, over the 4,194,304 cap",
        {"max_response_bytes": 4 << 20},
    ),
    (
        "50 MB reply without framing",
        send(response(_big_reply(), length=False)),
        "over the 4,194,304-byte cap",
        {"max_response_bytes": 4 << 20},
    ),
    (
        "gzip bomb (256 MB of zeros)",
        send(response(zeros_compressed(256 << 20, 16 + 15), headers={"Content-Encoding": "gzip"})),
        "decompresses to over the 1,048,576-byte cap",
        {},
    ),
    (
        "deflate bomb (zlib)",
        send(response(zeros_compressed(256 << 20, 15), headers={"Content-Encoding": "deflate"})),
        "decompresses to over the 1,048,576-byte cap",
        {},
    ),
    (
        "deflate bomb (raw)",
        send(response(zeros_compressed(256 << 20, -15), headers={"Content-Encoding": "deflate"})),
        "decompresses to over the 1,048,576-byte cap",
        {},
    ),
    (
        "brotli-encoded body",
        send(response(b"\x0b\x02\x80ok\x03", headers={"Content-Encoding": "br"})),
        "unsupported Content-Encoding 'br'",
        {},
    ),
    (
        "gzip applied twice",
        send(
            response(gzip_body(gzip_body(completion())), headers={"Content-Encoding": "gzip, gzip"})
        ),
        "unsupported Content-Encoding 'gzip, gzip'",
        {},
    ),
    (
        "corrupt gzip",
        send(response(b"\x1f\x8b\x08\x00garbage" * 10, headers={"Content-Encoding": "gzip"})),
        "not valid gzip data",
        {},
    ),
    (
        "gzip done right",
        send(response(gzip_body(completion("fine")), headers={"Content-Encoding": "gzip"})),
        "fine",
        {},
    ),
    ("endless chunked body", endless_chunks(), "over the 1,048,576-byte cap", {}),
    ("endless unframed body", endless_unframed(), "over the 1,048,576-byte cap", {}),
    ("invalid JSON", send(response(b"{'choices': oops")), "malformed completion", {}),
    (
        "JSON nesting bomb",
        send(response(b"[" * 500_000 + b"]" * 500_000)),
        "nested too deeply",
        {},
    ),
    (
        "HTML instead of JSON",
        send(response(b"<html><body>502</body></html>", headers={"Content-Type": "text/html"})),
        "malformed completion",
        {},
    ),
    (
        "event stream instead of JSON",
        send(response(b"data: {}\n\n", headers={"Content-Type": "text/event-stream"})),
        "malformed completion",
        {},
    ),
    ("no choices", send(response(b'{"object": "chat.completion"}')), "malformed completion", {}),
    ("empty choices", send(response(b'{"choices": []}')), "malformed completion", {}),
    ("choices not a list", send(response(b'{"choices": "x"}')), "malformed completion", {}),
    ("top level not an object", send(response(b"[1, 2]")), "malformed completion", {}),
    ("null content", send(response(b'{"choices": [{"message": {"content": null}}]}')), "", {}),
    (
        "poisoned usage",
        send(
            response(
                completion("ok")[:-1]
                + b', "usage": {"prompt_tokens": NaN, "completion_tokens": true, '
                b'"total_tokens": -7}}'
            )
        ),
        "ok",
        {},
    ),
    ("body not UTF-8", send(response(b'{"choices": "\xff\xfe"}')), "malformed completion", {}),
    ("reset mid-body", reset_mid_body(), RETRIED + "(ReadError|RemoteProtocolError)", {}),
    ("closed without answering", send(b""), RETRIED + "RemoteProtocolError", {}),
    ("garbage status line", send(b"HELLO THERE\r\n\r\n"), RETRIED + "RemoteProtocolError", {}),
    (
        "1 MB header",
        send(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"),
        RETRIED + "RemoteProtocolError",
        {},
    ),
    (
        "Content-Length longer than the body",
        send(response(completion(), headers={"Content-Length": "100000"})),
        RETRIED + "RemoteProtocolError",
        {},
    ),
    (
        "redirect to itself",
        send(response(b"", "302 Found", {"Location": "/v1/chat/completions"})),
        "answered HTTP 302",
        {},
    ),
    (
        "401 with a 10 MB error page",
        send(response(b"e" * (10 << 20), "401 Unauthorized")),
        "answered HTTP 401: \\(an unreadable or oversized error body\\)",
        {},
    ),
]


def _run(agent: ChatAgent) -> tuple[str | None, BaseException | None]:
    """``agent.act`` in a thread; fails the test if it has not returned after HANG_S."""
    outcome: dict[str, Any] = {}

    def act() -> None:
        try:
            outcome["reply"] = agent.act("go", {})
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=act, daemon=True)
    thread.start()
    thread.join(HANG_S)
    assert not thread.is_alive(), f"the agent still waits after {HANG_S} s"
    return outcome.get("reply"), outcome.get("error")


@pytest.mark.parametrize(
    ("handler", "expected", "options"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_hostile_endpoint_is_contained(handler, expected, options):
    with RawEndpoint(handler) as endpoint:
        agent = ChatAgent(
            "m",
            base_url=endpoint.base_url,
            timeout_s=TIMEOUT_S,
            max_retries=1,
            backoff_s=0.001,
            max_retry_after_s=CAP_S,
            max_response_bytes=options.get("max_response_bytes", BODY_CAP),
        )
        waits: list[float] = []
        agent.sleep = waits.append
        agent.reset(seed=0)
        reply, error = _run(agent)
        agent.close()
    assert all(0 <= wait <= CAP_S for wait in waits), waits
    info = agent.episode_info()
    assert info["requests"] >= 1 and info["retry_wait_s"] == pytest.approx(sum(waits))
    if error is not None:
        assert isinstance(error, ChatAgentError), repr(error)
        assert re.search(expected, str(error)), str(error)
    else:
        assert reply == expected


def test_at_least_twenty_hostile_endpoints_are_tried():
    assert len(CASES) >= 20


def test_a_retry_after_within_the_cap_is_honoured():
    served = []

    def handler(conn, server):
        served.append(1)
        if len(served) == 1:
            conn.sendall(_status("503 Busy", "0.2"))
        else:
            conn.sendall(response(completion("after waiting")))

    with RawEndpoint(handler) as endpoint:
        agent = ChatAgent("m", base_url=endpoint.base_url, backoff_s=0.001, max_retry_after_s=1)
        waits: list[float] = []
        agent.sleep = waits.append
        agent.reset(seed=0)
        assert agent.act("go", {}) == "after waiting"
    assert waits == [0.2]


def test_usage_counts_only_real_token_numbers():
    body = completion("ok")[:-1] + b', "usage": {"prompt_tokens": 5, "total_tokens": 1e300}}'
    with RawEndpoint(send(response(body))) as endpoint:
        agent = ChatAgent("m", base_url=endpoint.base_url)
        agent.reset(seed=0)
        assert agent.act("go", {}) == "ok"
    assert agent.episode_info()["prompt_tokens"] == 5
    assert agent.episode_info()["total_tokens"] == 0
    json.dumps(agent.episode_info(), allow_nan=False)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("timeout_s", 0),
        ("timeout_s", float("inf")),
        ("max_retry_after_s", -1),
        ("max_retries", -1),
        ("max_retries", 1.5),
        ("max_response_bytes", True),
        ("backoff_s", float("nan")),
    ],
)
def test_out_of_range_options_are_refused(option, value):
    with pytest.raises(ValueError, match=option):
        ChatAgent("m", **{option: value})
