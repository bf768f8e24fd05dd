"""The optional free-form answerer of the question games: an OpenAI-compatible chat model.

With ``answerer="openai:MODEL"`` a question outside the grammar is sent to the chat
endpoint at ``answerer_base_url`` (``POST {base_url}/chat/completions``) with the secret
item's table row; the model's reply is read as ``yes``, ``no`` or, for anything else,
"I cannot answer that". Grammar questions are still answered by the table, so the
model only widens what may be asked. The key is ``$OPENAI_API_KEY`` when set. Nothing is
imported or opened before the first free-form question (no network at import), and a
failing endpoint answers "I cannot answer that" (the reason is in ``last_error``).
"""

from __future__ import annotations

import os
from typing import Any

PROMPT = (
    "You are the answerer in a game of twenty questions about {noun}s. The secret {noun} "
    "is described by this table row: {card}. Answer the player's yes/no question about it "
    "with exactly one word: yes, no, or unknown (when the question cannot be answered "
    "with yes or no, or the row and common knowledge do not settle it)."
)
#: Longest reply body read, in bytes.
MAX_REPLY_BYTES = 1_000_000


class ChatAnswerer:
    """Answers free-form questions with a chat model (see the module docstring)."""

    def __init__(self, model: str, base_url: str, timeout: float) -> None:
        if not model:
            raise ValueError("answerer='openai:MODEL' needs a model name")
        self.model = model
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.timeout = float(timeout)
        self.last_error = ""

    def answer(self, noun: str, card: str, question: str) -> str | None:
        """``"yes"``, ``"no"`` or None (cannot answer) for ``question``."""
        import httpx  # only when a free-form question is asked

        body: dict[str, Any] = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": PROMPT.format(noun=noun, card=card)},
                {"role": "user", "content": question},
            ],
        }
        headers = {"Content-Type": "application/json"}
        key = os.environ.get("OPENAI_API_KEY")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        try:
            response = httpx.post(self.url, json=body, headers=headers, timeout=self.timeout)
            if response.status_code != 200 or len(response.content) > MAX_REPLY_BYTES:
                self.last_error = f"HTTP {response.status_code}"
                return None
            text = response.json()["choices"][0]["message"]["content"]
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
            self.last_error = f"{type(exc).__name__}: {exc}"
            return None
        self.last_error = ""
        word = str(text).strip().lower().lstrip("*\"' ").split(maxsplit=1)
        first = word[0].strip(".,!*\"'") if word else ""
        return first if first in ("yes", "no") else None


def parse_answerer(answerer: object) -> str | None:
    """The model name of ``"openai:MODEL"``, None for ``"grammar"``; else a ValueError."""
    if answerer == "grammar":
        return None
    if isinstance(answerer, str) and answerer.startswith("openai:") and len(answerer) > 7:
        return answerer[7:]
    raise ValueError(f"answerer must be 'grammar' or 'openai:MODEL'; got {answerer!r}")
