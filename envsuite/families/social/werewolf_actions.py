"""Werewolf's action grammar: text commands and vector indices to rule actions, and back.

Text commands (case is ignored; a player is named by its name or ``player_K``; one pair
of square brackets around the command, ``[vote Alice]``, and a final full stop are
accepted):

- ``kill NAME`` (werewolves, at night), ``check NAME`` (the seer), ``save NAME`` (the
  doctor);
- ``vote NAME`` or ``abstain`` (the day's vote);
- ``say: MESSAGE`` (any text; cut to the speaking budget), ``accuse NAME``,
  ``claim NAME werewolf`` / ``claim NAME village`` (a seer's kind of claim; ``claim NAME
  is a werewolf`` / ``claim NAME is not a werewolf`` too) or ``pass`` (the discussion);
- ``bid N`` (``bid: N`` too), N from 0 to 4 (the bids of ``speaking_order="bidding"``);
- ``pass`` / ``abstain`` / ``skip`` mean the same everywhere (at night: do nothing,
  which is refused as illegal, so it costs the penalty);
- SecretMafia's form: a player in square brackets and nothing else, ``[Alice]``, ``[3]``
  or ``[Player 3]`` (seat numbers from 0), is the phase's action on that player (kill,
  check, save, accuse or vote);
- Mafia writes ``mafia`` for ``werewolf`` in claims (both are read in either game).

Vector actions are ``Discrete(1 + 3 * n)`` indices relative to the acting seat (``j``
names seat ``(me + j) mod n``, so index 1 + 0 is oneself): 0 passes; ``1 + j`` is the
phase's action on seat ``j`` (kill, check, save, vote, or accuse in the discussion);
``1 + n + j`` claims seat ``j`` is a werewolf; ``1 + 2n + j`` claims it is village. In a
bid (``speaking_order="bidding"``) index ``k`` is ``bid k`` (only 0 to 4 are legal).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from envsuite.env_base import InvalidAction
from envsuite.families.social.werewolf_setup import (
    CLAIM_VALUES,
    PASS,
    VILLAGE,
    WEREWOLF,
    Action,
    Phase,
)

#: The kind of a bracketed player (``[Alice]``): the phase's own action on that player.
TARGET = "target"
#: The actions that name one player, by the phase's verb.
TARGETED = ("kill", "check", "save", "vote", "accuse")
#: The grammar, as the error for an unknown command lists it.
GRAMMAR = (
    "'kill NAME', 'check NAME', 'save NAME', 'vote NAME', 'abstain', 'say: MESSAGE', "
    "'accuse NAME', 'claim NAME werewolf', 'claim NAME village' or 'pass'"
)
#: The verb of the targeted vector action in each phase.
PHASE_VERB = {
    Phase.NIGHT_WOLVES: "kill",
    Phase.NIGHT_SEER: "check",
    Phase.NIGHT_DOCTOR: "save",
    Phase.DISCUSSION: "accuse",
    Phase.VOTE: "vote",
}
_SAY = re.compile(r"\s*\[?\s*say\s*:(.*)", re.IGNORECASE | re.DOTALL)
_TARGETED = re.compile(r"(kill|check|save|vote|accuse)\s+(?:for\s+)?(\w+)", re.IGNORECASE)
_CLAIM = re.compile(
    r"claim\s+(\w+)\s+(?:is\s+)?(not\s+)?(?:an?\s+)?(werewolf|wolf|mafia|village|villager)",
    re.IGNORECASE,
)
_BRACKETED = re.compile(r"\s*\[\s*(?:player\s*(\d+)|(\w+))\s*\]\s*\.?\s*", re.IGNORECASE)
_BID = re.compile(r"bid\s*:?\s*(\d{1,6})", re.IGNORECASE)
_PASS = re.compile(r"pass|abstain|skip|vote\s+none", re.IGNORECASE)
#: How the error for text that holds no command starts.
NO_COMMAND = "no command in"
#: Longest text command read (a ``say`` longer than this is refused, not truncated).
MAX_COMMAND_CHARS = 10_000


def action_text(action: Action, names: Sequence[str], killer_word: str = WEREWOLF) -> str:
    """The text command of ``action`` (``say`` with its message; claims with ``killer_word``)."""
    if action.kind == "pass":
        return "pass"
    if action.kind == "say":
        return f"say: {action.value}"
    if action.kind == "bid":
        return f"bid {action.value}"
    assert action.target is not None
    if action.kind == "claim":
        value = killer_word if action.value == WEREWOLF else action.value
        return f"claim {names[action.target]} {value}"
    return f"{action.kind} {names[action.target]}"


def parse_text(text: Any, names: Sequence[str]) -> Action:
    """A text command as an :class:`Action` (not yet checked against the rules).

    Raises:
        InvalidAction: not text, too long, no command of the grammar, or an unknown name.
    """
    if not isinstance(text, str):
        raise InvalidAction(
            f"expected a text command such as 'vote Alice', got {type(text).__name__}"
        )
    if len(text) > MAX_COMMAND_CHARS:
        raise InvalidAction(f"the command is longer than {MAX_COMMAND_CHARS} characters")
    bracketed = _BRACKETED.fullmatch(text)
    if bracketed is not None:
        named = bracketed.group(1) or bracketed.group(2)
        if named.isdigit():
            if int(named) >= len(names):
                raise InvalidAction(f"there is no player {named}; seats are 0 to {len(names) - 1}")
            return Action(TARGET, int(named))
        return Action(TARGET, seat_of(named, names))
    said = _SAY.fullmatch(text)
    if said is not None:
        message = said.group(1).strip()
        if message.endswith("]") and text.lstrip().startswith("["):
            message = message[:-1].rstrip()
        return Action("say", None, " ".join(message.split()))
    command = text.strip()
    if command.startswith("[") and command.endswith("]"):
        command = command[1:-1].strip()
    command = command.removesuffix(".").strip()
    if not command:
        raise InvalidAction(f"the command is empty; answer with one of {GRAMMAR}")
    if _PASS.fullmatch(command):
        return PASS
    bid = _BID.fullmatch(command)
    if bid is not None:
        return Action("bid", None, str(int(bid.group(1))))
    claim = _CLAIM.fullmatch(command)
    if claim is not None:
        target = seat_of(claim.group(1), names)
        wolf = claim.group(3).lower() in ("werewolf", "wolf", "mafia")
        if claim.group(2):
            wolf = not wolf
        return Action("claim", target, WEREWOLF if wolf else VILLAGE)
    targeted = _TARGETED.fullmatch(command)
    if targeted is not None:
        return Action(targeted.group(1).lower(), seat_of(targeted.group(2), names))
    shown = command if len(command) <= 40 else command[:40] + "..."
    raise InvalidAction(f"{NO_COMMAND} {shown!r}; answer with one of {GRAMMAR}")


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


def action_index(action: Action, me: int, n: int) -> int:
    """The vector index of ``action`` for seat ``me`` of ``n`` (``say`` has none: it passes)."""
    if action.kind == "bid":
        return int(action.value)
    if action.kind in ("pass", "say") or action.target is None:
        return 0
    offset = (action.target - me) % n
    if action.kind == "claim":
        return 1 + (1 if action.value == WEREWOLF else 2) * n + offset
    return 1 + offset


def parse_index(index: int, me: int, n: int, phase: Phase) -> Action:
    """The :class:`Action` of vector index ``index`` (already known to lie in range)."""
    if phase is Phase.BID:
        return Action("bid", None, str(index))
    if index == 0:
        return PASS
    block, offset = divmod(index - 1, n)
    target = (me + offset) % n
    if block == 0:
        return Action(PHASE_VERB.get(phase, "accuse"), target)
    return Action("claim", target, CLAIM_VALUES[block - 1])
