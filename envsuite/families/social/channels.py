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
    """Every message of one game, in order, and each seat's view of them.

    A seat's view is brought up to date when asked for (:meth:`view`), not at each post:
    the engines post far more often than anyone reads a view.
    """

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.messages: list[Message] = []
        self._views: list[list[Message]] = [[] for _ in range(seats)]
        # How many of ``messages`` each seat's view has been brought up to.
        self._synced = [0] * seats

    def post(self, message: Message) -> None:
        """Add ``message``; it joins the view of every seat that may read it.

        (Appending to :attr:`messages` is the same: views catch up when read.)
        """
        self.messages.append(message)

    def view(self, seat: int) -> list[Message]:
        """The messages ``seat`` may read, oldest first (the list itself: do not change it).

        The same list comes back on every call, grown by the messages posted since.
        """
        view, start, messages = self._views[seat], self._synced[seat], self.messages
        if start < len(messages):
            view += readable(messages, start, seat)
            self._synced[seat] = len(messages)
        return view

    def __iter__(self) -> Iterator[Message]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)


def readable(messages: list[Message], start: int, seat: int) -> list[Message]:
    """The messages of ``messages[start:]`` that ``seat`` may read, in order."""
    return [m for m in messages[start:] if m.audience is None or seat in m.audience]
