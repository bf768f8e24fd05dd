"""What the social games' text-command grammars share: names, speeches, the refusal.

Werewolf, Avalon and Among Us read a text command the same way around their own verbs:
a player is named by its name (any case) or ``player_K`` (:func:`seat_of`); a speech is
``say: MESSAGE``, optionally in square brackets, its whitespace collapsed
(:func:`speech`); text that holds none of the game's commands is refused with the game's
grammar (:func:`no_command`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from envsuite.env_base import InvalidAction

#: How the error for text that holds no command starts.
NO_COMMAND = "no command in"
#: Longest text command read.
MAX_COMMAND_CHARS = 10_000
#: A speech: ``say: MESSAGE`` (an opening bracket allowed before ``say``).
SAY = re.compile(r"\s*\[?\s*say\s*:(.*)", re.IGNORECASE | re.DOTALL)


def seat_of(name: str, names: Sequence[str]) -> int:
    """The seat a player's name (any case) or ``player_K`` names.

    Raises:
        InvalidAction: no player has that name.
    """
    lowered = name.lower()
    for seat, known in enumerate(names):
        if known.lower() == lowered or lowered == f"player_{seat}":
            return seat
    raise InvalidAction(f"no player is called {name!r}; the players are {', '.join(names)}")


def speech(said: re.Match[str], text: str) -> str:
    """The message of ``text`` that :data:`SAY` matched (``said``), whitespace collapsed.

    A closing bracket is dropped when the command opened with one (``[say: hi]``).
    """
    message = said.group(1).strip()
    if message.endswith("]") and text.lstrip().startswith("["):
        message = message[:-1].rstrip()
    return " ".join(message.split())


def no_command(command: str, grammar: str) -> InvalidAction:
    """The refusal of ``command`` (its first 40 characters shown), listing ``grammar``."""
    shown = command if len(command) <= 40 else command[:40] + "..."
    return InvalidAction(f"{NO_COMMAND} {shown!r}; answer with one of {grammar}")
