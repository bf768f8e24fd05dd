"""Drawing ``TextQuest-v0`` worlds: a map on a grid, doors and locks, receptacles, objects, a goal.

Everything takes its randomness from the ``numpy.random.Generator`` it is given (the env's
``np_random``), so a world is a function of the env's seed. A draw:

1. grows ``num_rooms`` rooms on a square grid from one cell (each new room next to a
   random placed one, joined to it), then joins other neighbouring rooms with probability
   :data:`LOOP_CHANCE` (loops); directions follow the grid (north is up);
2. puts a door on each passage with probability :data:`DOOR_CHANCE`, and places
   ``max(2, (num_rooms + 1) // 2)`` receptacles (containers, which open and close, and
   supporters) in random rooms; containers start closed or open;
3. locks ``num_locks`` of the doors and containers (adding doors when there are too few),
   each with its own key, placed in a random room or receptacle;
4. draws ``quest_length`` goal objects and their goal receptacles (a *recipe*: all in one
   receptacle, or one receptacle each), placed elsewhere, and ``num_distractors`` other
   objects anywhere;
5. certifies the quest with the planner (:func:`.text_quest_planner.plan`): an unwinnable
   draw is drawn again, a bounded number of times, and so is a draw whose key is not in
   the requested split.

How many distinct worlds: the names alone give more than 10^6 per split at the default
settings (5 of :data:`ROOM_NAMES`'s 30 room names in order, about 1.7e7 ways, times the
goal objects from :data:`ITEM_NAMES`'s 40, times the maps and placements); val and test
hold a tenth of the keys each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envsuite.families.text.splits import Split, split_of
from envsuite.families.text.text_quest_planner import plan, winnable
from envsuite.families.text.text_quest_rules import CLOSED, LOCKED, OPEN, Command, QuestWorld

ROOM_NAMES: tuple[str, ...] = (
    "kitchen", "pantry", "cellar", "attic", "study", "library", "hallway", "bedroom",
    "bathroom", "garden", "garage", "workshop", "gallery", "chapel", "vault", "armoury",
    "nursery", "laundry", "conservatory", "ballroom", "observatory", "parlour", "scullery",
    "foyer", "dining room", "music room", "greenhouse", "storeroom", "office", "loft",
)  # fmt: skip
DOOR_NAMES: tuple[str, ...] = (
    "oak door", "iron door", "glass door", "red door", "blue door", "green door",
    "steel gate", "wooden gate", "trapdoor", "screen door", "arched door", "barn door",
)  # fmt: skip
CONTAINER_NAMES: tuple[str, ...] = (
    "chest", "box", "cabinet", "crate", "trunk", "safe", "locker", "cupboard", "coffer",
    "wardrobe",
)  # fmt: skip
SUPPORTER_NAMES: tuple[str, ...] = (
    "table", "shelf", "counter", "desk", "bench", "workbench", "pedestal", "stool",
)  # fmt: skip
KEY_NAMES: tuple[str, ...] = (
    "brass key", "iron key", "silver key", "golden key", "copper key", "bone key",
    "glass key", "rusty key",
)  # fmt: skip
ITEM_NAMES: tuple[str, ...] = (
    "apple", "book", "candle", "coin", "lamp", "map", "rope", "hat", "cup", "bottle",
    "scarf", "feather", "ring", "shell", "spoon", "pen", "letter", "bell", "mirror", "comb",
    "egg", "flour", "sugar", "carrot", "onion", "potato", "lemon", "knife", "hammer",
    "violin", "compass", "clock", "vase", "glove", "boot", "pillow", "teapot", "pear",
    "brush", "kite",
)  # fmt: skip

#: Chance that two neighbouring rooms not joined by the tree are joined (a loop).
LOOP_CHANCE = 0.25
#: Chance that a passage has a door.
DOOR_CHANCE = 0.4
#: Chance that a container starts open (when not locked).
OPEN_CHANCE = 0.3
#: Draws before :func:`draw_world` gives up.
MAX_DRAWS = 200

_STEPS = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}
_OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _pick(rng: np.random.Generator, pool: tuple[str, ...], count: int) -> list[str]:
    return [pool[i] for i in rng.permutation(len(pool))[:count].tolist()]


def _draw_map(
    rng: np.random.Generator, num_rooms: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Room cells and passages ``(a, b, direction from a to b)``."""
    cells = [(0, 0)]
    where = {(0, 0): 0}
    passages: list[tuple[int, int, str]] = []
    while len(cells) < num_rooms:
        room = int(rng.integers(len(cells)))
        direction = ("north", "south", "east", "west")[int(rng.integers(4))]
        dx, dy = _STEPS[direction]
        cell = (cells[room][0] + dx, cells[room][1] + dy)
        if cell in where:
            continue
        where[cell] = len(cells)
        cells.append(cell)
        passages.append((room, len(cells) - 1, direction))
    joined = {(a, b) for a, b, _ in passages} | {(b, a) for a, b, _ in passages}
    for a, (x, y) in enumerate(cells):
        for direction in ("east", "south"):
            dx, dy = _STEPS[direction]
            b = where.get((x + dx, y + dy))
            if b is not None and (a, b) not in joined and rng.random() < LOOP_CHANCE:
                passages.append((a, b, direction))
    return cells, passages


