"""An agent backed by any OpenAI-compatible ``/v1/chat/completions`` endpoint.

Prompt template (one conversation per episode):

- system: :data:`SYSTEM_PROMPT` (or the ``system_prompt`` given);
- user, each step: the text observation as it is; a non-text observation as
  ``Observation: <JSON>``; when the env lists legal actions, a last line
  ``Valid actions: a, b, c``;
- assistant: the model's reply, which is sent to the env unchanged. Parsing it is the env's
  job: a reply the env cannot parse costs the env's documented penalty, never a crash.

Transient failures (connection errors, timeouts, HTTP 429 and 5xx) are retried with
exponential backoff (honouring ``Retry-After``); anything else, or running out of retries,
raises :class:`ChatAgentError`, which the runner records as an infra error.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping
from typing import Any

import httpx

from envsuite.errors import EnvsuiteError
from envsuite.jsonable import canonical_json
from envsuite.seeding import derive_seed, make_generator

SYSTEM_PROMPT = (
    "You are an agent acting in an environment. Each message describes what you observe. "
    "Reply with your action only, in the format the environment asks for."
)
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})


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
    }


def user_message(observation: Any, info: Mapping[str, Any]) -> str:
    """The user message for one step, per the module's template."""
    if isinstance(observation, str):
        text = observation
    else:
        text = f"Observation: {canonical_json(observation)}"
    legal = info.get("legal_actions") if isinstance(info, Mapping) else None
    if legal:
        text += "\nValid actions: " + ", ".join(str(action) for action in legal)
    return text


class ChatAgent:
    """Acts by asking a chat-completions endpoint.

    Args:
        model: Model name sent to the endpoint.
        base_url: The API root, e.g. ``http://localhost:8000/v1``.
        api_key: Bearer token (default: the ``OPENAI_API_KEY`` environment variable, if set).
        temperature: Sampling temperature.
        max_tokens: Cap on the reply's tokens (None: the endpoint's default).
        timeout_s: Timeout of one HTTP request.
        max_retries: Retries of a transient failure before giving up.
        backoff_s: First backoff; doubles on each retry, with jitter from a seeded generator.
        system_prompt: Replaces :data:`SYSTEM_PROMPT`.
        history_turns: Past (user, assistant) turns kept in the prompt (None: all).
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
    ) -> None:
        if not model:
            raise ValueError("model must be a non-empty string")
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.client = httpx.Client(headers=headers, timeout=timeout_s)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.system_prompt = system_prompt
        self.history_turns = history_turns
        self.seed = 0
        self.rng = make_generator(0, "chat-backoff")
        self.messages: list[dict[str, str]] = []
        self.usage = _fresh_usage()

    def reset(self, seed: int | None = None) -> None:
        """Start a new conversation; ``seed`` is sent to the endpoint for reproducibility."""
        self.seed = derive_seed(0 if seed is None else seed, "chat-agent")
        self.rng = make_generator(self.seed, "chat-backoff")
        self.messages = []
        self.usage = _fresh_usage()

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        """Send the observation, return the model's reply."""
        self.messages.append({"role": "user", "content": user_message(observation, info)})
        reply = self._complete(self._prompt())
        self.messages.append({"role": "assistant", "content": reply})
        return reply

    def episode_info(self) -> dict[str, float]:
        """Token usage, request and retry counts, and total latency of this episode."""
        return dict(self.usage)

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self.client.close()

    def _prompt(self) -> list[dict[str, str]]:
        history = self.messages
        if self.history_turns is not None:
            history = history[-(2 * self.history_turns + 1) :]
        return [{"role": "system", "content": self.system_prompt}, *history]

    def _complete(self, messages: list[dict[str, str]]) -> str:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "seed": self.seed,
        }
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                self.usage["retries"] += 1
            started = time.perf_counter()
            try:
                response = self.client.post(self.url, json=body)
            except httpx.TransportError as exc:  # connection refused/reset, timeouts
                problem = f"{type(exc).__name__}: {exc}"
                self._sleep(attempt, None)
                continue
            finally:
                self.usage["latency_s"] += time.perf_counter() - started
                self.usage["requests"] += 1
            if response.status_code in RETRY_STATUSES:
                problem = f"HTTP {response.status_code}"
                self._sleep(attempt, response.headers.get("retry-after"))
                continue
            if response.status_code != 200:
                raise ChatAgentError(
                    f"{self.url} answered HTTP {response.status_code}: {response.text[:300]}"
                )
            return self._read(response)
        raise ChatAgentError(
            f"{self.url} failed {self.max_retries + 1} times; last problem: {problem}"
        )

    def _read(self, response: httpx.Response) -> str:
        try:
            data = response.json()
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise ChatAgentError(f"{self.url} sent a malformed completion: {exc!r}") from exc
        usage = data.get("usage") or {}
        for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
            if isinstance(usage.get(key), int | float):
                self.usage[key] += usage[key]
        return content if isinstance(content, str) else ""

    def _sleep(self, attempt: int, retry_after: str | None) -> None:
        if attempt >= self.max_retries:
            return
        delay = self.backoff_s * 2**attempt * (1.0 + 0.25 * float(self.rng.random()))
        if retry_after is not None:
            with contextlib.suppress(ValueError):  # an HTTP date: keep our own delay
                delay = max(delay, float(retry_after))
        time.sleep(delay)
