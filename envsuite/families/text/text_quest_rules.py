"""The rules of ``TextQuest-v0``: a world of rooms, doors, receptacles and objects, and its state.

No Gymnasium, no text parsing, no generator here: :class:`QuestWorld` is the static world
(what never changes: the map, the names, which key opens what, the goal and the initial
state) and :class:`QuestGame` the mutable state of one episode, with the legal commands
and their effects.

Places: an object is in a room (``0 .. R-1``), in or on a receptacle (``R + j``) or
carried (:data:`CARRIED`). Doors and receptacles are :data:`OPEN`, :data:`CLOSED` or
:data:`LOCKED`; supporters (a table, a shelf) are always open. Unlocking leaves a thing
closed (open it next); nothing is ever locked again. There is no carrying limit.

Commands are tuples (the first item is the verb): ``("go", direction)``,
``("take", obj)``, ``("drop", obj)``, ``("open", thing)``, ``("close", thing)``,
``("unlock", thing, key)``, ``("put", obj, receptacle)``, ``("examine", thing)``,
``("look",)``, ``("inventory",)``. A *thing* is an entity index: objects are
``0 .. O-1``, receptacles ``O .. O+C-1``, doors ``O+C ..`` (see :meth:`QuestWorld.kind`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Directions, in the order the text lists exits, and their abbreviations.
DIRECTIONS: tuple[str, ...] = ("north", "south", "east", "west")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
#: Door / receptacle states.
OPEN, CLOSED, LOCKED = 0, 1, 2
#: The place code of a carried object.
CARRIED = -1

Command = tuple


@dataclass(frozen=True)
class QuestWorld:
    """The static world: map, names, locks, the goal and the initial state.

    Attributes:
        rooms: Room names.
        exits: Per room, ``(direction, room, door)`` triples (``door`` -1 for an open way).
        door_names, door_rooms, door_keys: Per door: its name, the two rooms it joins and
            the object index of its key (-1: it has no lock).
        receptacle_names, receptacle_rooms, receptacle_keys: Per receptacle likewise.
        supporters: Per receptacle, True for a supporter (``on``; always open), False for a
            container (``in``; opens and closes).
        object_names, object_keys: Per object: its name and whether it is a key.
        start: The starting room.
        door_states, receptacle_states, object_places: The initial states.
        goal: ``(object, receptacle)`` pairs that must all hold at once to win.
    """

    rooms: tuple[str, ...]
    exits: tuple[tuple[tuple[str, int, int], ...], ...]
    door_names: tuple[str, ...]
    door_rooms: tuple[tuple[int, int], ...]
    door_keys: tuple[int, ...]
    receptacle_names: tuple[str, ...]
    receptacle_rooms: tuple[int, ...]
    receptacle_keys: tuple[int, ...]
    supporters: tuple[bool, ...]
    object_names: tuple[str, ...]
    object_keys: tuple[bool, ...]
    start: int
    door_states: tuple[int, ...]
    receptacle_states: tuple[int, ...]
    object_places: tuple[int, ...]
    goal: tuple[tuple[int, int], ...]
    # Derived lookups (filled in __post_init__).
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    room_doors: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    room_receptacles: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = self.object_names + self.receptacle_names + self.door_names
        assert len(set(names)) == len(names), "entity names must be unique"
        object.__setattr__(self, "names", names)
        object.__setattr__(
            self,
            "room_doors",
            tuple(tuple(d for _, _, d in exits if d >= 0) for exits in self.exits),
        )
        object.__setattr__(
            self,
            "room_receptacles",
            tuple(
                tuple(j for j, r in enumerate(self.receptacle_rooms) if r == room)
                for room in range(len(self.rooms))
            ),
        )

    @property
    def num_objects(self) -> int:
        """How many objects the world holds."""
        return len(self.object_names)

    def kind(self, thing: int) -> str:
        """``"object"``, ``"receptacle"`` or ``"door"``."""
        if thing < len(self.object_names):
            return "object"
        if thing < len(self.object_names) + len(self.receptacle_names):
            return "receptacle"
        return "door"

    def receptacle_entity(self, receptacle: int) -> int:
        """The entity index of a receptacle."""
        return len(self.object_names) + receptacle

    def door_entity(self, door: int) -> int:
        """The entity index of a door."""
        return len(self.object_names) + len(self.receptacle_names) + door

    def preposition(self, receptacle: int) -> str:
        """``on`` for a supporter, ``in`` for a container."""
        return "on" if self.supporters[receptacle] else "in"

    def key(self) -> str:
        """The canonical key of the instance (its split is a hash of it)."""
        return repr(
            (
                self.rooms,
                self.exits,
                self.door_names,
                self.door_rooms,
                self.door_keys,
                self.receptacle_names,
                self.receptacle_rooms,
                self.receptacle_keys,
                self.supporters,
                self.object_names,
                self.object_keys,
                self.start,
                self.door_states,
                self.receptacle_states,
                self.object_places,
                self.goal,
            )
        )


#: A full snapshot of a game's state (room, door states, receptacle states, places).
State = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class QuestGame:
    """The mutable state of one quest: where the player is and everything's state.

    ``legal_commands()`` lists every command that changes or shows something now (the
    admissible commands); ``apply(command)`` plays a legal one and returns the sub-goals
    it reached for the first time. Sub-goals: for each goal object, holding it for the
    first time and its first arrival in its goal receptacle.
    """

    def __init__(self, world: QuestWorld, state: State | None = None) -> None:
        self.world = world
        if state is None:
            state = (world.start, world.door_states, world.receptacle_states, world.object_places)
        self.room = state[0]
        self.doors = list(state[1])
        self.receptacles = list(state[2])
        self.places = list(state[3])
        self.reached: set[tuple[str, int]] = set()
        self._goal_objects = {obj for obj, _ in world.goal}

    # -- state -------------------------------------------------------------------------
    def state(self) -> State:
        """A snapshot of the whole state (hashable)."""
        return (self.room, tuple(self.doors), tuple(self.receptacles), tuple(self.places))

    @property
    def won(self) -> bool:
        """Whether every goal object is in or on its goal receptacle."""
        places, base = self.places, len(self.world.rooms)
        return all(places[obj] == base + rec for obj, rec in self.world.goal)

    def carried(self) -> list[int]:
        """The objects carried."""
        return [obj for obj, place in enumerate(self.places) if place == CARRIED]

    def contents(self, receptacle: int) -> list[int]:
        """The objects in or on a receptacle."""
        code = len(self.world.rooms) + receptacle
        return [obj for obj, place in enumerate(self.places) if place == code]

    def loose_objects(self) -> list[int]:
        """Objects lying in the current room (not in or on a receptacle)."""
        room = self.room
        return [obj for obj, place in enumerate(self.places) if place == room]

    def reachable_objects(self) -> list[int]:
        """Objects the player can take: in the room, or in or on an open receptacle there."""
        world = self.world
        codes = {self.room}
        base = len(world.rooms)
        for rec in world.room_receptacles[self.room]:
            if self.receptacles[rec] == OPEN:
                codes.add(base + rec)
        return [obj for obj, place in enumerate(self.places) if place in codes]

    def visible(self) -> list[int]:
        """Every entity the player may name now.

        Reachable objects, then carried ones, the receptacles in the room and the doors
        of its exits.
        """
        world = self.world
        objects = self.reachable_objects() + self.carried()
        return (
            objects
            + [world.receptacle_entity(rec) for rec in world.room_receptacles[self.room]]
            + [world.door_entity(door) for door in world.room_doors[self.room]]
        )

    # -- commands ----------------------------------------------------------------------
    def legal_commands(self, *, examine: bool = True) -> list[Command]:
        """Every legal command now, in a fixed order.

        With ``examine``, the ones that only show something (examine, look, inventory) too.
        """
        world = self.world
        commands: list[Command] = []
        room = self.room
        for direction, _, door in world.exits[room]:
            if door < 0 or self.doors[door] == OPEN:
                commands.append(("go", direction))
        carried = self.carried()
        keys = [obj for obj in carried if world.object_keys[obj]]
        for obj in self.reachable_objects():
            commands.append(("take", obj))
        for obj in carried:
            commands.append(("drop", obj))
        for door in world.room_doors[room]:
            state = self.doors[door]
            thing = world.door_entity(door)
            if state == OPEN:
                commands.append(("close", thing))
            elif state == CLOSED:
                commands.append(("open", thing))
            elif world.door_keys[door] in keys:
                commands.append(("unlock", thing, world.door_keys[door]))
        for rec in world.room_receptacles[room]:
            thing = world.receptacle_entity(rec)
            state = self.receptacles[rec]
            if world.supporters[rec]:
                pass
            elif state == OPEN:
                commands.append(("close", thing))
            elif state == CLOSED:
                commands.append(("open", thing))
            elif world.receptacle_keys[rec] in keys:
                commands.append(("unlock", thing, world.receptacle_keys[rec]))
            if state == OPEN:
                for obj in carried:
                    commands.append(("put", obj, rec))
        if examine:
            commands.extend(("examine", thing) for thing in self.visible())
            commands.append(("look",))
            commands.append(("inventory",))
        return commands

    def apply(self, command: Command) -> list[tuple[str, int]]:
        """Play a legal command; the sub-goals it reached for the first time."""
        world = self.world
        verb = command[0]
        if verb == "go":
            for direction, room, _ in world.exits[self.room]:
                if direction == command[1]:
                    self.room = room
                    break
            return []
        if verb == "take":
            obj = command[1]
            self.places[obj] = CARRIED
            return self._reach(("take", obj)) if obj in self._goal_objects else []
        if verb == "drop":
            self.places[command[1]] = self.room
            return []
        if verb in ("open", "close", "unlock"):
            thing = command[1]
            new = OPEN if verb == "open" else CLOSED
            if thing >= world.door_entity(0):
                self.doors[thing - world.door_entity(0)] = new
            else:
                self.receptacles[thing - world.receptacle_entity(0)] = new
            return []
        if verb == "put":
            obj, rec = command[1], command[2]
            self.places[obj] = len(world.rooms) + rec
            if (obj, rec) in world.goal:
                return self._reach(("place", obj))
            return []
        return []  # examine, look, inventory: nothing changes

    def _reach(self, subgoal: tuple[str, int]) -> list[tuple[str, int]]:
        if subgoal in self.reached:
            return []
        self.reached.add(subgoal)
        return [subgoal]


def subgoal_count(world: QuestWorld) -> int:
    """How many sub-goals a quest has (two per goal object)."""
    return 2 * len(world.goal)


__all__ = [
    "CARRIED",
    "CLOSED",
    "DIRECTIONS",
    "LOCKED",
    "OPEN",
    "OPPOSITE",
    "Command",
    "QuestGame",
    "QuestWorld",
    "State",
    "subgoal_count",
]
