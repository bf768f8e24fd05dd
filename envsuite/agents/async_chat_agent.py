"""The chat agent for asyncio: many conversations over one HTTP connection pool.

:class:`AsyncChatAgent` speaks to an OpenAI-compatible ``/v1/chat/completions`` endpoint
exactly as :class:`~envsuite.agents.chat_agent.ChatAgent` does (the same prompt template,
image window, request body, sampling ``seed``, retries and caps, all inherited from
:class:`~envsuite.agents.chat_agent.ChatConversation`), but ``act`` is a coroutine, so
hundreds of episodes can wait for the model at once in one thread. Given the same seed and
the same replies, both agents send the same requests and return the same actions.

What differs is only the transport:

- the HTTP client is an ``httpx.AsyncClient``, usually one shared by every agent of a
  rollout (pass ``client``; its connection limit bounds the requests in flight); an agent
  made without one opens its own and closes it in :meth:`AsyncChatAgent.aclose`;
- ``timeout_s`` is a total deadline for one request (connecting, sending, reading the whole
  body), enforced by ``asyncio.wait_for``, which cancels the request when it passes;
- the retry wait is ``asyncio.sleep`` (replaceable through :attr:`AsyncChatAgent.sleep`).

Token usage is kept per turn (``turn_usage``: one dict per answered turn, with the
requests, retries, tokens and latency that turn cost) and per episode
(:meth:`episode_info`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from envsuite.agents.bounded_http import BodyError, aread_capped_body
from envsuite.agents.chat_agent import (
    ERROR_BODY_BYTES,
    ERROR_QUOTE_CHARS,
    RETRY_STATUSES,
    ChatAgentError,
    ChatConversation,
)


class _Transient(Exception):
    """A failure worth retrying: the connection broke or the deadline passed."""


class AsyncChatAgent(ChatConversation):
    """Acts by asking a chat-completions endpoint, without blocking the event loop.

    Args:
        model: Model name sent to the endpoint.
        client: The ``httpx.AsyncClient`` to send through (shared by many agents); None:
            the agent opens its own on first use and closes it in :meth:`aclose`.
        **options: The other arguments of :class:`~envsuite.agents.chat_agent.ChatAgent`
            (``base_url``, ``api_key``, ``temperature``, ``timeout_s``, ``max_retries``,
            ``system_prompt``, ...), with the same meaning and defaults.

    Raises:
        ValueError: an argument out of range.
    """

    def __init__(
        self, model: str, *, client: httpx.AsyncClient | None = None, **options: Any
    ) -> None:
        super().__init__(model, **options)
        self.client = client
        self._owns_client = client is None
        #: How the agent waits between retries (replaceable in tests).
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        """Send the observation, return the model's reply.

        Raises:
            ChatAgentError: the endpoint failed for good (after retries, or with a status
                not worth retrying, or a malformed answer).
        """
        reply = await self._complete(self._user_turn(observation, info))
        return self._assistant_turn(reply)

    async def aclose(self) -> None:
        """Close the agent's own HTTP client (a shared one is its owner's to close)."""
        if self._owns_client and self.client is not None:
            await self.client.aclose()
            self.client = None

    def _client(self) -> httpx.AsyncClient:
        if self.client is None:
            self.client = httpx.AsyncClient(headers=self.headers)
        return self.client

    async def _complete(self, messages: list[dict[str, Any]]) -> str:
        body = self._body(messages)
        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.usage["retries"] += 1
            started = time.perf_counter()
            try:
                status, retry_after, data = await self._post(body)
            except _Transient as exc:
                problem = str(exc)
                await self._wait(attempt, None)
                continue
            finally:
                self.usage["latency_s"] += time.perf_counter() - started
                self.usage["requests"] += 1
            if status in RETRY_STATUSES:
                problem = f"HTTP {status}"
                await self._wait(attempt, retry_after)
                continue
            if status != 200:
                quoted = data[:ERROR_QUOTE_CHARS].decode("utf-8", errors="replace")
                raise ChatAgentError(f"{self.url} answered HTTP {status}: {quoted}")
            return self._read(data)
        raise ChatAgentError(
            f"{self.url} failed {self.max_retries + 1} times; last problem: {problem}"
        )

    async def _post(self, body: dict[str, Any]) -> tuple[int, str | None, bytes]:
        """One request within ``timeout_s``: status, Retry-After and (capped) body.

        Raises:
            _Transient: a transport failure or the deadline (worth retrying).
            ChatAgentError: a body over the cap or in an unreadable encoding.
        """
        try:
            return await asyncio.wait_for(self._exchange(body), self.timeout_s)
        except TimeoutError as exc:
            raise _Transient(f"no complete answer within timeout_s={self.timeout_s:g} s") from exc
        except httpx.TransportError as exc:  # connection refused/reset, cut off
            raise _Transient(f"{type(exc).__name__}: {exc}") from exc

    async def _exchange(self, body: dict[str, Any]) -> tuple[int, str | None, bytes]:
        client = self._client()
        async with client.stream("POST", self.url, json=body, headers=self.headers) as response:
            status = response.status_code
            if status in RETRY_STATUSES:
                return status, response.headers.get("retry-after"), b""
            quote_only = status != 200
            limit = ERROR_BODY_BYTES if quote_only else self.max_response_bytes
            try:
                data = await aread_capped_body(response, limit)
            except BodyError as exc:
                if quote_only:  # an error page too long to quote whole: its start is enough
                    data = b"(an unreadable or oversized error body)"
                else:
                    raise ChatAgentError(f"{self.url} sent an unusable response: {exc}") from exc
            return status, None, data

    async def _wait(self, attempt: int, retry_after: str | None) -> None:
        delay = self._retry_delay(attempt, retry_after)
        if delay is not None:
            await self.sleep(delay)
