"""A scripted policy behind an OpenAI-compatible chat endpoint, served on loopback.

It lets you check a chat-agent setup end to end without a model: every request is
answered by a deterministic policy that cycles through the ``Valid actions`` listed in the
last user message (or echoes a fixed reply). Failures can be injected to exercise retries.

Run it: ``python -m envsuite.agents.scripted_endpoint --port 8000``, then
``envsuite eval ... --agent openai:scripted --base-url http://127.0.0.1:8000/v1``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Policy = Callable[[list[dict[str, str]]], str]


def cycle_valid_actions(messages: list[dict[str, str]]) -> str:
    """Answer with valid action number (turn index mod count), or "pass" when none is listed."""
    last = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    for line in reversed(last.splitlines()):
        if line.startswith("Valid actions: "):
            actions = [a.strip() for a in line.removeprefix("Valid actions: ").split(",")]
            turn = sum(1 for m in messages if m.get("role") == "assistant")
            return actions[turn % len(actions)]
    return "pass"


class _QuietServer(ThreadingHTTPServer):
    """A threading server that stays quiet when a client hangs up mid-answer.

    The chat agent drops a connection on purpose (a reply over its size cap, a deadline);
    http.server would print a traceback for each.
    """

    daemon_threads = True

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
        self._failures: list[tuple[int, float]] = []
        self._lock = threading.Lock()
        self.server = _QuietServer(("127.0.0.1", port), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

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
                except (ValueError, KeyError) as exc:
                    self._send(400, {"error": {"message": f"bad request: {exc}"}})
                    return
                with endpoint._lock:
                    endpoint.requests.append(body)
                failure = endpoint._next_failure()
                if failure is not None:
                    time.sleep(failure[1])
                    self._send(failure[0], {"error": {"message": "injected failure"}})
                    return
                reply = endpoint.policy(messages)
                prompt_tokens = sum(len(m.get("content", "").split()) for m in messages)
                completion_tokens = len(reply.split())
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(endpoint.requests)}",
                        "object": "chat.completion",
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
