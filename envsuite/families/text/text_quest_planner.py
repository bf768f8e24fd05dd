"""Shortest walkthroughs of a ``TextQuest-v0`` world, by breadth-first search.

:func:`plan` searches the state that matters for the goal: the player's room, every door's
and receptacle's state, and the places of the *relevant* objects (the goal objects and
the keys). Its moves are the ones a shortest plan can use: go through open ways, open,
unlock with the right carried key, take a relevant object, put a goal object in its goal
receptacle. That loses no shortest plan, because nothing ever needs a thing closed, an
object dropped or a distractor moved (there is no carrying limit and no lock to lock
again): deleting such commands from any winning plan, and the later commands they made
necessary (re-opening, re-taking), leaves a winning plan no longer than it was. The tests
certify it against :func:`exhaustive_plan_length`, a breadth-first search over the *full*
state (every object's place) with *every* legal command of the rules engine.

Breadth-first search visits states in order of distance, so the first goal state found is
at the shortest distance: the walkthrough is certified shortest and its length is the
env's ``optimal_steps``.
"""

from __future__ import annotations

from collections import deque

from envsuite.families.text.text_quest_rules import (
    CARRIED,
    CLOSED,
    LOCKED,
    OPEN,
    Command,
    QuestGame,
    QuestWorld,
    State,
)

#: States :func:`plan` may visit before it gives up (the world is too big to certify).
MAX_PLAN_STATES = 200_000


class PlanTooLarge(RuntimeError):
    """The search visited more than its bound of states."""


def plan(
    world: QuestWorld, state: State | None = None, *, max_states: int = MAX_PLAN_STATES
) -> list[Command] | None:
    """A shortest list of commands that wins from ``state``, or None when none wins.

    ``state`` is the initial state by default.

    Raises:
        PlanTooLarge: more than ``max_states`` states were visited.
    """
    if state is None:
        state = (world.start, world.door_states, world.receptacle_states, world.object_places)
    base = len(world.rooms)
    relevant = sorted(
        {obj for obj, _ in world.goal}
        | {k for k in world.door_keys if k >= 0}
        | {k for k in world.receptacle_keys if k >= 0}
    )
    index = {obj: i for i, obj in enumerate(relevant)}
    is_key = [world.object_keys[obj] for obj in relevant]
    goal = [(index[obj], base + rec) for obj, rec in world.goal]
    # A goal object that is no key never leaves its goal receptacle in a shortest plan.
    settled = {i: code for i, code in goal if not is_key[i]}
    goal_by_rec: dict[int, list[int]] = {}
    for obj, rec in world.goal:
        goal_by_rec.setdefault(rec, []).append(index[obj])
    door_entity0 = world.door_entity(0)
    rec_entity0 = world.receptacle_entity(0)
    room_recs = world.room_receptacles
    room_doors = world.room_doors

    # The locks each relevant key opens (a key whose locks are all open is no longer taken).
    door_lock = {door: index[k] for door, k in enumerate(world.door_keys) if k >= 0}
    rec_lock = {rec: index[k] for rec, k in enumerate(world.receptacle_keys) if k >= 0}
    opens: dict[int, list[tuple[int, int]]] = {}
    for door, i in door_lock.items():
        opens.setdefault(i, []).append((0, door))
    for rec, i in rec_lock.items():
        opens.setdefault(i, []).append((1, rec))
    only_key = {i for i in opens if all(j != i for j, _ in goal)}

    start = (state[0], state[1], state[2], tuple(state[3][obj] for obj in relevant))
    parents: dict[tuple, tuple[tuple, Command] | None] = {start: None}
    queue = deque([start])

    def won(places: tuple[int, ...]) -> bool:
        return all(places[i] == code for i, code in goal)

    found = start if won(start[3]) else None
    while queue and found is None:
        node = queue.popleft()
        room, doors, recs, places = node
        successors: list[tuple[tuple, Command]] = []
        for direction, dest, door in world.exits[room]:
            if door < 0 or doors[door] == OPEN:
                successors.append(((dest, doors, recs, places), ("go", direction)))
        for door in room_doors[room]:
            s = doors[door]
            if s == CLOSED:
                new = (*doors[:door], OPEN, *doors[door + 1 :])
                successors.append(((room, new, recs, places), ("open", door_entity0 + door)))
            elif s == LOCKED and places[door_lock[door]] == CARRIED:
                new = (*doors[:door], CLOSED, *doors[door + 1 :])
                successors.append(
                    (
                        (room, new, recs, places),
                        ("unlock", door_entity0 + door, world.door_keys[door]),
                    )
                )
        open_codes = {room}
        puts = []
        for rec in room_recs[room]:
            s = recs[rec]
            if s == OPEN:
                open_codes.add(base + rec)
                for i in goal_by_rec.get(rec, ()):
                    if places[i] == CARRIED:
                        new_places = (*places[:i], base + rec, *places[i + 1 :])
                        puts.append(((room, doors, recs, new_places), ("put", relevant[i], rec)))
            elif s == CLOSED:
                new = (*recs[:rec], OPEN, *recs[rec + 1 :])
                successors.append(((room, doors, new, places), ("open", rec_entity0 + rec)))
            elif places[rec_lock[rec]] == CARRIED:
                new = (*recs[:rec], CLOSED, *recs[rec + 1 :])
                successors.append(
                    (
                        (room, doors, new, places),
                        ("unlock", rec_entity0 + rec, world.receptacle_keys[rec]),
                    )
                )
        for i, p in enumerate(places):
            if p in open_codes and settled.get(i) != p:
                if i in only_key and all(
                    (doors if what == 0 else recs)[j] != LOCKED for what, j in opens[i]
                ):
                    continue  # a key whose locks are all open is of no more use
                new_places = (*places[:i], CARRIED, *places[i + 1 :])
                successors.append(((room, doors, recs, new_places), ("take", relevant[i])))
        for child, command in puts:  # only a put can win
            if child not in parents:
                parents[child] = (node, command)
                if won(child[3]):
                    found = child
                    break
                queue.append(child)
        if found is not None:
            break
        for child, command in successors:
            if child not in parents:
                parents[child] = (node, command)
                queue.append(child)
        if len(parents) > max_states:
            raise PlanTooLarge(f"the plan search visited over {max_states} states")
    if found is None:
        return None
    commands: list[Command] = []
    link = parents[found]
    while link is not None:
        node, command = link
        commands.append(command)
        link = parents[node]
    commands.reverse()
    return commands


