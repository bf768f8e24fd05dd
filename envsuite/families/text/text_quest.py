"""``envsuite/TextQuest-v0``: generated interactive-fiction quests with a certified walkthrough."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv
from envsuite.families.text.text_quest_generator import check_settings, draw_world
from envsuite.families.text.text_quest_rules import (
    CARRIED,
    CLOSED,
    DIRECTIONS,
    LOCKED,
    OPEN,
    Command,
    QuestGame,
    QuestWorld,
    subgoal_count,
)

#: Difficulty presets: (num_rooms, quest_length, num_distractors, num_locks, max_turns).
DIFFICULTIES: dict[str, tuple[int, int, int, int, int]] = {
    "easy": (3, 1, 2, 0, 50),
    "medium": (5, 2, 4, 1, 100),
    "hard": (8, 3, 8, 2, 200),
}
#: Words naming a direction.
DIRECTION_WORDS: dict[str, str] = {d: d for d in DIRECTIONS} | {d[0]: d for d in DIRECTIONS}
_ARTICLES = frozenset(("the", "a", "an", "some"))
_TAKE = frozenset(("take", "get", "grab", "pick"))
_EXAMINE = frozenset(("examine", "x", "inspect", "check", "describe"))
_PUT_WORDS = frozenset(("in", "into", "on", "onto", "inside"))
_HELP = (
    "Commands: go north/south/east/west (or n, s, e, w), take X, drop X, open X, close X, "
    "unlock X with KEY, put X in Y, put X on Y, examine X (or x X), look (l), "
    "inventory (i)."
)


def _article(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def _listing(names: list[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class TextQuestEnv(TextGameEnv[Command]):
    """A generated text adventure: find things and put them where the quest says.

    Description:
        A world of rooms on a grid joined by passages (north, south, east, west), some with
        doors (open, closed or locked), receptacles (containers such as a chest, which open
        and close and may be locked, and supporters such as a table), keys (each opens one
        door or container) and objects. The quest names goal objects and where they must
        go: "put the apple in the chest and the coin on the table", or a recipe: "collect
        the egg, the flour and the sugar, and put them in the box". Distractor objects
        are there too. The quest is won when every goal object is in or on its goal
        receptacle at once. Difficulty grows with the map (``num_rooms``), the quest's
        length (``quest_length``), the locks (``num_locks``) and the distractors.

        The walkthrough is planned by breadth-first search over the state (the room, every
        door and receptacle, the places of the goal objects and keys), certified shortest
        (see :mod:`.text_quest_planner`; the tests check it against an exhaustive search
        over the full state with every command); its length is ``optimal_steps``.

        Splits: a world belongs to the split its key (every name, passage, lock, place
        and the goal) hashes to; the names alone give more than 10^6 distinct worlds per
        split at every preset (see :mod:`.text_quest_generator`). For out-of-distribution
        tests, train on the presets and test on bigger settings, e.g. ``num_rooms=12,
        quest_length=4, num_locks=3, split="test"``.

    Observation:
        Text, like classic interactive fiction (see the family base for the history
        modes): the room (its name, its exits and where they lead, doors and their state,
        what is there, what is in or on the receptacles), what you carry, and the feedback
        of the last command (after ``go`` it is the new room's description). The reset
        observation holds the rules, the quest and the first room.

    Action:
        A command (any case; articles ignored): ``go north`` (or ``north``, ``n``; also
        south, east, west), ``take X`` (``get X``, ``pick up X``; ``from Y`` allowed),
        ``drop X``, ``open X``, ``close X``, ``unlock X with KEY`` (``unlock X`` when you
        carry one key), ``put X in Y`` / ``put X on Y``, ``examine X`` (``x X``), ``look``
        (``l``), ``inventory`` (``i``). A name may be shortened to words of it when that
        is unambiguous (``take key`` with one key in sight). A command the parser cannot
        read is malformed; one the world forbids (a closed door, a locked chest, the wrong
        key, something not in sight) is illegal; both cost the penalty and a turn and
        leave the world as it was. ``info["admissible_commands"]`` (and
        ``info["legal_actions"]``, the same list) holds every legal command now, in the
        canonical spelling, unless ``admissible_commands=False``.

    Reward:
        ``subgoal_reward`` the first time each goal object is taken and the first time it
        arrives in its goal receptacle (each sub-goal pays once), 1.0 more on winning,
        ``-invalid_penalty`` for a malformed or illegal command, 0 otherwise. The final
        info adds ``subgoals_reached`` and ``subgoals_total``; ``score`` is 1.0 for a win,
        else the fraction of the sub-goals reached, halved.

    Termination:
        Terminated when the quest is won; truncated after ``max_turns``.

    Arguments:
        difficulty: ``"easy"`` (3 rooms, 1 goal object, 2 distractors, no lock, 50 turns),
            ``"medium"`` (5, 2, 4, 1 lock, 100 turns) or ``"hard"`` (8, 3, 8, 2 locks,
            200 turns): the defaults of the settings below.
        num_rooms: Rooms (1 to 16).
        quest_length: Goal objects (1 to 8).
        num_distractors: Objects that play no part (0 to ``40 - quest_length``).
        num_locks: Locked doors and containers, each with its key (0 to 8; fewer when
            the world has fewer doors and containers to lock, as in a single room).
            Resets slow down as goal objects and keys grow (the planner's search is
            exponential in them): about 1 ms at ``medium``, 8 ms at ``hard``, 100 ms at
            12 rooms, 4 goal objects and 3 locks; past its bound of 200,000 states a
            reset raises :class:`~.text_quest_planner.PlanTooLarge`.
        subgoal_reward: What each sub-goal pays (a non-negative number; default 0.1).
        admissible_commands: Whether info lists the legal commands (default True).
        max_turns: Turns before truncation; None for the preset's.
        observation_mode, history, split, invalid_penalty, render_mode: see the family
            base (:class:`~envsuite.families.text.text_game.TextGameEnv`).

    Version history:
        v0: Initial version.
    """

    game_name = "text_quest"

    def __init__(
        self,
        *,
        difficulty: str = "medium",
        num_rooms: int | None = None,
        quest_length: int | None = None,
        num_distractors: int | None = None,
        num_locks: int | None = None,
        subgoal_reward: float = 0.1,
        admissible_commands: bool = True,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Any = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        if difficulty not in DIFFICULTIES:
            raise ValueError(
                f"difficulty must be one of {', '.join(DIFFICULTIES)}; got {difficulty!r}"
            )
        rooms, length, distractors, locks, turns = DIFFICULTIES[difficulty]
        self.num_rooms = rooms if num_rooms is None else num_rooms
        self.quest_length = length if quest_length is None else quest_length
        self.num_distractors = distractors if num_distractors is None else num_distractors
        self.num_locks = locks if num_locks is None else num_locks
        check_settings(self.num_rooms, self.quest_length, self.num_distractors, self.num_locks)
        if (
            isinstance(subgoal_reward, bool)
            or not isinstance(subgoal_reward, int | float)
            or not 0 <= subgoal_reward < float("inf")
        ):
            raise ValueError(
                f"subgoal_reward must be a non-negative number; got {subgoal_reward!r}"
            )
        if not isinstance(admissible_commands, bool):
            raise ValueError(f"admissible_commands must be a bool; got {admissible_commands!r}")
        self.difficulty = difficulty
        self.subgoal_reward = float(subgoal_reward)
        self.admissible_commands = admissible_commands
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=turns if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.world: QuestWorld | None = None
        self.game: QuestGame | None = None
        self.walkthrough: list[Command] = []

    # -- drawing the instance ------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a winnable world of the split and its certified shortest walkthrough."""
        self.world, self.walkthrough = draw_world(
            self.np_random,
            self.game_name,
            self.split,
            self.num_rooms,
            self.quest_length,
            self.num_distractors,
            self.num_locks,
        )
        self.game = QuestGame(self.world)
        self.optimal_steps = len(self.walkthrough)
        self._names = self.world.names
        self._scope_cache: tuple[Any, dict[str, list[int]]] | None = None

    def instance_key(self) -> str:
        """Every name, passage, lock, initial place and the goal."""
        return self._world.key()

    @property
    def _world(self) -> QuestWorld:
        assert self.world is not None, "call reset() first"
        return self.world

    @property
    def _game(self) -> QuestGame:
        assert self.game is not None, "call reset() first"
        return self.game

    # -- text ----------------------------------------------------------------------------
    def quest_text(self) -> str:
        """The quest in words."""
        world = self._world
        names = world.object_names
        targets = {rec for _, rec in world.goal}
        if len(world.goal) > 1 and len(targets) == 1:
            rec = world.goal[0][1]
            items = _listing([f"the {names[obj]}" for obj, _ in world.goal])
            return (
                f"Recipe: collect {items}, and put them {world.preposition(rec)} the "
                f"{world.receptacle_names[rec]}."
            )
        parts = [
            f"the {names[obj]} {world.preposition(rec)} the {world.receptacle_names[rec]}"
            for obj, rec in world.goal
        ]
        return f"Your quest: put {_listing(parts)}."

    def instructions(self) -> str:
        """The rules, the quest, the commands and the rewards."""
        return (
            "You are in a text adventure. " + self.quest_text() + " You win when every "
            "goal object is in or on its goal place at once. " + _HELP + " Names may be "
            "shortened when unambiguous (take key). Some doors and containers are closed "
            "or locked; a key unlocks one of them. A command that cannot be done here "
            f"costs a turn and {self.invalid_penalty:g} points. Each part of the quest "
            f"pays {self.subgoal_reward:g} the first time (taking a goal object, putting "
            f"it in place), winning pays 1. {GRAMMAR_HELP}"
        )

    def describe_room(self) -> str:
        """The current room: name, exits, what is here."""
        world, game = self._world, self._game
        lines = [f"-= {world.rooms[game.room].title()} =-"]
        exits = []
        for direction, dest, door in world.exits[game.room]:
            text = f"{direction} to the {world.rooms[dest]}"
            if door >= 0:
                state = ("open", "closed", "locked")[game.doors[door]]
                text += f" through the {world.door_names[door]} ({state})"
            exits.append(text)
        lines.append("Exits: " + ("; ".join(exits) if exits else "none") + ".")
        seen = [self._describe_receptacle(rec) for rec in world.room_receptacles[game.room]]
        seen += [_article(world.object_names[obj]) for obj in game.loose_objects()]
        lines.append("You see: " + "; ".join(seen) + "." if seen else "You see nothing of note.")
        return "\n".join(lines)

    def _describe_receptacle(self, rec: int) -> str:
        world, game = self._world, self._game
        name = _article(world.receptacle_names[rec])
        held = [_article(world.object_names[obj]) for obj in game.contents(rec)]
        if world.supporters[rec]:
            return f"{name}, with {_listing(held)} on it" if held else f"{name} (nothing on it)"
        state = game.receptacles[rec]
        if state != OPEN:
            return f"{name} ({'closed' if state == CLOSED else 'locked'})"
        return f"{name} (open, holding {_listing(held)})" if held else f"{name} (open, empty)"

    def inventory_text(self) -> str:
        """What the player carries, as a sentence."""
        carried = self._game.carried()
        if not carried:
            return "You carry nothing."
        names = self._world.object_names
        return "You carry " + _listing([_article(names[obj]) for obj in carried]) + "."

    def state_text(self) -> str:
        """The room and what you carry."""
        return self.describe_room() + "\n" + self.inventory_text()

    def command_text(self, command: Command) -> str:
        """A command in its canonical spelling (as the admissible commands list it)."""
        verb = command[0]
        names = self._names
        if verb == "go":
            return "go " + command[1]
        if verb in ("look", "inventory"):
            return verb
        if verb == "unlock":
            return f"unlock {names[command[1]]} with {names[command[2]]}"
        if verb == "put":
            world = self._world
            rec = command[2]
            return f"put {names[command[1]]} {world.preposition(rec)} {world.receptacle_names[rec]}"
        return f"{verb} {names[command[1]]}"

    def legal_moves(self) -> list[str] | None:
        """The admissible commands (None when ``admissible_commands=False``)."""
        if not self.admissible_commands:
            return None
        text = self.command_text
        return [text(c) for c in self._game.legal_commands()]

    def step_info(self, info: dict[str, Any]) -> dict[str, Any]:
        """``admissible_commands``: TextWorld's name for the legal actions, where listed."""
        if "legal_actions" in info:
            return {"admissible_commands": info["legal_actions"]}
        return {}

    # -- parsing -------------------------------------------------------------------------
    def parse_move(self, answer: str) -> Command:
        """Read a command; raise InvalidAction naming the rule it breaks."""
        words = [w for w in answer.lower().replace(",", " ").split() if w not in _ARTICLES]
        if not words:
            raise InvalidAction("empty command; " + _HELP)
        verb, rest = words[0], words[1:]
        if verb in ("go", "walk", "move", "run") and len(rest) == 1:
            verb, rest = rest[0], []
        if verb in DIRECTION_WORDS and not rest:
            return self._checked_go(DIRECTION_WORDS[verb])
        if verb in ("look", "l") and not rest:
            return ("look",)
        if verb in ("inventory", "i", "inv") and not rest:
            return ("inventory",)
        if verb == "look" and rest[:1] == ["at"]:
            verb, rest = "examine", rest[1:]
        if verb == "pick" and rest[:1] == ["up"]:
            rest = rest[1:]
        if verb == "put" and rest[:1] == ["down"]:
            verb, rest = "drop", rest[1:]
        if not rest:
            raise InvalidAction(f"unknown command {answer[:40]!r}; " + _HELP)
        if verb in _TAKE:
            if "from" in rest:
                rest = rest[: rest.index("from")]
            return self._checked_take(self._resolve(rest))
        if verb == "drop":
            return self._checked_drop(self._resolve(rest))
        if verb in _EXAMINE:
            return ("examine", self._resolve(rest))
        if verb == "open":
            return self._checked_open(self._resolve(rest))
        if verb in ("close", "shut"):
            return self._checked_close(self._resolve(rest))
        if verb == "unlock":
            return self._checked_unlock(rest)
        if verb in ("put", "place", "insert"):
            return self._checked_put(rest)
        raise InvalidAction(f"unknown command {answer[:40]!r}; " + _HELP)

    def _scope(self) -> dict[str, list[int]]:
        """Visible entities by every word of their names (and the full names)."""
        game = self._game
        key = game.state()
        if self._scope_cache is not None and self._scope_cache[0] == key:
            return self._scope_cache[1]
        scope: dict[str, list[int]] = {}
        for thing in game.visible():
            name = self._names[thing]
            scope.setdefault(name, []).append(thing)
            for word in name.split():
                if word != name:
                    scope.setdefault(word, []).append(thing)
        self._scope_cache = (key, scope)
        return scope

    def _resolve(self, words: list[str]) -> int:
        """The visible entity ``words`` name."""
        phrase = " ".join(words)
        scope = self._scope()
        found = scope.get(phrase)
        if found is None:
            sets = [set(scope.get(word, ())) for word in words]
            found = sorted(set.intersection(*sets)) if sets else []
        if not found:
            raise InvalidAction(f"you see no {phrase!r} here")
        if len(found) > 1:
            options = _listing([f"the {self._names[t]}" for t in found])
            raise InvalidAction(f"{phrase!r} could mean {options}; say which")
        return found[0]

    def _checked_go(self, direction: str) -> Command:
        world, game = self._world, self._game
        for d, _, door in world.exits[game.room]:
            if d == direction:
                if door >= 0 and game.doors[door] != OPEN:
                    raise InvalidAction(
                        f"the {world.door_names[door]} to the {direction} is "
                        f"{'closed' if game.doors[door] == CLOSED else 'locked'}; "
                        "open it first"
                    )
                return ("go", direction)
        raise InvalidAction(f"there is no exit to the {direction} of the {world.rooms[game.room]}")

    def _checked_take(self, thing: int) -> Command:
        world, game = self._world, self._game
        if world.kind(thing) != "object":
            raise InvalidAction(f"the {self._names[thing]} cannot be taken")
        if game.places[thing] == CARRIED:
            raise InvalidAction(f"you already carry the {self._names[thing]}")
        return ("take", thing)

    def _checked_drop(self, thing: int) -> Command:
        if self._world.kind(thing) != "object" or self._game.places[thing] != CARRIED:
            raise InvalidAction(f"you do not carry the {self._names[thing]}")
        return ("drop", thing)

    def _state_of(self, thing: int) -> int | None:
        """The open/closed/locked state of a door or container (None: it has none)."""
        world, game = self._world, self._game
        kind = world.kind(thing)
        if kind == "door":
            return game.doors[thing - world.door_entity(0)]
        if kind == "receptacle":
            rec = thing - world.receptacle_entity(0)
            return None if world.supporters[rec] else game.receptacles[rec]
        return None

    def _checked_open(self, thing: int) -> Command:
        state = self._state_of(thing)
        name = self._names[thing]
        if state is None:
            raise InvalidAction(f"the {name} cannot be opened")
        if state == OPEN:
            raise InvalidAction(f"the {name} is already open")
        if state == LOCKED:
            raise InvalidAction(f"the {name} is locked; unlock it with its key first")
        return ("open", thing)

    def _checked_close(self, thing: int) -> Command:
        state = self._state_of(thing)
        name = self._names[thing]
        if state is None:
            raise InvalidAction(f"the {name} cannot be closed")
        if state != OPEN:
            raise InvalidAction(f"the {name} is already closed")
        return ("close", thing)

    def _checked_unlock(self, words: list[str]) -> Command:
        world, game = self._world, self._game
        if "with" in words:
            at = words.index("with")
            thing, key = self._resolve(words[:at]), self._resolve(words[at + 1 :])
        else:
            thing = self._resolve(words)
            keys = [obj for obj in game.carried() if world.object_keys[obj]]
            if len(keys) != 1:
                raise InvalidAction(
                    f"say which key: unlock {self._names[thing]} with KEY"
                    if keys
                    else "you carry no key"
                )
            key = keys[0]
        state = self._state_of(thing)
        name = self._names[thing]
        if state is None:
            raise InvalidAction(f"the {name} has no lock")
        if state != LOCKED:
            raise InvalidAction(f"the {name} is not locked")
        if world.kind(key) != "object" or game.places[key] != CARRIED:
            raise InvalidAction(f"you do not carry the {self._names[key]}")
        kind = world.kind(thing)
        needed = (
            world.door_keys[thing - world.door_entity(0)]
            if kind == "door"
            else world.receptacle_keys[thing - world.receptacle_entity(0)]
        )
        if key != needed:
            raise InvalidAction(f"the {self._names[key]} does not fit the {name}")
        return ("unlock", thing, key)

    def _checked_put(self, words: list[str]) -> Command:
        world, game = self._world, self._game
        at = next((i for i, w in enumerate(words) if w in _PUT_WORDS), None)
        if at is None or at == 0 or at == len(words) - 1:
            raise InvalidAction("say where: put X in Y (or put X on Y)")
        obj, target = self._resolve(words[:at]), self._resolve(words[at + 1 :])
        if world.kind(obj) != "object" or game.places[obj] != CARRIED:
            raise InvalidAction(f"you do not carry the {self._names[obj]}")
        if world.kind(target) != "receptacle":
            raise InvalidAction(f"you cannot put things in or on the {self._names[target]}")
        rec = target - world.receptacle_entity(0)
        if game.receptacles[rec] != OPEN:
            raise InvalidAction(f"the {self._names[target]} is closed; open it first")
        return ("put", obj, rec)

    # -- playing -------------------------------------------------------------------------
    def play(self, move: Command) -> MoveResult:
        """Apply the command; the feedback says what happened (the room after ``go``)."""
        world, game = self._world, self._game
        verb = move[0]
        names = self._names
        feedback = ""
        if verb == "examine":
            feedback = self._examine(move[1])
        elif verb == "take" and game.places[move[1]] >= len(world.rooms):
            rec = game.places[move[1]] - len(world.rooms)
            feedback = f"You take the {names[move[1]]} from the {world.receptacle_names[rec]}."
        reached = game.apply(move)
        if verb == "go":
            feedback = f"You go {move[1]}.\n" + self.describe_room()
        elif verb == "look":
            feedback = self.describe_room()
        elif verb == "inventory":
            feedback = self.inventory_text()
        elif verb == "take":
            feedback = feedback or f"You take the {names[move[1]]}."
        elif verb == "drop":
            feedback = f"You drop the {names[move[1]]}."
        elif verb == "open":
            feedback = f"You open the {names[move[1]]}."
            if world.kind(move[1]) == "receptacle":
                held = game.contents(move[1] - world.receptacle_entity(0))
                if held:
                    feedback += " Inside: " + _listing([_article(names[o]) for o in held]) + "."
        elif verb == "close":
            feedback = f"You close the {names[move[1]]}."
        elif verb == "unlock":
            feedback = f"You unlock the {names[move[1]]} with the {names[move[2]]}."
        elif verb == "put":
            rec = move[2]
            feedback = (
                f"You put the {names[move[1]]} {world.preposition(rec)} the "
                f"{world.receptacle_names[rec]}."
            )
        reward = self.subgoal_reward * len(reached)
        if reached:
            feedback += " (A part of the quest is done.)"
        if verb == "put" and game.won:
            feedback += "\n*** You have completed the quest! ***"
            return MoveResult(feedback, reward + 1.0, True, True)
        return MoveResult(feedback, reward)

    def _examine(self, thing: int) -> str:
        world, game = self._world, self._game
        name = self._names[thing]
        kind = world.kind(thing)
        if kind == "door":
            door = thing - world.door_entity(0)
            a, b = world.door_rooms[door]
            state = ("open", "closed", "locked")[game.doors[door]]
            return f"The {name} joins the {world.rooms[a]} and the {world.rooms[b]}. It is {state}."
        if kind == "receptacle":
            return self._describe_receptacle(thing - world.receptacle_entity(0)).capitalize() + "."
        where = "You carry it." if game.places[thing] == CARRIED else "You could take it."
        what = "It is a key; it must open something." if world.object_keys[thing] else ""
        return f"It is {_article(name)}. {what + ' ' if what else ''}{where}"

    # -- the end -------------------------------------------------------------------------
    def score(self, success: bool) -> float:
        """1.0 for a win, else half the fraction of the sub-goals reached."""
        if success:
            return 1.0
        return 0.5 * len(self._game.reached) / subgoal_count(self._world)

    def final_info(self) -> dict[str, Any]:
        """The sub-goals reached and their number."""
        return {
            "subgoals_reached": len(self._game.reached),
            "subgoals_total": subgoal_count(self._world),
        }
