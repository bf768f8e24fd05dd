"""A scripted policy behind an OpenAI-compatible chat endpoint, served on loopback.

It lets you check a chat-agent setup end to end without a model: every request is
answered by a deterministic policy that cycles through the ``Valid actions`` listed in the
last user message (or echoes a fixed reply). Failures can be injected to exercise retries.

Messages may carry content parts as vision models take them: a list of
``{"type": "text", "text": ...}`` and ``{"type": "image_url", "image_url": {"url":
"data:image/png;base64,..."}}`` parts. Every image part is checked (a ``data:image/png``
URL, strict base64, the PNG signature and a readable header) and a request with a bad one
is refused with HTTP 400 naming the problem; each image seen is kept in
:attr:`ScriptedEndpoint.images` (its width, height and PNG bytes) for tests to inspect.

Run it: ``python -m envsuite.agents.scripted_endpoint --port 8000``, then
``envsuite eval ... --agent openai:scripted --base-url http://127.0.0.1:8000/v1``.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import contextlib
import dataclasses
import json
import struct
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Policy = Callable[[list[dict[str, Any]]], str]

#: The first bytes of every PNG file.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: The data URL prefix an image part must have.
PNG_DATA_URL = "data:image/png;base64,"
#: Prompt tokens counted per image part (a flat, made-up price; real models vary).
IMAGE_TOKENS = 85


class BadContent(ValueError):
    """A message whose content or image part is malformed."""


@dataclasses.dataclass(frozen=True)
class SeenImage:
    """An image part the endpoint received: its PNG header's size and its bytes."""

    width: int
    height: int
    png: bytes


def message_text(message: dict[str, Any]) -> str:
    """The text of a message: its content string, or its text parts joined by newlines."""
    content = message.get("content", "")
    if isinstance(content, str):
        return content
    return "\n".join(part["text"] for part in content if part.get("type") == "text")


def read_png_part(part: dict[str, Any]) -> SeenImage:
    """Check one ``image_url`` part and return the image it carries.

    Raises:
        BadContent: not a base64 PNG data URL, or not a PNG.
    """
    image_url = part.get("image_url")
    url = image_url.get("url") if isinstance(image_url, dict) else None
    if not isinstance(url, str) or not url.startswith(PNG_DATA_URL):
        raise BadContent(f"an image_url part needs a url starting with {PNG_DATA_URL!r}")
    try:
        data = base64.b64decode(url.removeprefix(PNG_DATA_URL), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadContent(f"an image part's base64 does not decode ({exc})") from exc
    # Signature, then the IHDR chunk: length 13, type, width and height (big-endian).
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR" or len(data) < 33:
        raise BadContent("an image part is not a PNG (no PNG signature and IHDR header)")
    width, height = struct.unpack(">II", data[16:24])
    if width == 0 or height == 0:
        raise BadContent(f"an image part's PNG is {width}x{height} pixels")
    return SeenImage(width, height, data)


def read_content(message: Any) -> list[SeenImage]:
    """Check a message's content (a string or a list of parts); return its images.

    Raises:
        BadContent: a malformed message, part or image.
    """
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        raise BadContent("every message needs a role")
    content = message.get("content")
    if isinstance(content, str):
        return []
    if not isinstance(content, list):
        raise BadContent("a message's content must be a string or a list of parts")
    images = []
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get("text"), str):
            continue
        if kind == "image_url":
            images.append(read_png_part(part))
            continue
        raise BadContent(f"unknown content part {str(part)[:80]}")
    return images


def cycle_valid_actions(messages: list[dict[str, Any]]) -> str:
    """Answer with valid action number (turn index mod count), or "pass" when none is listed."""
    last = next((message_text(m) for m in reversed(messages) if m.get("role") == "user"), "")
    for line in reversed(last.splitlines()):
        if line.startswith("Valid actions: "):
            actions = [a.strip() for a in line.removeprefix("Valid actions: ").split(",")]
            turn = sum(1 for m in messages if m.get("role") == "assistant")
            return actions[turn % len(actions)]
    return "pass"


