"""An agent backed by any OpenAI-compatible ``/v1/chat/completions`` endpoint.

Prompt template (one conversation per episode):

- system: :data:`SYSTEM_PROMPT` (or the ``system_prompt`` given);
- user, each step: the observation as :mod:`envsuite.agents.image_parts` builds it: a text
  observation as it is; an image (a ``uint8`` ``H x W x 3`` array, or a dict holding images
  and text) as a list of ``text`` and ``image_url`` parts, each image a base64 PNG within
  ``max_image_bytes`` and ``max_image_side`` (scaled down to fit; one that cannot fit is
  replaced by a text saying so and counted in ``images_too_big``); any other value as
  ``Observation: <JSON>`` when that is short, else a one-line summary (never pixels as JSON
  numbers); when the env lists legal actions, a last line ``Valid actions: a, b, c``;
- assistant: the model's reply, which is sent to the env unchanged. Parsing it is the env's
  job: a reply the env cannot parse costs the env's documented penalty, never a crash.

Images in the history: only the last ``max_history_images`` images of the conversation are
sent; each earlier one is replaced by the text ``[earlier image omitted]`` (and its data is
freed), so requests do not grow without bound on long visual episodes. ``history_turns``
bounds the number of turns as before.

Transient failures (connection errors, timeouts, HTTP 408, 409, 429 and 5xx) are retried
with exponential backoff; anything else, or running out of retries, raises
:class:`ChatAgentError`, which the runner records as an infra error (with the agent's
request, retry and latency counts).

Every request is bounded, so a hostile or broken endpoint costs a known amount of time
and memory:

- ``timeout_s`` is a total deadline for one request, from connecting to the last byte of
  the body (a server trickling bytes is cut off when it passes; see
  :mod:`envsuite.agents.bounded_http`);
- a ``Retry-After`` the endpoint sends is honoured when it asks for at most
  ``max_retry_after_s`` seconds; a longer, negative or unreadable one is ignored (the
  agent's own backoff, also capped at ``max_retry_after_s``, applies);
- a body over ``max_response_bytes`` (before or after ``gzip``/``deflate`` decoding) is
  refused, as is a JSON document nested too deeply to parse.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Mapping
from typing import Any, TypeGuard

import httpx

from envsuite.agent_protocol import ReportsEpisodeInfo
from envsuite.agents.bounded_http import (
    ACCEPT_ENCODING,
    BodyError,
    Deadline,
    read_capped_body,
    retry_after_seconds,
)
from envsuite.agents.image_parts import (
    MAX_IMAGE_BYTES,
    MAX_IMAGE_SIDE,
    Content,
    ImageLimits,
    count_images,
    drop_images,
    observation_content,
)
from envsuite.errors import EnvsuiteError
from envsuite.seeding import derive_seed, make_generator

SYSTEM_PROMPT = (
    "You are an agent acting in an environment. Each message describes what you observe. "
    "Reply with your action only, in the format the environment asks for."
)
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
#: Default cap on one response body, in bytes (after decoding).
MAX_RESPONSE_BYTES = 4 << 20
#: Default longest wait between retries, in seconds (``Retry-After`` or backoff).
MAX_RETRY_AFTER_S = 60.0
#: Characters of an error response quoted in a :class:`ChatAgentError`.
ERROR_QUOTE_CHARS = 300
#: Largest error response read (to quote its start).
ERROR_BODY_BYTES = 64 << 10
#: Default number of most recent images kept in the conversation sent.
MAX_HISTORY_IMAGES = 3


class ChatAgentError(EnvsuiteError, RuntimeError):
    """The endpoint failed for good (after retries, or with a non-retryable status)."""


def _fresh_usage() -> dict[str, float]:
    return {
        "requests": 0,
        "retries": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "total_tokens": 0,
        "latency_s": 0.0,
        "retry_wait_s": 0.0,
        "images_sent": 0,
        "images_too_big": 0,
    }


def user_message(
    observation: Any, info: Mapping[str, Any], limits: ImageLimits | None = None
) -> Content:
    """The user message's content for one step, per the module's template.

    A string when no image is sent, else a list of ``text`` and ``image_url`` parts.
    """
    return observation_content(observation, info, limits).content


class ChatConversation(ReportsEpisodeInfo):
    """What :class:`ChatAgent` and its async twin share: arguments, prompt and parsing.

    The conversation (system prompt, user and assistant messages, image window), the request
    body, reading a completion and its token usage, the retry delay; no HTTP. Arguments as
    :class:`ChatAgent`'s. ``turn_usage`` holds one dict per answered turn: the requests,
    retries, tokens and latency that turn cost (the episode's totals are in
    :meth:`episode_info`).
    """

    def __init__(
        self,
        model: str,
        base_url: str = "http://localhost:8000/v1",
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        system_prompt: str = SYSTEM_PROMPT,
        history_turns: int | None = None,
        max_retry_after_s: float = MAX_RETRY_AFTER_S,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        max_image_bytes: int = MAX_IMAGE_BYTES,
        max_image_side: int = MAX_IMAGE_SIDE,
        max_history_images: int | None = MAX_HISTORY_IMAGES,
    ) -> None:
        if not model:
            raise ValueError("model must be a non-empty string")
        _check_positive("timeout_s", timeout_s)
        _check_positive("max_retry_after_s", max_retry_after_s)
        _check_positive("backoff_s", backoff_s, allow_zero=True)
        for name, value in (
            ("max_retries", max_retries),
            ("max_response_bytes", max_response_bytes),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if max_history_images is not None and (
            isinstance(max_history_images, bool)
            or not isinstance(max_history_images, int)
            or max_history_images < 0
        ):
            raise ValueError(
                f"max_history_images must be an int >= 0 or None, got {max_history_images!r}"
            )
        self.image_limits = ImageLimits(max_bytes=max_image_bytes, max_side=max_image_side)
        self.max_history_images = max_history_images
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.headers = {"Accept-Encoding": ACCEPT_ENCODING}
        if key:
            self.headers["Authorization"] = f"Bearer {key}"
        self.timeout_s = float(timeout_s)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_retry_after_s = float(max_retry_after_s)
        self.max_response_bytes = max_response_bytes
        self.system_prompt = system_prompt
        self.history_turns = history_turns
        self.seed = 0
        self.rng = make_generator(0, "chat-backoff")
        self.messages: list[dict[str, Any]] = []
        self.usage = _fresh_usage()
        self.turn_usage: list[dict[str, float]] = []
        self._usage_before = _fresh_usage()

    def reset(self, seed: int | None = None) -> None:
        """Start a new conversation; ``seed`` is sent to the endpoint for reproducibility."""
        self.seed = derive_seed(0 if seed is None else seed, "chat-agent")
        self.rng = make_generator(self.seed, "chat-backoff")
        self.messages = []
        self.usage = _fresh_usage()
        self.turn_usage = []
        self._usage_before = _fresh_usage()

    def episode_info(self) -> dict[str, float]:
        """Token usage, request and retry counts, time waited and total latency of this episode."""
        return dict(self.usage)

    def _user_turn(self, observation: Any, info: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Add the observation's user message; return the messages to send."""
        built = observation_content(observation, info, self.image_limits)
        self.usage["images_sent"] += built.images_sent
        self.usage["images_too_big"] += built.images_too_big
        self.messages.append({"role": "user", "content": built.content})
        self._forget_old_images()
        return self._prompt()

    def _assistant_turn(self, reply: str) -> str:
        """Add the reply's assistant message and the turn's usage; return the reply."""
        self.messages.append({"role": "assistant", "content": reply})
        self.turn_usage.append(
            {key: value - self._usage_before[key] for key, value in self.usage.items()}
        )
        self._usage_before = dict(self.usage)
        return reply

    def _body(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "seed": self.seed,
        }
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    def _retry_delay(self, attempt: int, retry_after: str | None) -> float | None:
        """Seconds to wait before retry ``attempt + 1`` (None: no retry is left)."""
        if attempt >= self.max_retries:
            return None
        delay = self.backoff_s * 2 ** min(attempt, 60) * (1.0 + 0.25 * float(self.rng.random()))
        asked = retry_after_seconds(retry_after)
        if asked is not None and asked <= self.max_retry_after_s:
            delay = max(delay, asked)
        delay = min(delay, self.max_retry_after_s)
        self.usage["retry_wait_s"] += delay
        return delay

    def _forget_old_images(self) -> None:
        """Replace every image but the latest ``max_history_images`` by a short text.

        The window only moves forward, so a dropped image is never needed again and its
        data is freed at once.
        """
        if self.max_history_images is None:
            return
        keep = self.max_history_images
        for message in reversed(self.messages):
            images = count_images(message["content"])
            if not images:
                continue
            if keep >= images:
                keep -= images
                continue
            message["content"] = drop_images(message["content"], keep)
            keep = 0

    def _prompt(self) -> list[dict[str, Any]]:
        history = self.messages
        if self.history_turns is not None:
            history = history[-(2 * self.history_turns + 1) :]
        return [{"role": "system", "content": self.system_prompt}, *history]

    def _read(self, data: bytes) -> str:
        try:
            parsed = json.loads(data.decode("utf-8"))
            content = parsed["choices"][0]["message"]["content"]
        except RecursionError as exc:
            raise ChatAgentError(f"{self.url} sent JSON nested too deeply to read") from exc
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ChatAgentError(f"{self.url} sent a malformed completion: {exc!r:.300}") from exc
        usage = parsed.get("usage") if isinstance(parsed, dict) else None
        for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
            value = usage.get(key) if isinstance(usage, dict) else None
            if _is_count(value):
                self.usage[key] += value
        return content if isinstance(content, str) else ""


