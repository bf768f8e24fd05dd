"""Messages with a sender, a kind and an audience: what each player may read.

Every event of a game (a speech, a vote, a night action, a death) is one
:class:`Message`. A public message (``audience`` None) reaches every player; a private
one reaches the players in ``audience`` only (a seer's result reaches the seer; a
werewolf's choice reaches the werewolves). A player's view is the messages it may read,
in order: the text and vector observations are both built from it, so neither can show
what the other hides.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple


class Message(NamedTuple):
    """One event of a game as the players who may read it see it.

    A named tuple (immutable, and built about four times faster than a frozen dataclass:
    an engine posts one or two per step).

    Attributes:
        day: The day it belongs to (night ``d`` precedes day ``d``; the first night is 1).
        kind: What happened (``"speech"``, ``"vote"``, ``"death"``, ``"check"``, ...).
        sender: The seat that caused it, or None for the game itself (the moderator).
        audience: The seats that may read it, or None for everyone.
        text: The sentence shown to a language agent.
        subject: The seat the event is about (a vote's target, the dead), or None.
        value: A short structured value (a claimed or revealed team, a role), or "".

    """

    day: int
    kind: str
    sender: int | None
    audience: frozenset[int] | None
    text: str
    subject: int | None = None
    value: str = ""

    def readable_by(self, seat: int) -> bool:
        """Whether ``seat`` may read this message."""
        return self.audience is None or seat in self.audience


class MessageLog:
    """Every message of one game, in order, and each seat's view of them."""

    def __init__(self, seats: int) -> None:
        self.messages: list[Message] = []
        self._views: list[list[Message]] = [[] for _ in range(seats)]

    def post(self, message: Message) -> None:
        """Add ``message``; it joins the view of every seat that may read it."""
        self.messages.append(message)
        if message.audience is None:
            for view in self._views:
                view.append(message)
        else:  # (each seat's view is its own list: the order of seats does not matter)
            for seat in message.audience:
                self._views[seat].append(message)

    def view(self, seat: int) -> list[Message]:
        """The messages ``seat`` may read, oldest first (the list itself: do not change it)."""
        return self._views[seat]

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)
