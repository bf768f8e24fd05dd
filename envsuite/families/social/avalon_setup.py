"""Avalon's data: roles and who sees whom, team sizes, phases, actions and a game's setup.

The role table, the sight table (standard Avalon: Merlin sees the evil except Mordred;
the evil see each other except Oberon, who sees nobody; Percival sees Merlin and Morgana
without knowing which is which), the team sizes per player count and the two-fail rule
are data here; the transitions between phases are
:class:`~envsuite.families.social.avalon_rules.AvalonGame`'s. No Gymnasium, PettingZoo or
random generator.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import asdict, dataclass, field
from typing import Any

from envsuite.families.social.roles import Role
from envsuite.families.social.setup_checks import check_int, checked_names

GOOD = "good"
EVIL = "evil"
TEAMS = (GOOD, EVIL)
#: What Percival sees of Merlin and Morgana (one of the two is Merlin).
MERLIN_OR_MORGANA = "merlin_or_morgana"

MERLIN = "merlin"
PERCIVAL = "percival"
SERVANT = "servant"
MORGANA = "morgana"
MORDRED = "mordred"
OBERON = "oberon"
ASSASSIN = "assassin"
MINION = "minion"

ROLES: dict[str, Role] = {
    MERLIN: Role(MERLIN, GOOD, None, False, "You see the evil players, except Mordred."),
    PERCIVAL: Role(
        PERCIVAL, GOOD, None, False, "You see Merlin and Morgana, but not which is which."
    ),
    SERVANT: Role(SERVANT, GOOD, None, False, "A loyal servant of Arthur: you see nobody."),
    MORGANA: Role(MORGANA, EVIL, None, True, "You appear to Percival as Merlin might."),
    MORDRED: Role(MORDRED, EVIL, None, True, "Merlin does not see you."),
    OBERON: Role(OBERON, EVIL, None, False, "You are evil, but you and the evil never meet."),
    ASSASSIN: Role(ASSASSIN, EVIL, None, True, "If good wins three quests, you may kill Merlin."),
    MINION: Role(MINION, EVIL, None, True, "A minion of Mordred: you see your fellow evil."),
}
#: Role order in vectors (one-hot).
ROLE_ORDER = (MERLIN, PERCIVAL, SERVANT, MORGANA, MORDRED, OBERON, ASSASSIN, MINION)
#: The roles a setup may ask for by name (servants and minions fill the rest).
SPECIAL_ROLES = (MERLIN, PERCIVAL, MORGANA, MORDRED, OBERON, ASSASSIN)

#: Who sees whom, as what: viewer role -> seen role -> what the viewer learns.
SIGHT: dict[str, dict[str, str]] = {
    MERLIN: {MORGANA: EVIL, OBERON: EVIL, ASSASSIN: EVIL, MINION: EVIL},
    PERCIVAL: {MERLIN: MERLIN_OR_MORGANA, MORGANA: MERLIN_OR_MORGANA},
    **{
        viewer: {MORGANA: EVIL, MORDRED: EVIL, ASSASSIN: EVIL, MINION: EVIL}
        for viewer in (MORGANA, MORDRED, ASSASSIN, MINION)
    },
}

#: Evil players per player count (the rest are good).
EVIL_COUNT = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
#: Team size of each of the five quests, per player count.
TEAM_SIZES = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}
#: The fourth quest (index 3) needs two fail cards to fail with this many players or more.
TWO_FAIL_PLAYERS = 7
QUESTS = 5
#: Quests one team must win.
WINS_NEEDED = 3
#: Proposals rejected in a row on one quest that hand evil the game.
MAX_REJECTIONS = 5

MIN_PLAYERS = 5
MAX_PLAYERS = 10
_NAME_LIST = "Alice Bob Carol Dave Eve Frank Grace Heidi Ivan Judy"
NAMES = tuple(_NAME_LIST.split(" "))
#: Words of the action grammar, which no player may be called.
RESERVED_NAMES = frozenset(
    {"pass", "and", "say", "player", "approve", "reject", "success", "fail", "propose"}
)
MAX_SPEECH_CHARS = 2000
MAX_DISCUSSION_ROUNDS = 5
DEFAULT_SPECIAL_ROLES = (MERLIN, PERCIVAL, MORGANA, ASSASSIN)


class Phase(enum.Enum):
    """What the game is waiting for."""

    DISCUSSION = "discussion"
    PROPOSE = "propose"
    VOTE = "vote"
    QUEST = "quest"
    ASSASSINATE = "assassinate"
    CHANCE = "chance"
    OVER = "over"


#: The phases in vectors (one-hot), in this order.
PHASE_ORDER = tuple(Phase)
#: The action kinds each acting phase allows (``pass`` is the discussion's only silence).
PHASE_KINDS: dict[Phase, tuple[str, ...]] = {
    Phase.DISCUSSION: ("pass", "say"),
    Phase.PROPOSE: ("propose",),
    Phase.VOTE: ("approve", "reject"),
    Phase.QUEST: ("success", "fail"),
    Phase.ASSASSINATE: ("assassinate",),
}


@dataclass(frozen=True)
class AvalonAction:
    """One seat's action.

    Attributes:
        kind: ``propose``, ``approve``, ``reject``, ``success``, ``fail``, ``assassinate``,
            ``say`` or ``pass``.
        team: ``propose``: the seats of the proposed team, sorted; else empty.
        target: ``assassinate``: the seat named; else None.
        value: ``say``: the message; else "".

    """

    kind: str
    team: tuple[int, ...] = ()
    target: int | None = None
    value: str = ""


PASS = AvalonAction("pass")


@dataclass(frozen=True)
class AvalonSetup:
    """The parameters of a game (all checked on construction).

    Attributes:
        num_players: Seats, 5 to 10.
        special_roles: The named roles in play (each at most once; from
            :data:`SPECIAL_ROLES`); loyal servants and minions fill the other seats.
        discussion_rounds: Speaking turns per player before each proposal (0 to 5).
        max_speech_chars: The speaking budget: characters per message (1 to 2000).
        names: The seats' names (``num_players`` distinct words of letters).

    """

    num_players: int = 5
    special_roles: tuple[str, ...] = DEFAULT_SPECIAL_ROLES
    discussion_rounds: int = 1
    max_speech_chars: int = 300
    names: tuple[str, ...] = field(default=NAMES[:5])

    def __post_init__(self) -> None:
        n = self.num_players
        check_int("num_players", n, MIN_PLAYERS, MAX_PLAYERS)
        specials = tuple(self.special_roles)
        unknown = [role for role in specials if role not in SPECIAL_ROLES]
        if unknown:
            raise ValueError(f"unknown role {unknown[0]!r}; special roles are {SPECIAL_ROLES}")
        if len(set(specials)) != len(specials):
            raise ValueError(f"each special role may appear once, got {specials!r}")
        evil = sum(ROLES[role].team == EVIL for role in specials)
        if evil > EVIL_COUNT[n]:
            raise ValueError(f"{evil} evil roles do not fit: {n} players have {EVIL_COUNT[n]} evil")
        if len(specials) - evil > n - EVIL_COUNT[n]:
            raise ValueError(f"{len(specials) - evil} good roles do not fit in {n} players")
        object.__setattr__(self, "special_roles", specials)
        check_int("discussion_rounds", self.discussion_rounds, 0, MAX_DISCUSSION_ROUNDS)
        check_int("max_speech_chars", self.max_speech_chars, 1, MAX_SPEECH_CHARS)
        object.__setattr__(self, "names", checked_names(self.names, n, RESERVED_NAMES))

    @property
    def num_evil(self) -> int:
        """Evil players in this game."""
        return EVIL_COUNT[self.num_players]

    @property
    def team_sizes(self) -> tuple[int, ...]:
        """The team size of each quest."""
        return TEAM_SIZES[self.num_players]

    def fails_needed(self, quest: int) -> int:
        """Fail cards that fail quest ``quest`` (0-based): 2 on the fourth with 7+ players."""
        return 2 if quest == 3 and self.num_players >= TWO_FAIL_PLAYERS else 1

    def base_roles(self) -> tuple[str, ...]:
        """The roles to deal, before shuffling: good roles, servants, evil roles, minions."""
        good = [role for role in self.special_roles if ROLES[role].team == GOOD]
        evil = [role for role in self.special_roles if ROLES[role].team == EVIL]
        good += [SERVANT] * (self.num_players - self.num_evil - len(good))
        evil += [MINION] * (self.num_evil - len(evil))
        return tuple(good + evil)

    def to_dict(self) -> dict[str, Any]:
        """The setup as a JSON-friendly mapping (``AvalonSetup(**mapping)`` rebuilds it)."""
        return {**self._as_dict, "names": list(self.names)}

    @functools.cached_property
    def _as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["special_roles"] = list(self.special_roles)
        return data
