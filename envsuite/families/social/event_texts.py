"""The events part of a text observation: each seat's readable messages, kept as they grow.

A social game's text observation is a head (the rules, who the player is, what it
knows), the line ``Events:``, the texts of every message the player may read, oldest
first, and a tail (a refused action, what to do now). Past the length limit the oldest
events are dropped (:func:`compose`). A seat's events only grow, so :class:`EventTexts`
keeps each seat's texts and their join, and an observation costs the messages posted
since the seat's last one, not the whole history.
"""

from __future__ import annotations

from collections.abc import Sequence

from envsuite.families.social.channels import MessageLog


class EventTexts:
    """Each seat's event texts in one game (a new game's log starts them over)."""

    def __init__(self) -> None:
        self._log: MessageLog | None = None
        self._seen: list[int] = []
        self._texts: list[list[str]] = []
        self._joined: list[str] = []
        self._used: list[int] = []

    def of(self, log: MessageLog, seat: int) -> tuple[list[str], str, int]:
        """``seat``'s event texts in ``log``, them joined by newlines, and their length.

        The length counts one newline per text. The lists are kept: do not change them.
        """
        if log is not self._log:
            seats = log.seats
            self._log = log
            self._seen, self._used = [0] * seats, [0] * seats
            self._texts = [[] for _ in range(seats)]
            self._joined = [""] * seats
        messages, start = log.messages, self._seen[seat]
        if start < len(messages):
            self._seen[seat] = len(messages)
            new = [m.text for m in messages[start:] if m.audience is None or seat in m.audience]
            if new:
                added = "\n".join(new)
                texts = self._texts[seat]
                self._joined[seat] = f"{self._joined[seat]}\n{added}" if texts else added
                texts.extend(new)
                self._used[seat] += len(added) + 1
        return self._texts[seat], self._joined[seat], self._used[seat]


def compose(
    head: Sequence[str],
    tail: Sequence[str],
    events: Sequence[str],
    limit: int,
    joined: str | None = None,
    used: int | None = None,
) -> str:
    """The observation: ``head``, ``Events:``, ``events``, ``tail``, one per line.

    The oldest events are dropped (and counted in a line of their own) so that the text
    keeps 60 characters below ``limit``. ``joined`` and ``used``: the events joined by
    newlines and their length counting one newline each, when the caller has them.
    """
    budget = limit - sum(len(line) + 1 for line in head) - sum(len(line) + 1 for line in tail)
    budget -= 60
    if used is None:
        used = sum(len(line) + 1 for line in events)
    if used <= budget:
        if not events:
            return "\n".join([*head, "Events:", *tail])
        return "\n".join([*head, "Events:", "\n".join(events) if joined is None else joined, *tail])
    dropped = 0
    while dropped < len(events) and used > budget:
        used -= len(events[dropped]) + 1
        dropped += 1
    shown = list(events[dropped:])
    if dropped:
        shown.insert(0, f"({dropped} earlier events not shown)")
    return "\n".join([*head, "Events:", *shown, *tail])
