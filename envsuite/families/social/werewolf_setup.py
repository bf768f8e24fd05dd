"""Werewolf's data: roles, phases, actions and a game's setup, which the rules engine plays on.

The role table, the phase list and what each phase allows are data here; the transitions
between phases are :class:`~envsuite.families.social.werewolf_rules.WerewolfGame`'s. No
Gymnasium, PettingZoo or random generator.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import asdict, dataclass
from typing import Any

from envsuite.families.social.game_words import GAME_WORDS
from envsuite.families.social.roles import Role
from envsuite.families.social.setup_checks import check_int, checked_names
from envsuite.families.social.voting import TieRule

WEREWOLF = "werewolf"
SEER = "seer"
DOCTOR = "doctor"
VILLAGER = "villager"
WEREWOLVES = "werewolves"
VILLAGE = "village"
TEAMS = (WEREWOLVES, VILLAGE)

ROLES: dict[str, Role] = {
    WEREWOLF: Role(
        WEREWOLF, WEREWOLVES, "kill", True, "Each night you and the other werewolves kill."
    ),
    SEER: Role(SEER, VILLAGE, "check", False, "Each night you learn if one player is a werewolf."),
    DOCTOR: Role(DOCTOR, VILLAGE, "save", False, "Each night you protect one player from death."),
    VILLAGER: Role(
        VILLAGER, VILLAGE, None, False, "You have no night action; find the werewolves."
    ),
}
#: Role order in vectors (one-hot) and in the role summary.
ROLE_ORDER = (WEREWOLF, SEER, DOCTOR, VILLAGER)

MIN_PLAYERS = 5
MAX_PLAYERS = 15
#: Default seat names; a game of n players uses the first n.
_NAME_LIST = "Alice Bob Carol Dave Eve Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert"
NAMES = tuple(_NAME_LIST.split(" "))
#: Words of the action grammar, which no player may be called.
RESERVED_NAMES = frozenset({"pass", "abstain", "skip", "none", "player", "say"})
MAX_SPEECH_CHARS = 2000
MAX_DISCUSSION_ROUNDS = 5
#: The claim values a seat may state about another (what a seer's check would say).
CLAIM_VALUES = (WEREWOLF, VILLAGE)


class Phase(enum.Enum):
    """What the game is waiting for."""

    NIGHT_WOLVES = "night_wolves"
    NIGHT_SEER = "night_seer"
    NIGHT_DOCTOR = "night_doctor"
    DISCUSSION = "discussion"
    VOTE = "vote"
    CHANCE = "chance"
    OVER = "over"
    #: Bidding for the next speech (``speaking_order="bidding"`` only).
    BID = "bid"


#: The phases in vectors (one-hot), in this order (a bid shows as the discussion's).
PHASE_ORDER = (
    Phase.NIGHT_WOLVES,
    Phase.NIGHT_SEER,
    Phase.NIGHT_DOCTOR,
    Phase.DISCUSSION,
    Phase.VOTE,
    Phase.CHANCE,
    Phase.OVER,
)
#: The action kinds each acting phase allows (``pass`` is also every refused turn).
PHASE_KINDS: dict[Phase, tuple[str, ...]] = {
    Phase.NIGHT_WOLVES: ("kill",),
    Phase.NIGHT_SEER: ("check",),
    Phase.NIGHT_DOCTOR: ("save",),
    Phase.DISCUSSION: ("pass", "say", "accuse", "claim"),
    Phase.VOTE: ("pass", "vote"),
    Phase.BID: ("bid",),
}
#: How the discussion's speakers are chosen (see :mod:`~.turn_order`).
SPEAKING_ORDERS = ("round_robin", "bidding")
#: The bids of ``speaking_order="bidding"``: urgency 0 (listen) to 4 (must answer).
BID_VALUES = ("0", "1", "2", "3", "4")
#: The bid a refused bid counts as (with the penalty): 0, "I would rather listen".
DEFAULT_BID = "0"


@dataclass(frozen=True)
class Action:
    """One seat's action.

    Attributes:
        kind: ``kill``, ``check``, ``save``, ``vote``, ``say``, ``accuse``, ``claim``,
            ``bid`` or ``pass`` (abstain; nothing said).
        target: The seat acted on (None for ``say``, ``bid`` and ``pass``).
        value: ``say``: the message; ``claim``: ``"werewolf"`` or ``"village"``; ``bid``:
            ``"0"`` to ``"4"``; else "".

    """

    kind: str
    target: int | None = None
    value: str = ""


PASS = Action("pass")


@dataclass(frozen=True)
class WerewolfSetup:
    """The parameters of a game (all checked on construction).

    Attributes:
        num_players: Seats, 5 to 15.
        num_werewolves: Werewolves, at least 1 and fewer than half the seats.
        seer: Whether one seat is the seer.
        doctor: Whether one seat is the doctor.
        discussion_rounds: Speaking turns per living seat each day (0 to 5; 0: votes only).
        max_speech_chars: The speaking budget: characters per message (1 to 2000).
        tie_rule: ``"no_exile"`` or ``"random"`` (see :mod:`~.voting`).
        max_days: Days played before the game ends undecided (>= 1).
        reveal_roles_on_death: Whether a death announces the dead seat's role.
        doctor_self_save: Whether the doctor may protect itself (SecretMafia's may not).
        names: The seats' names (``num_players`` distinct words of letters).
        game: Whose words the messages use: ``"werewolf"`` or ``"mafia"``
            (:mod:`~envsuite.families.social.game_words`); the rules are the same.
        speaking_order: ``"round_robin"`` or ``"bidding"`` (:mod:`~.turn_order`).

    """

    num_players: int = 8
    num_werewolves: int = 2
    seer: bool = True
    doctor: bool = True
    discussion_rounds: int = 1
    max_speech_chars: int = 300
    tie_rule: TieRule = "no_exile"
    max_days: int = 10
    reveal_roles_on_death: bool = False
    doctor_self_save: bool = True
    names: tuple[str, ...] = NAMES[:8]
    game: str = "werewolf"
    speaking_order: str = "round_robin"

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        n = self.num_players
        check_int("num_werewolves", self.num_werewolves, 1, (n - 1) // 2)
        specials = self.num_werewolves + int(bool(self.seer)) + int(bool(self.doctor))
        if specials > n:
            raise ValueError(f"{specials} special roles do not fit in {n} seats")
        check_int("discussion_rounds", self.discussion_rounds, 0, MAX_DISCUSSION_ROUNDS)
        check_int("max_speech_chars", self.max_speech_chars, 1, MAX_SPEECH_CHARS)
        check_int("max_days", self.max_days, 1, 10 * MAX_PLAYERS)
        if self.tie_rule not in ("no_exile", "random"):
            raise ValueError(f"tie_rule must be 'no_exile' or 'random', got {self.tie_rule!r}")
        for flag in ("seer", "doctor", "reveal_roles_on_death", "doctor_self_save"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        object.__setattr__(self, "names", checked_names(self.names, n, RESERVED_NAMES))
        if self.game not in GAME_WORDS:
            raise ValueError(f"game must be one of {sorted(GAME_WORDS)}, got {self.game!r}")
        if self.speaking_order not in SPEAKING_ORDERS:
            raise ValueError(
                f"speaking_order must be one of {list(SPEAKING_ORDERS)}, "
                f"got {self.speaking_order!r}"
            )

    def base_roles(self) -> tuple[str, ...]:
        """The roles to deal, before shuffling: werewolves, seer, doctor, villagers."""
        specials = [WEREWOLF] * self.num_werewolves
        specials += [SEER] * self.seer + [DOCTOR] * self.doctor
        return tuple(specials + [VILLAGER] * (self.num_players - len(specials)))

    def to_dict(self) -> dict[str, Any]:
        """The setup as a JSON-friendly mapping (``WerewolfSetup(**mapping)`` rebuilds it).

        ``speaking_order`` is left out at its default, so the game logs of round-robin
        games read exactly as before the option existed.
        """
        return {**self._as_dict, "names": list(self.names)}

    @functools.cached_property
    def _as_dict(self) -> dict[str, Any]:
        mapping = asdict(self)
        if mapping["speaking_order"] == "round_robin":
            del mapping["speaking_order"]
        return mapping
