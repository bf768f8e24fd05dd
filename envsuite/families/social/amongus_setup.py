"""Among Us's data: the default map, roles, phases, actions and a game's setup.

The map is data (:data:`DEFAULT_ROOMS`, :data:`DEFAULT_CORRIDORS`): nine rooms on a
three-by-three layout after The Skeld, joined by corridors between neighbours; a setup may
give any connected map instead. The transitions between phases are
:class:`~envsuite.families.social.amongus_rules.AmongUsGame`'s. No Gymnasium, PettingZoo
or random generator.
"""

from __future__ import annotations

import enum
import functools
from collections import deque
from dataclasses import asdict, dataclass
from typing import Any

from envsuite.families.social.roles import Role
from envsuite.families.social.setup_checks import check_int
from envsuite.families.social.voting import TieRule
from envsuite.families.social.werewolf_setup import NAMES, RESERVED_NAMES

IMPOSTOR = "impostor"
CREWMATE = "crewmate"
IMPOSTORS = "impostors"
CREW = "crew"
TEAMS = (IMPOSTORS, CREW)

ROLES: dict[str, Role] = {
    IMPOSTOR: Role(
        IMPOSTOR, IMPOSTORS, "kill", True, "Kill crewmates unseen; you win at parity with them."
    ),
    CREWMATE: Role(
        CREWMATE, CREW, None, False, "Finish your tasks and eject every impostor to win."
    ),
}
#: Role order in vectors (one-hot).
ROLE_ORDER = (IMPOSTOR, CREWMATE)

#: The default map: nine rooms, row by row (Reactor at the top left, Navigation at the
#: bottom right); the emergency button is in the Cafeteria, where every round after a
#: meeting starts.
DEFAULT_ROOMS = (
    "Reactor",
    "Engine",
    "MedBay",
    "Security",
    "Cafeteria",
    "Weapons",
    "Electrical",
    "Storage",
    "Navigation",
)
#: Corridors of the default map: each room joins its neighbours on the 3x3 layout.
DEFAULT_CORRIDORS = (
    ("Reactor", "Engine"),
    ("Engine", "MedBay"),
    ("Security", "Cafeteria"),
    ("Cafeteria", "Weapons"),
    ("Electrical", "Storage"),
    ("Storage", "Navigation"),
    ("Reactor", "Security"),
    ("Security", "Electrical"),
    ("Engine", "Cafeteria"),
    ("Cafeteria", "Storage"),
    ("MedBay", "Weapons"),
    ("Weapons", "Navigation"),
)
DEFAULT_BUTTON_ROOM = "Cafeteria"

MIN_PLAYERS = 4
MAX_PLAYERS = 10
MAX_ROOMS = 20
MAX_SPEECH_CHARS = 2000
MAX_DISCUSSION_ROUNDS = 5
#: Words of the action grammar, which no player or room may be called.
GRAMMAR_WORDS = RESERVED_NAMES | {"go", "do", "task", "kill", "report", "vote", "wait", "call"}
#: A vote for nobody (``skip``) as the tally counts it: a candidate of its own.
SKIP_SEAT = -1


class Phase(enum.Enum):
    """What the game is waiting for."""

    PLAY = "play"
    DISCUSSION = "discussion"
    VOTE = "vote"
    CHANCE = "chance"
    OVER = "over"


#: The phases in vectors (one-hot), in this order.
PHASE_ORDER = tuple(Phase)
#: The action kinds each acting phase allows.
PHASE_KINDS: dict[Phase, tuple[str, ...]] = {
    Phase.PLAY: ("wait", "go", "task", "kill", "report", "button"),
    Phase.DISCUSSION: ("wait", "say", "accuse"),
    Phase.VOTE: ("wait", "vote"),
}


@dataclass(frozen=True)
class Action:
    """One seat's action.

    Attributes:
        kind: ``go`` (to room ``target``), ``task``, ``kill`` (seat ``target``), ``report``,
            ``button`` (an emergency meeting), ``say``, ``accuse`` (seat ``target``),
            ``vote`` (seat ``target``) or ``wait`` (also: skip a vote, say nothing).
        target: A room index for ``go``, a seat for ``kill``, ``accuse`` and ``vote``,
            else None.
        value: ``say``: the message; else "".

    """

    kind: str
    target: int | None = None
    value: str = ""


WAIT = Action("wait")


