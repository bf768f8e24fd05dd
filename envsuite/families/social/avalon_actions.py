"""Avalon's action grammar: text commands and vector indices to rule actions, and back.

Text commands (case is ignored; a player is named by its name or ``player_K``; one pair
of square brackets around the command and a final full stop are accepted):

- ``propose Alice, Bob`` (the leader; names separated by commas, spaces or ``and``);
- ``approve`` or ``reject`` (also ``vote approve`` / ``vote reject``);
- ``success`` or ``fail`` (a quest card; ``play success`` too);
- ``assassinate Alice`` (the assassin, after three successful quests);
- ``say: MESSAGE`` (any text, cut to the speaking budget) or ``pass`` (the discussion).

Vector actions are ``Discrete(5 + n + 2 ** n)`` indices relative to the acting seat (``j``
names seat ``(me + j) mod n``): 0 passes, 1 approves, 2 rejects, 3 plays success, 4
plays fail, ``5 + j`` assassinates seat ``j``, and ``5 + n + mask`` proposes the team
whose relative seats are the bits of ``mask`` (bit 0: oneself).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from envsuite.env_base import InvalidAction
from envsuite.families.social.avalon_setup import PASS, AvalonAction
from envsuite.families.social.command_text import (
    MAX_COMMAND_CHARS,
    SAY,
    no_command,
    seat_of,
    speech,
)

#: The grammar, as the error for an unknown command lists it.
GRAMMAR = (
    "'propose NAME, NAME', 'approve', 'reject', 'success', 'fail', 'assassinate NAME', "
    "'say: MESSAGE' or 'pass'"
)
#: The fixed vector indices.
SIMPLE = ("pass", "approve", "reject", "success", "fail")

_PROPOSE = re.compile(r"propose\s*:?\s*(.+)", re.IGNORECASE | re.DOTALL)
_ASSASSINATE = re.compile(r"(?:assassinate|kill)\s+(\w+)", re.IGNORECASE)
_SIMPLE = re.compile(r"(?:vote\s+|play\s+)?(pass|approve|reject|success|fail)", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s*(?:,|\band\b|\s)\s*", re.IGNORECASE)


def action_size(n: int) -> int:
    """The size of the vector action space of an ``n``-player game."""
    return 5 + n + 2**n


def action_text(action: AvalonAction, names: Sequence[str]) -> str:
    """The text command of ``action``."""
    if action.kind == "say":
        return f"say: {action.value}"
    if action.kind == "propose":
        return "propose " + ", ".join(names[seat] for seat in action.team)
    if action.kind == "assassinate":
        assert action.target is not None
        return f"assassinate {names[action.target]}"
    return action.kind


def parse_text(text: Any, names: Sequence[str]) -> AvalonAction:
    """A text command as an :class:`AvalonAction` (not yet checked against the rules).

    Raises:
        InvalidAction: not text, too long, no command of the grammar, or an unknown name.
    """
    if not isinstance(text, str):
        raise InvalidAction(f"expected a text command such as 'approve', got {type(text).__name__}")
    if len(text) > MAX_COMMAND_CHARS:
        raise InvalidAction(f"the command is longer than {MAX_COMMAND_CHARS} characters")
    said = SAY.fullmatch(text)
    if said is not None:
        return AvalonAction("say", value=speech(said, text))
    command = text.strip()
    if command.startswith("[") and command.endswith("]"):
        command = command[1:-1].strip()
    command = command.removesuffix(".").strip()
    if not command:
        raise InvalidAction(f"the command is empty; answer with one of {GRAMMAR}")
    simple = _SIMPLE.fullmatch(command)
    if simple is not None:
        return AvalonAction(simple.group(1).lower())
    proposed = _PROPOSE.fullmatch(command)
    if proposed is not None:
        words = [word for word in _SEPARATOR.split(proposed.group(1).strip()) if word]
        team = [seat_of(word, names) for word in words]
        if len(set(team)) != len(team):
            raise InvalidAction("the team names a player twice")
        return AvalonAction("propose", tuple(sorted(team)))
    assassinated = _ASSASSINATE.fullmatch(command)
    if assassinated is not None:
        return AvalonAction("assassinate", target=seat_of(assassinated.group(1), names))
    raise no_command(command, GRAMMAR)


def action_index(action: AvalonAction, me: int, n: int) -> int:
    """The vector index of ``action`` for seat ``me`` of ``n`` (``say`` has none: it passes)."""
    if action.kind == "propose":
        return 5 + n + sum(1 << ((seat - me) % n) for seat in action.team)
    if action.kind == "assassinate":
        assert action.target is not None
        return 5 + (action.target - me) % n
    return SIMPLE.index(action.kind) if action.kind in SIMPLE else 0


def parse_index(index: int, me: int, n: int) -> AvalonAction:
    """The :class:`AvalonAction` of vector index ``index`` (already known to lie in range)."""
    if index < len(SIMPLE):
        return PASS if index == 0 else AvalonAction(SIMPLE[index])
    if index < 5 + n:
        return AvalonAction("assassinate", target=(me + index - 5) % n)
    mask = index - 5 - n
    return AvalonAction("propose", tuple(sorted((me + j) % n for j in range(n) if mask >> j & 1)))
