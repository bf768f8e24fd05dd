"""Running the app: in the foreground (``envsuite serve``) or in a background thread.

Both bind the socket themselves (port 0 picks a free port, whose number the server then
knows) and run uvicorn on it, with WebSocket messages capped at the config's
``max_message_bytes`` and pings that find a vanished client within ``ws_ping_timeout``.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from envsuite.registry import import_optional
from envsuite.serve.app import create_app
from envsuite.serve.config import ServeConfig

#: Seconds between WebSocket pings, and to wait for a pong before dropping the client.
PING_INTERVAL = 20.0
PING_TIMEOUT = 20.0


def bind(config: ServeConfig) -> socket.socket:
    """A listening TCP socket on the config's host and port."""
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((config.host, config.port))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock


def _uvicorn_server(config: ServeConfig, app: Any, log_level: str) -> Any:
    uvicorn = import_optional("uvicorn", extra="serve")
    settings = uvicorn.Config(
        app,
        log_level=log_level,
        ws_max_size=config.max_message_bytes,
        ws_ping_interval=PING_INTERVAL,
        ws_ping_timeout=PING_TIMEOUT,
        backlog=4096,
        lifespan="on",
        timeout_graceful_shutdown=5,
    )
    return uvicorn.Server(settings)


def serve(
    config: ServeConfig,
    log_level: str = "warning",
    announce: Callable[[str], None] | None = None,
) -> None:
    """Serve ``config`` until interrupted (Ctrl-C or SIGTERM close every session first).

    Args:
        config: What to serve, and how.
        log_level: uvicorn's log level.
        announce: Called with ``http://host:port`` once the socket listens (with the
            port the system picked, for port 0).
    """
    sock = bind(config)
    if announce is not None:
        host, port = sock.getsockname()[:2]
        announce(f"http://{host}:{port}")
    _uvicorn_server(config, create_app(config), log_level).run(sockets=[sock])


class RunningServer:
    """A server running in a background thread of this process (tests, notebooks).

    Use as a context manager, or call :meth:`stop`. ``url`` is ``http://host:port``.
    """

    def __init__(self, config: ServeConfig, log_level: str = "error") -> None:
        self._sock = bind(config)
        self.host, self.port = self._sock.getsockname()[:2]
        self.config = config
        self.app = create_app(config)
        self._server = _uvicorn_server(config, self.app, log_level)
        self._thread = threading.Thread(target=self._run, name="envsuite-serve", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)

    def _run(self) -> None:
        asyncio.run(self._server.serve(sockets=[self._sock]))

    @property
    def url(self) -> str:
        """``http://host:port`` of the server."""
        return f"http://{self.host}:{self.port}"

    @property
    def sessions(self) -> Any:
        """The server's :class:`~envsuite.serve.session_table.SessionTable`."""
        return self.app.state.sessions

    def stop(self) -> None:
        """Stop the server (every session and env closed) and wait for its thread."""
        self._server.should_exit = True
        self._thread.join(timeout=30)
        self._sock.close()

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
