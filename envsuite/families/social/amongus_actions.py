"""The Among Us action grammar: text commands and vector indices to rule actions, and back.

Text commands (case is ignored; a player is named by its name or ``player_K``, a room by
its name; one pair of square brackets around the command and a final full stop are
accepted):

- play: ``go ROOM`` (also ``go to ROOM``, ``move ROOM``), ``do task`` (or ``task``),
  ``kill NAME``, ``report``, ``call meeting`` (or ``button``, ``emergency meeting``) and
  ``wait``;
- a meeting's discussion: ``say: MESSAGE`` (any text; cut to the speaking budget),
  ``accuse NAME`` or ``wait`` (say nothing);
- a meeting's vote: ``vote NAME`` (or ``vote for NAME``) or ``skip``;
- ``wait``, ``skip`` and ``pass`` mean the same everywhere (do nothing, or vote to skip).

Vector actions are ``Discrete(4 + R + n)`` indices (``R`` rooms, ``n`` seats): 0 waits
(skips a vote); 1 does a task; 2 reports; 3 calls a meeting; ``4 + r`` goes to room
``r``; ``4 + R + j`` is the phase's action on seat ``(me + j) mod n`` (kill in play,
accuse in the discussion, vote in the vote), so index ``4 + R`` names oneself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from envsuite.env_base import InvalidAction
from envsuite.families.social.amongus_setup import WAIT, Action, Phase
from envsuite.families.social.command_text import (
    MAX_COMMAND_CHARS,
    SAY,
    no_command,
    seat_of,
    speech,
)

#: The grammar, as the error for an unknown command lists it.
GRAMMAR = (
    "'go ROOM', 'do task', 'kill NAME', 'report', 'call meeting', 'wait', 'say: MESSAGE', "
    "'accuse NAME', 'vote NAME' or 'skip'"
)
#: Vector indices before the rooms: wait, do task, report, call meeting.
FIXED = ("wait", "task", "report", "button")
#: The verb of the seat-targeted vector action in each phase.
PHASE_VERB = {Phase.PLAY: "kill", Phase.DISCUSSION: "accuse", Phase.VOTE: "vote"}
_GO = re.compile(r"(?:go|move|walk)\s+(?:to\s+(?:the\s+)?)?(\w+)", re.IGNORECASE)
_TARGETED = re.compile(r"(kill|accuse|vote)\s+(?:for\s+)?(\w+)", re.IGNORECASE)
_WORDS = {
    "wait": WAIT,
    "skip": WAIT,
    "pass": WAIT,
    "vote skip": WAIT,
    "do task": Action("task"),
    "do the task": Action("task"),
    "task": Action("task"),
    "report": Action("report"),
    "report body": Action("report"),
    "call meeting": Action("button"),
    "call a meeting": Action("button"),
    "call emergency meeting": Action("button"),
    "emergency meeting": Action("button"),
    "button": Action("button"),
}


def action_text(action: Action, names: Sequence[str], rooms: Sequence[str]) -> str:
    """The text command of ``action`` (a vote's ``wait`` is written ``skip`` by the caller)."""
    if action.kind == "say":
        return f"say: {action.value}"
    if action.kind == "go":
        assert action.target is not None
        return f"go {rooms[action.target]}"
    if action.kind in ("kill", "accuse", "vote"):
        assert action.target is not None
        return f"{action.kind} {names[action.target]}"
    return {"wait": "wait", "task": "do task", "report": "report", "button": "call meeting"}[
        action.kind
    ]


def parse_text(text: Any, names: Sequence[str], rooms: Sequence[str]) -> Action:
    """A text command as an :class:`Action` (not yet checked against the rules).

    Raises:
        InvalidAction: not text, too long, no command of the grammar, an unknown name or
            room.
    """
    if not isinstance(text, str):
        raise InvalidAction(
            f"expected a text command such as 'go Cafeteria', got {type(text).__name__}"
        )
    if len(text) > MAX_COMMAND_CHARS:
        raise InvalidAction(f"the command is longer than {MAX_COMMAND_CHARS} characters")
    said = SAY.fullmatch(text)
    if said is not None:
        return Action("say", None, speech(said, text))
    command = text.strip()
    if command.startswith("[") and command.endswith("]"):
        command = command[1:-1].strip()
    command = " ".join(command.removesuffix(".").split())
    if not command:
        raise InvalidAction(f"the command is empty; answer with one of {GRAMMAR}")
    fixed = _WORDS.get(command.lower())
    if fixed is not None:
        return fixed
    went = _GO.fullmatch(command)
    if went is not None:
        return Action("go", room_of(went.group(1), rooms))
    targeted = _TARGETED.fullmatch(command)
    if targeted is not None:
        return Action(targeted.group(1).lower(), seat_of(targeted.group(2), names))
    raise no_command(command, GRAMMAR)


def room_of(name: str, rooms: Sequence[str]) -> int:
    """The index of the room called ``name`` (any case).

    Raises:
        InvalidAction: no room has that name.
    """
    lowered = name.lower()
    for index, room in enumerate(rooms):
        if room.lower() == lowered:
            return index
    raise InvalidAction(f"no room is called {name!r}; the rooms are {', '.join(rooms)}")


def action_count(rooms: int, n: int) -> int:
    """The size of the vector action space of a map of ``rooms`` rooms and ``n`` seats."""
    return len(FIXED) + rooms + n


def action_index(action: Action, me: int, rooms: int, n: int) -> int:
    """The vector index of ``action`` for seat ``me`` (``say`` has none: it waits)."""
    if action.kind == "go":
        assert action.target is not None
        return len(FIXED) + action.target
    if action.kind in ("kill", "accuse", "vote"):
        assert action.target is not None
        return len(FIXED) + rooms + (action.target - me) % n
    return FIXED.index(action.kind) if action.kind in FIXED else 0


def parse_index(index: int, me: int, rooms: int, n: int, phase: Phase) -> Action:
    """The :class:`Action` of vector index ``index`` (already known to lie in range)."""
    if index < len(FIXED):
        return WAIT if index == 0 else Action(FIXED[index])
    if index < len(FIXED) + rooms:
        return Action("go", index - len(FIXED))
    return Action(PHASE_VERB.get(phase, "vote"), (me + index - len(FIXED) - rooms) % n)