def _draw_once(
    rng: np.random.Generator,
    num_rooms: int,
    quest_length: int,
    num_distractors: int,
    num_locks: int,
) -> QuestWorld:
    _, passages = _draw_map(rng, num_rooms)
    rooms = _pick(rng, ROOM_NAMES, num_rooms)
    has_door = [bool(rng.random() < DOOR_CHANCE) for _ in passages]
    num_receptacles = max(2, (num_rooms + 1) // 2, quest_length)
    supporters = [bool(rng.random() < 0.4) for _ in range(num_receptacles)]
    if all(supporters):
        supporters[0] = False
    # Locks go on doors and containers; add doors when there are too few of both.
    lockable = sum(has_door) + supporters.count(False)
    free = [i for i, d in enumerate(has_door) if not d]
    for i in rng.permutation(free).tolist()[: max(0, num_locks - lockable)]:
        has_door[i] = True
    while sum(has_door) > len(DOOR_NAMES):  # no more doors than door names
        has_door[len(has_door) - 1 - has_door[::-1].index(True)] = False
    door_passages = [p for p, d in zip(passages, has_door, strict=True) if d]
    door_names = _pick(rng, DOOR_NAMES, len(door_passages))
    container_pool = _pick(rng, CONTAINER_NAMES, supporters.count(False))
    supporter_pool = _pick(rng, SUPPORTER_NAMES, supporters.count(True))
    receptacle_names = [
        supporter_pool.pop() if is_supporter else container_pool.pop()
        for is_supporter in supporters
    ]
    receptacle_rooms = [int(r) for r in rng.integers(num_rooms, size=num_receptacles)]
    candidates = [("door", i) for i in range(len(door_passages))] + [
        ("rec", j) for j, s in enumerate(supporters) if not s
    ]
    locked = [candidates[i] for i in rng.permutation(len(candidates))[:num_locks].tolist()]
    # Objects: goal objects first, then keys, then distractors.
    num_keys = len(locked)
    item_names = _pick(rng, ITEM_NAMES, quest_length + num_distractors)
    key_names = _pick(rng, KEY_NAMES, num_keys)
    object_names = item_names[:quest_length] + key_names + item_names[quest_length:]
    object_keys = [False] * quest_length + [True] * num_keys + [False] * num_distractors
    door_keys = [-1] * len(door_passages)
    receptacle_keys = [-1] * num_receptacles
    door_states = [CLOSED if rng.random() < 0.5 else OPEN for _ in door_passages]
    receptacle_states = [OPEN if s or rng.random() < OPEN_CHANCE else CLOSED for s in supporters]
    for k, (kind, i) in enumerate(locked):
        if kind == "door":
            door_keys[i], door_states[i] = quest_length + k, LOCKED
        else:
            receptacle_keys[i], receptacle_states[i] = quest_length + k, LOCKED
    # Goal: a recipe (everything in one receptacle) or one receptacle per object.
    if quest_length > 1 and rng.random() < 0.5:
        targets = [int(rng.integers(num_receptacles))] * quest_length
    else:
        targets = [int(r) for r in rng.integers(num_receptacles, size=quest_length)]
    num_places = num_rooms + num_receptacles
    places: list[int] = []
    for obj in range(len(object_names)):
        while True:
            place = int(rng.integers(num_places))
            if obj >= quest_length or place != num_rooms + targets[obj]:
                break
        places.append(place)
    exits: list[list[tuple[str, int, int]]] = [[] for _ in range(num_rooms)]
    door_of = {passages.index(p): d for d, p in enumerate(door_passages)}
    for p, (a, b, direction) in enumerate(passages):
        door = door_of.get(p, -1)
        exits[a].append((direction, b, door))
        exits[b].append((_OPPOSITE[direction], a, door))
    order = {d: i for i, d in enumerate(("north", "south", "east", "west"))}
    return QuestWorld(
        rooms=tuple(rooms),
        exits=tuple(tuple(sorted(e, key=lambda x: order[x[0]])) for e in exits),
        door_names=tuple(door_names),
        door_rooms=tuple((a, b) for a, b, _ in door_passages),
        door_keys=tuple(door_keys),
        receptacle_names=tuple(receptacle_names),
        receptacle_rooms=tuple(receptacle_rooms),
        receptacle_keys=tuple(receptacle_keys),
        supporters=tuple(supporters),
        object_names=tuple(object_names),
        object_keys=tuple(object_keys),
        start=int(rng.integers(num_rooms)),
        door_states=tuple(door_states),
        receptacle_states=tuple(receptacle_states),
        object_places=tuple(places),
        goal=tuple((obj, targets[obj]) for obj in range(quest_length)),
    )


def check_settings(num_rooms: int, quest_length: int, num_distractors: int, num_locks: int) -> None:
    """ValueError when the settings cannot be drawn (too few names)."""
    limits: list[tuple[str, Any, int, int]] = [
        ("num_rooms", num_rooms, 1, 16),
        ("quest_length", quest_length, 1, 8),
        ("num_distractors", num_distractors, 0, len(ITEM_NAMES) - quest_length),
        ("num_locks", num_locks, 0, len(KEY_NAMES)),
    ]
    for name, value, low, high in limits:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} must be an int from {low} to {high}; got {value!r}")


def draw_world(
    rng: np.random.Generator,
    game: str,
    split: Split,
    num_rooms: int,
    quest_length: int,
    num_distractors: int,
    num_locks: int,
) -> tuple[QuestWorld, list[Command]]:
    """A winnable world of ``split`` and its certified shortest walkthrough.

    Raises:
        RuntimeError: no winnable world of the split in :data:`MAX_DRAWS` draws.
    """
    for _ in range(MAX_DRAWS):
        world = _draw_once(rng, num_rooms, quest_length, num_distractors, num_locks)
        if not winnable(world) or split_of(game, world.key()) != split:
            continue
        walkthrough = plan(world)
        if walkthrough:
            return world, walkthrough
    raise RuntimeError(
        f"{game}: no winnable world of the {split!r} split in {MAX_DRAWS} draws "
        f"({num_rooms} rooms, quest length {quest_length}, {num_locks} locks)"
    )


__all__ = [
    "CONTAINER_NAMES",
    "DOOR_NAMES",
    "ITEM_NAMES",
    "KEY_NAMES",
    "MAX_DRAWS",
    "ROOM_NAMES",
    "SUPPORTER_NAMES",
    "check_settings",
    "draw_world",
]
