"""A synchronous WebSocket session with an envsuite server: send a message, read its answer.

Errors are :class:`RemoteError` (the server refused a message: its code and message) or
:class:`SessionLost` (the connection broke: the server stopped or restarted, the session
was reaped, the network failed); either way the text says what happened and what to do.
"""

from __future__ import annotations

import contextlib
import urllib.parse
from typing import Any

from envsuite.errors import EnvsuiteError
from envsuite.registry import import_optional
from envsuite.remote import protocol, wire

#: Seconds to wait for the connection and for each answer, unless told otherwise. Long,
#: since an env step may run a test suite in a sandbox; a server that vanished is noticed
#: sooner, by the WebSocket pings (every 20 s, 20 s to answer).
DEFAULT_TIMEOUT = 300.0
#: Largest message accepted from the server (observations with images can be big).
MAX_ANSWER_BYTES = 64 << 20

LOST = (
    "the connection to the envsuite server at {url} was lost ({why}); the session and its "
    "env are gone on the server: reset() starts a new session"
)


class RemoteError(EnvsuiteError):
    """The server refused a message; ``code`` is the protocol's error code."""

    def __init__(self, message: str, code: str = "SESSION_ERROR") -> None:
        super().__init__(message)
        self.code = code


class SessionLost(RemoteError):
    """The connection is gone (server stopped or restarted, session reaped, network)."""


def websocket_url(url: str, env_id: str) -> str:
    """The WebSocket URL of ``env_id`` on the server at ``url`` (http(s) or ws(s))."""
    parts = urllib.parse.urlsplit(url)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"not a server URL: {url!r} (expected http://host:port)")
    name = env_id.split("/", 1)[-1]
    path = f"{parts.path.rstrip('/')}/envs/{urllib.parse.quote(name)}/ws"
    return urllib.parse.urlunsplit((scheme, parts.netloc, path, "", ""))


class Connection:
    """One WebSocket session of ``env_id`` on the server at ``url``.

    Args:
        url: ``http://host:port`` of the server.
        env_id: The served env's id.
        token: The server's bearer token, if it has one.
        timeout: Seconds to wait for the connection and for each answer.
    """

    def __init__(
        self, url: str, env_id: str, token: str | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.url = url
        self.env_id = env_id
        self.token = token
        self.timeout = timeout
        self._ws: Any = None

    def open(self) -> None:
        """Connect (a new session on the server)."""
        client = import_optional("websockets.sync.client", extra="serve")
        exceptions = import_optional("websockets.exceptions", extra="serve")
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        try:
            ws = client.connect(
                websocket_url(self.url, self.env_id),
                additional_headers=headers,
                open_timeout=self.timeout,
                close_timeout=2,
                max_size=MAX_ANSWER_BYTES,
            )
            # The connection lives as long as this object, not a with-block: entering its
            # context is how websockets (>= 17.1) is told so; _drop closes it.
            self._ws = ws.__enter__()
        except (OSError, exceptions.WebSocketException, TimeoutError) as exc:
            raise SessionLost(
                f"cannot connect to the envsuite server at {self.url}: {exc}", "SESSION_ERROR"
            ) from exc

    @property
    def is_open(self) -> bool:
        """Whether a connection is open (it may still turn out to be broken)."""
        return self._ws is not None

    def request(self, kind: str, data: Any = None) -> Any:
        """Send one message and return its answer's ``data``.

        Raises:
            RemoteError: the server answered with an error.
            SessionLost: the connection broke (it is then closed on this side too), or is
                not open: the session it held is gone, so a message is never sent to a
                new session behind the caller's back.
        """
        if self._ws is None:
            raise SessionLost(LOST.format(url=self.url, why="it was closed earlier"))
        message = {"type": kind} if data is None else {"type": kind, "data": data}
        exceptions = import_optional("websockets.exceptions", extra="serve")
        try:
            try:
                self._ws.send(wire.dumps(message))
            except exceptions.ConnectionClosed:
                # The server may have refused the session and closed right away (a wrong
                # token, an env it does not serve, no free session): its reason is the
                # message it sent first, still waiting to be read.
                answer = wire.loads(self._ws.recv(timeout=1.0))
            else:
                answer = wire.loads(self._ws.recv(timeout=self.timeout))
        except exceptions.ConnectionClosed as exc:
            self._drop()
            reason = exc.rcvd.reason if exc.rcvd is not None and exc.rcvd.reason else str(exc)
            raise SessionLost(LOST.format(url=self.url, why=reason)) from exc
        except (OSError, TimeoutError) as exc:
            self._drop()
            why = f"no answer within {self.timeout:g} s" if isinstance(exc, TimeoutError) else exc
            raise SessionLost(LOST.format(url=self.url, why=why)) from exc
        if not isinstance(answer, dict):
            raise RemoteError("the server sent something that is not a message")
        if answer.get("type") == protocol.ERROR:
            error = answer.get("data") or {}
            code = error.get("code", "SESSION_ERROR")
            if error.get("closing"):
                self._drop()
                if code == "SESSION_ERROR":  # the session itself ended (the idle timeout)
                    why = error.get("message", "closed")
                    raise SessionLost(LOST.format(url=self.url, why=why), code)
            raise RemoteError(
                f"{self.env_id} on {self.url}: {error.get('message', 'unknown error')}", code
            )
        return answer.get("data")

    def _drop(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):  # already broken
                ws.close()

    def close(self) -> None:
        """Close the session (the server closes its env); safe to call twice."""
        if self._ws is None:
            return
        with contextlib.suppress(Exception):  # the connection is gone already
            self._ws.send(wire.dumps({"type": protocol.CLOSE}))
        self._drop()
