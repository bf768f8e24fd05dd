"""The game log: a game's setup, its deal and every entry, enough to replay it exactly.

An entry is ``("chance", outcome)`` for a chance event (the first speaker of a day, a
tie broken at random) or ``("act", seat, kind, target, value)`` for a seat's action
(a turn forfeited by a refused action is ``("act", seat, "pass", None, "")``). The deal
(each seat's role) is chance too, but drawn once, so it is kept apart. Replaying the
entries on a fresh game from the same setup and deal gives the same game, message for
message; the env writes the log and ``WerewolfGame.replay`` reads it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

#: One entry, JSON-friendly (tuples of str, int and None).
LogEntry = tuple[Any, ...]


@dataclass
class GameLog:
    """A whole game as data.

    Attributes:
        setup: The game's parameters (a JSON-friendly mapping).
        roles: The role of each seat (the deal).
        entries: Chance outcomes and actions, in the order they happened.

    """

    setup: dict[str, Any]
    roles: tuple[str, ...]
    entries: list[LogEntry] = field(default_factory=list)

    def to_json(self) -> str:
        """The log as canonical JSON (round-trips through :meth:`from_json`)."""
        payload = {"setup": self.setup, "roles": list(self.roles), "entries": self.entries}
        return json.dumps(payload, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameLog:
        """Read a log written by :meth:`to_json`.

        Raises:
            ValueError: the text is not such a log.
        """
        try:
            data = json.loads(text)
            setup, roles, entries = data["setup"], data["roles"], data["entries"]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"not a game log: {exc}") from exc
        if not isinstance(setup, dict) or not isinstance(roles, list):
            raise ValueError("not a game log: setup must be an object and roles a list")
        if not isinstance(entries, list) or not all(isinstance(e, list) for e in entries):
            raise ValueError("not a game log: entries must be a list of lists")
        return cls(setup, tuple(roles), [tuple(entry) for entry in entries])
