"""An asyncio session with an envsuite server: many episodes at once from one thread.

:class:`AsyncSession` speaks the same messages as the synchronous remote envs, for code
that runs hundreds of episodes concurrently (batched rollouts): each session is one
WebSocket connection and one env on the server. Single-agent helpers decode what the
Gymnasium API returns; :meth:`AsyncSession.request` sends any message of
:mod:`envsuite.remote.protocol`.

Example:
    >>> async with AsyncSession(url, "envsuite/Wordle-v0") as session:  # doctest: +SKIP
    ...     observation, info = await session.reset(seed=3)
    ...     observation, reward, terminated, truncated, info = await session.step("crane")
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from envsuite.registry import import_optional
from envsuite.remote import protocol, wire
from envsuite.remote.actions import encode_action
from envsuite.remote.connection import (
    DEFAULT_TIMEOUT,
    LOST,
    MAX_ANSWER_BYTES,
    RemoteError,
    SessionLost,
    websocket_url,
)


class AsyncSession:
    """One session of ``env_id`` on the server at ``url``, made with ``kwargs``.

    Args:
        url: ``http://host:port`` of the server.
        env_id: The served env's id.
        token: The server's bearer token, if it has one.
        timeout: Seconds to wait for the connection and for each answer.
        kwargs: The env's keyword arguments (sent when the session opens).
    """

    def __init__(
        self,
        url: str,
        env_id: str,
        *,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        **kwargs: Any,
    ) -> None:
        self.url, self.env_id, self.token, self.timeout = url, env_id, token, timeout
        self.kwargs = kwargs
        self.described: dict[str, Any] | None = None
        self._ws: Any = None

    async def open(self) -> dict[str, Any]:
        """Connect and make the env; the server's description of it (spaces, spec hash)."""
        client = import_optional("websockets.asyncio.client", extra="serve")
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        try:
            self._ws = await client.connect(
                websocket_url(self.url, self.env_id),
                additional_headers=headers,
                open_timeout=self.timeout,
                close_timeout=2,
                max_size=MAX_ANSWER_BYTES,
            )
        except Exception as exc:  # OSError, timeouts, a refused handshake
            raise SessionLost(
                f"cannot connect to the envsuite server at {self.url}: {exc}"
            ) from exc
        self.described = await self.request(protocol.MAKE, {"kwargs": wire.encode(self.kwargs)})
        return self.described

    async def request(self, kind: str, data: Any = None) -> Any:
        """Send one message and return its answer's ``data``.

        Raises:
            RemoteError: the server answered with an error.
            SessionLost: the connection broke.
        """
        if self._ws is None:
            raise SessionLost(LOST.format(url=self.url, why="the session is not open"))
        exceptions = import_optional("websockets.exceptions", extra="serve")
        message = {"type": kind} if data is None else {"type": kind, "data": data}
        try:
            await self._ws.send(wire.dumps(message))
            answer = wire.loads(await asyncio.wait_for(self._ws.recv(), self.timeout))
        except (exceptions.ConnectionClosed, OSError, TimeoutError) as exc:
            self._ws = None
            raise SessionLost(LOST.format(url=self.url, why=exc)) from exc
        if answer.get("type") == protocol.ERROR:
            error = answer.get("data") or {}
            kind_of = SessionLost if error.get("closing") else RemoteError
            raise kind_of(
                f"{self.env_id} on {self.url}: {error.get('message')}", error.get("code", "")
            )
        return answer.get("data")

    async def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset a single-agent env: ``(observation, info)``."""
        data = {"seed": seed, "options": None if options is None else wire.encode(options)}
        answer = (await self.request(protocol.RESET, data))["observation"]
        return wire.decode(answer["observation"]), wire.decode(answer["info"])

    async def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Step a single-agent env: what Gymnasium's ``step`` returns."""
        data = await self.request(protocol.STEP, {"action": encode_action(action)})
        answer = data["observation"]
        return (
            wire.decode(answer["observation"]),
            float(data["reward"]),
            bool(answer["terminated"]),
            bool(answer["truncated"]),
            wire.decode(answer["info"]),
        )

    async def close(self) -> None:
        """End the session (the server closes its env)."""
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):  # the connection is gone already
                await ws.send(wire.dumps({"type": protocol.CLOSE}))
            await ws.close()

    async def __aenter__(self) -> AsyncSession:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