def winnable(world: QuestWorld) -> bool:
    """Whether the quest can be won from its initial state (a fixpoint, no search).

    Nothing is ever lost (no carrying limit, nothing locks again), so what is reachable
    grows monotonically: rooms through passages whose doors are not locked or whose key
    is reachable, objects in reachable rooms or in reachable receptacles that are not
    locked or whose key is reachable. The quest is winnable when every goal object and
    every goal receptacle is reachable.
    """
    base = len(world.rooms)
    rooms = {world.start}
    objects: set[int] = set()
    grew = True
    while grew:
        grew = False
        for room in list(rooms):
            for _, dest, door in world.exits[room]:
                if dest not in rooms and (
                    door < 0
                    or world.door_states[door] != LOCKED
                    or world.door_keys[door] in objects
                ):
                    rooms.add(dest)
                    grew = True
        for obj, place in enumerate(world.object_places):
            if obj in objects:
                continue
            if place < base:
                ok = place in rooms
            else:
                rec = place - base
                ok = world.receptacle_rooms[rec] in rooms and (
                    world.receptacle_states[rec] != LOCKED or world.receptacle_keys[rec] in objects
                )
            if ok:
                objects.add(obj)
                grew = True
    return all(
        obj in objects
        and world.receptacle_rooms[rec] in rooms
        and (world.receptacle_states[rec] != LOCKED or world.receptacle_keys[rec] in objects)
        for obj, rec in world.goal
    )


def exhaustive_plan_length(
    world: QuestWorld, state: State | None = None, *, max_states: int = 2_000_000
) -> int | None:
    """The shortest winning length by an exhaustive search, or None when none wins.

    Breadth-first search over the full state with every legal command of
    :class:`QuestGame` (slow; for certifying :func:`plan` on small worlds).

    Raises:
        PlanTooLarge: more than ``max_states`` states were visited.
    """
    game = QuestGame(world, state)
    start = game.state()
    if game.won:
        return 0
    seen = {start}
    frontier = [start]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for node in frontier:
            for command in QuestGame(world, node).legal_commands(examine=False):
                child_game = QuestGame(world, node)
                child_game.apply(command)
                child = child_game.state()
                if child in seen:
                    continue
                if child_game.won:
                    return depth
                seen.add(child)
                nxt.append(child)
        if len(seen) > max_states:
            raise PlanTooLarge(f"the exhaustive search visited over {max_states} states")
        frontier = nxt
    return None


__all__ = ["MAX_PLAN_STATES", "PlanTooLarge", "exhaustive_plan_length", "plan", "winnable"]