@dataclass(frozen=True)
class AmongUsSetup:
    """The parameters of a game (all checked on construction).

    Attributes:
        num_players: Seats, 4 to 10.
        num_impostors: Impostors, at least 1 and fewer than the crewmates.
        rooms: The map's room names (distinct words of ASCII letters).
        corridors: Pairs of rooms joined by a corridor (the map must be connected).
        button_room: Where the emergency button is and where rounds after a meeting start.
        tasks_per_player: Tasks dealt to each crewmate (distinct rooms, 1 to rooms - 1).
        task_steps: ``do task`` actions one task takes (1 to 10).
        kill_cooldown: Rounds an impostor waits to kill at the start, after a kill and
            after a meeting (0 to 20).
        emergency_meetings: Emergency meetings each player may call (0 to 5).
        discussion_rounds: Speaking turns per living player in a meeting (0 to 5).
        max_speech_chars: The speaking budget: characters per message (1 to 2000).
        tie_rule: ``"no_exile"`` or ``"random"`` (:mod:`~.voting`; ``skip`` is a candidate).
        max_rounds: Rounds of play before the game ends undecided (1 to 500).
        reveal_role_on_eject: Whether an ejection announces the ejected player's role.
        names: The seats' names.

    """

    num_players: int = 5
    num_impostors: int = 1
    rooms: tuple[str, ...] = DEFAULT_ROOMS
    corridors: tuple[tuple[str, str], ...] = DEFAULT_CORRIDORS
    button_room: str = DEFAULT_BUTTON_ROOM
    tasks_per_player: int = 4
    task_steps: int = 3
    kill_cooldown: int = 2
    emergency_meetings: int = 1
    discussion_rounds: int = 1
    max_speech_chars: int = 300
    tie_rule: TieRule = "no_exile"
    max_rounds: int = 40
    reveal_role_on_eject: bool = True
    names: tuple[str, ...] = NAMES[:5]

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        n = self.num_players
        check_int("num_impostors", self.num_impostors, 1, (n - 1) // 2)
        rooms = tuple(self.rooms)
        _check_words("rooms", rooms, 2, MAX_ROOMS)
        corridors = tuple(tuple(pair) for pair in self.corridors)
        for pair in corridors:
            if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= set(rooms):
                raise ValueError(f"a corridor must join two rooms of the map, got {pair!r}")
        if self.button_room not in rooms:
            raise ValueError(f"button_room must be one of {list(rooms)}, got {self.button_room!r}")
        object.__setattr__(self, "rooms", rooms)
        object.__setattr__(self, "corridors", corridors)
        if len(self.distances[rooms.index(self.button_room)]) != len(rooms):
            raise ValueError("the map is not connected: some room cannot be reached")
        check_int("tasks_per_player", self.tasks_per_player, 1, len(rooms) - 1)
        check_int("task_steps", self.task_steps, 1, 10)
        check_int("kill_cooldown", self.kill_cooldown, 0, 20)
        check_int("emergency_meetings", self.emergency_meetings, 0, 5)
        check_int("discussion_rounds", self.discussion_rounds, 0, MAX_DISCUSSION_ROUNDS)
        check_int("max_speech_chars", self.max_speech_chars, 1, MAX_SPEECH_CHARS)
        check_int("max_rounds", self.max_rounds, 1, 500)
        if self.tie_rule not in ("no_exile", "random"):
            raise ValueError(f"tie_rule must be 'no_exile' or 'random', got {self.tie_rule!r}")
        if not isinstance(self.reveal_role_on_eject, bool):
            raise ValueError(
                f"reveal_role_on_eject must be True or False, got {self.reveal_role_on_eject!r}"
            )
        names = tuple(self.names)
        if len(names) != n:
            raise ValueError(f"names must be {n} distinct names, got {names!r}")
        _check_words("names", names, n, n)
        clash = {name.lower() for name in names} & {room.lower() for room in rooms}
        if clash:
            raise ValueError(f"{sorted(clash)[0]!r} names both a player and a room")
        object.__setattr__(self, "names", names)

    @functools.cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """The rooms each room's corridors lead to, in room order."""
        index = {room: i for i, room in enumerate(self.rooms)}
        joined: list[set[int]] = [set() for _ in self.rooms]
        for a, b in self.corridors:
            joined[index[a]].add(index[b])
            joined[index[b]].add(index[a])
        return tuple(tuple(sorted(rooms)) for rooms in joined)

    @functools.cached_property
    def distances(self) -> tuple[dict[int, int], ...]:
        """Corridors between every two rooms (breadth-first; unreachable rooms left out)."""
        result = []
        for start in range(len(self.rooms)):
            seen = {start: 0}
            frontier = deque([start])
            while frontier:
                room = frontier.popleft()
                for nxt in self.neighbours[room]:
                    if nxt not in seen:
                        seen[nxt] = seen[room] + 1
                        frontier.append(nxt)
            result.append(seen)
        return tuple(result)

    @property
    def button(self) -> int:
        """The index of the button room."""
        return self.rooms.index(self.button_room)

    def base_roles(self) -> tuple[str, ...]:
        """The roles to deal, before shuffling: the impostors, then the crewmates."""
        return (IMPOSTOR,) * self.num_impostors + (CREWMATE,) * (
            self.num_players - self.num_impostors
        )

    def to_dict(self) -> dict[str, Any]:
        """The setup as a JSON-friendly mapping (``AmongUsSetup(**mapping)`` rebuilds it)."""
        data = dict(self._as_dict)
        data["rooms"] = list(self.rooms)
        data["corridors"] = [list(pair) for pair in self.corridors]
        data["names"] = list(self.names)
        return data

    @functools.cached_property
    def _as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_words(name: str, words: tuple[Any, ...], low: int, high: int) -> None:
    if not low <= len(words) <= high:
        raise ValueError(f"{name} must hold {low} to {high} entries, got {len(words)}")
    if not all(isinstance(word, str) and word.isalpha() and word.isascii() for word in words):
        raise ValueError(f"every one of {name} must be a word of ASCII letters, got {words!r}")
    if len({word.lower() for word in words}) != len(words):
        raise ValueError(f"{name} must be distinct (ignoring case), got {words!r}")
    reserved = [word for word in words if word.lower() in GRAMMAR_WORDS]
    if reserved:
        raise ValueError(f"{reserved[0]!r} is a word of the action grammar, not one of {name}")