class ChatAgent(ChatConversation):
    """Acts by asking a chat-completions endpoint.

    Args:
        model: Model name sent to the endpoint.
        base_url: The API root, e.g. ``http://localhost:8000/v1``.
        api_key: Bearer token (default: the ``OPENAI_API_KEY`` environment variable, if set).
        temperature: Sampling temperature.
        max_tokens: Cap on the reply's tokens (None: the endpoint's default).
        timeout_s: Total deadline of one HTTP request, connecting and reading the whole
            body included.
        max_retries: Retries of a transient failure before giving up.
        backoff_s: First backoff; doubles on each retry, with jitter from a seeded generator.
        system_prompt: Replaces :data:`SYSTEM_PROMPT`.
        history_turns: Past (user, assistant) turns kept in the prompt (None: all).
        max_retry_after_s: Longest wait before a retry: a ``Retry-After`` asking for more is
            ignored, and the backoff never grows past it.
        max_response_bytes: Largest response body accepted, after decoding.
        max_image_bytes: Largest PNG (before base64) sent for one image; a bigger image
            is scaled down until it fits.
        max_image_side: Longest side, in pixels, of an image sent (bigger ones are scaled
            down, keeping their aspect ratio).
        max_history_images: Most images sent in one request: the latest ones are kept,
            earlier ones become ``[earlier image omitted]`` (None: keep every image).

    Raises:
        ValueError: an argument out of range (a non-positive timeout, negative retries, ...).
    """

    def __init__(
        self,
        model: str,
        base_url: str = "http://localhost:8000/v1",
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        system_prompt: str = SYSTEM_PROMPT,
        history_turns: int | None = None,
        max_retry_after_s: float = MAX_RETRY_AFTER_S,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        max_image_bytes: int = MAX_IMAGE_BYTES,
        max_image_side: int = MAX_IMAGE_SIDE,
        max_history_images: int | None = MAX_HISTORY_IMAGES,
    ) -> None:
        super().__init__(
            model,
            base_url,
            api_key,
            temperature,
            max_tokens,
            timeout_s,
            max_retries,
            backoff_s,
            system_prompt,
            history_turns,
            max_retry_after_s,
            max_response_bytes,
            max_image_bytes,
            max_image_side,
            max_history_images,
        )
        # One connection at most: the deadline shuts down the socket it remembers.
        self.client = httpx.Client(
            headers=self.headers, timeout=timeout_s, limits=httpx.Limits(max_connections=1)
        )
        self.deadline = Deadline()
        #: How the agent waits between retries (replaceable in tests).
        self.sleep = time.sleep

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        """Send the observation, return the model's reply."""
        return self._assistant_turn(self._complete(self._user_turn(observation, info)))

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.client.close()

    def _complete(self, messages: list[dict[str, Any]]) -> str:
        body = self._body(messages)
        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.usage["retries"] += 1
            started = time.perf_counter()
            try:
                status, retry_after, data = self._post(body)
            except _Transient as exc:
                problem = str(exc)
                self._wait(attempt, None)
                continue
            finally:
                self.usage["latency_s"] += time.perf_counter() - started
                self.usage["requests"] += 1
            if status in RETRY_STATUSES:
                problem = f"HTTP {status}"
                self._wait(attempt, retry_after)
                continue
            if status != 200:
                quoted = data[:ERROR_QUOTE_CHARS].decode("utf-8", errors="replace")
                raise ChatAgentError(f"{self.url} answered HTTP {status}: {quoted}")
            return self._read(data)
        raise ChatAgentError(
            f"{self.url} failed {self.max_retries + 1} times; last problem: {problem}"
        )

    def _post(self, body: dict[str, Any]) -> tuple[int, str | None, bytes]:
        """One request within the deadline: status, Retry-After and (capped) body.

        Raises:
            _Transient: a transport failure or the deadline (worth retrying).
            ChatAgentError: a body over the cap or in an unreadable encoding.
        """
        extensions = {"trace": self.deadline.trace}
        try:
            with (
                self.deadline.running(self.timeout_s),
                self.client.stream("POST", self.url, json=body, extensions=extensions) as response,
            ):
                status = response.status_code
                if status in RETRY_STATUSES:
                    return status, response.headers.get("retry-after"), b""
                limit = self.max_response_bytes if status == 200 else ERROR_BODY_BYTES
                data = self._read_body(response, limit, quote_only=status != 200)
        except httpx.TransportError as exc:  # connection refused/reset, timeouts, cut off
            if self.deadline.expired:
                raise _Transient(
                    f"no complete answer within timeout_s={self.timeout_s:g} s"
                ) from exc
            raise _Transient(f"{type(exc).__name__}: {exc}") from exc
        if self.deadline.expired:
            raise _Transient(f"no complete answer within timeout_s={self.timeout_s:g} s")
        return status, None, data

    def _read_body(self, response: httpx.Response, limit: int, *, quote_only: bool) -> bytes:
        try:
            return read_capped_body(response, limit)
        except BodyError as exc:
            if quote_only:  # an error page too long to quote whole: its start is enough
                return b"(an unreadable or oversized error body)"
            raise ChatAgentError(f"{self.url} sent an unusable response: {exc}") from exc

    def _wait(self, attempt: int, retry_after: str | None) -> None:
        delay = self._retry_delay(attempt, retry_after)
        if delay is not None:
            self.sleep(delay)


class _Transient(Exception):
    """A failure worth retrying: the connection broke or the deadline passed."""


def _is_count(value: Any) -> TypeGuard[float]:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0 <= value < 2**53
    )


def _check_positive(name: str, value: Any, *, allow_zero: bool = False) -> None:
    ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and (value >= 0 if allow_zero else value > 0)
    )
    if not ok:
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