#: How often the serving loop looks for a shutdown request: ``shutdown`` waits up to this
#: long (http.server's default of 0.5 s made every ``with ScriptedEndpoint()`` last 0.5 s).
SHUTDOWN_POLL_S = 0.02


class _QuietServer(ThreadingHTTPServer):
    """A threading server that stays quiet when a client hangs up mid-answer.

    The chat agent drops a connection on purpose (a reply over its size cap, a deadline);
    http.server would print a traceback for each. The listen backlog is deep enough for
    hundreds of clients connecting at once (http.server's default of 5 refuses the rest).
    """

    daemon_threads = True
    request_queue_size = 1024

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore a client that went away; report anything else as usual."""
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError):
            super().handle_error(request, client_address)


class ScriptedEndpoint:
    """A ``/v1/chat/completions`` server on 127.0.0.1 answering with ``policy``.

    Args:
        policy: Maps the request's messages to the reply text.
        port: Port to bind (0: any free port; see :attr:`base_url`).
    """

    def __init__(self, policy: Policy = cycle_valid_actions, port: int = 0) -> None:
        self.policy = policy
        self.requests: list[dict[str, Any]] = []
        #: The images of each request, in order (one list per request answered).
        self.images: list[list[SeenImage]] = []
        self._failures: list[tuple[int, float]] = []
        self._lock = threading.Lock()
        self.server = _QuietServer(("127.0.0.1", port), self._handler())
        self.thread = threading.Thread(
            target=self.server.serve_forever, args=(SHUTDOWN_POLL_S,), daemon=True
        )

    @property
    def base_url(self) -> str:
        """The API root to give the chat agent."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def fail_next(self, count: int, status: int = 500, delay_s: float = 0.0) -> None:
        """Answer the next ``count`` requests with ``status`` (after ``delay_s`` seconds)."""
        with self._lock:
            self._failures.extend([(status, delay_s)] * count)

    def __enter__(self) -> ScriptedEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _next_failure(self) -> tuple[int, float] | None:
        with self._lock:
            return self._failures.pop(0) if self._failures else None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            # Keep-alive, as real endpoints: a client reuses its connections (without
            # Nagle's algorithm, which would hold each body back for the client's ACK).
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                """Stay quiet."""

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                """Answer a chat completion."""
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                length = int(self.headers.get("Content-Length", 0))
                try:
                    body = json.loads(self.rfile.read(length))
                    messages = body["messages"]
                    if not isinstance(messages, list):
                        raise BadContent("messages must be a list")
                    images = [image for m in messages for image in read_content(m)]
                except (ValueError, KeyError, TypeError) as exc:
                    self._send(400, {"error": {"message": f"bad request: {exc}"}})
                    return
                with endpoint._lock:
                    endpoint.requests.append(body)
                    endpoint.images.append(images)
                failure = endpoint._next_failure()
                if failure is not None:
                    time.sleep(failure[1])
                    self._send(failure[0], {"error": {"message": "injected failure"}})
                    return
                reply = endpoint.policy(messages)
                prompt_tokens = sum(len(message_text(m).split()) for m in messages)
                prompt_tokens += IMAGE_TOKENS * len(images)
                completion_tokens = len(reply.split())
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(endpoint.requests)}",
                        "object": "chat.completion",
                        # Required by OpenAI's schema (its clients refuse a completion
                        # without it); the time answered, as real endpoints send.
                        "created": int(time.time()),
                        "model": body.get("model", ""),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": completion_tokens,
                            "total_tokens": prompt_tokens + completion_tokens,
                        },
                    },
                )

        return Handler


def main() -> None:
    """Serve the scripted endpoint until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    port = parser.parse_args().port
    with ScriptedEndpoint(port=port) as endpoint:
        print(f"serving {endpoint.base_url} (Ctrl-C to stop)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            endpoint.thread.join()


if __name__ == "__main__":
    main()
