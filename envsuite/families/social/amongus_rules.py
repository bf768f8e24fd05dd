"""The rules of the Among Us-like game, apart from any env: rooms, tasks, kills, meetings.

The data they play on (the map, roles, phases, actions, a game's setup) is in
:mod:`~envsuite.families.social.amongus_setup`.

A game is a deal (each seat's role and each crewmate's tasks) plus rounds of play:

- **Play** (round ``r``): every player who can act takes one turn, in seat order from
  seat ``(r - 1) mod n`` (so no seat always moves first): ``go`` to a room a corridor
  leads to, ``do task`` (a crewmate with an unfinished task in its room; a task takes
  ``task_steps`` turns there), ``kill`` a living crewmate in the room (an impostor whose
  cooldown is over), ``report`` a body in the room, ``call meeting`` (in the button room,
  ``emergency_meetings`` times per player) or ``wait``. Dead crewmates are ghosts: they
  keep their turns (so the turn order never betrays a death), moving and doing tasks
  seen by nobody, and cannot report, call, speak or vote; dead impostors (only ever
  ejected, which everyone saw) are out. The task bar (the crew's task turns done) is
  public but moves only at meetings. Each player sees only its own room: who is there,
  the bodies, who leaves for where and who comes in from where, and a kill done before
  its eyes.
- **Meeting** (after a report or a button): every death since the last meeting is
  announced, bodies are cleared and everyone goes to the button room; a chance event
  picks the first speaker among the living; ``discussion_rounds`` round-robin rounds of
  ``say`` (at most ``max_speech_chars`` characters), ``accuse`` or ``wait``; then each
  living player in seat order votes for another living player or skips, secretly
  until all votes are in. ``skip`` is a candidate of its own: the most votes eject their
  player, unless skip has them; a tie follows ``tie_rule`` (a tie drawn at random may
  draw skip). A new round of play follows, every impostor's cooldown restarted.
- **The end**: the crew wins when every crewmate task is done (ghosts' too) or no
  impostor lives; the impostors win once living impostors are at least as many as living
  crewmates. A game still open after round ``max_rounds`` ends undecided (truncated).

No Gymnasium, PettingZoo or random generator here: the env draws the deal and every chance
event (a first speaker, a tie) and passes them in; bots, tests and benchmarks use the
same class.
"""

from __future__ import annotations

from collections.abc import Sequence

from envsuite.families.social.amongus_setup import (
    CREW,
    CREWMATE,
    IMPOSTOR,
    IMPOSTORS,
    PHASE_KINDS,
    ROLES,
    SKIP_SEAT,
    WAIT,
    Action,
    AmongUsSetup,
    Phase,
)
from envsuite.families.social.channels import Message, MessageLog
from envsuite.families.social.game_log import GameLog
from envsuite.families.social.turn_order import round_robin, within_budget
from envsuite.families.social.voting import tally

#: A sighting: the room a seat saw another in, and the round.
Sighting = tuple[int, int]


class AmongUsGame:
    """One game: the state, the legal actions, playing them, the winner.

    Args:
        setup: The parameters.
        roles: The role of each seat (a permutation of ``setup.base_roles()``).
        tasks: Each seat's task rooms (``tasks_per_player`` distinct room indices for a
            crewmate, none for an impostor).

    Attributes:
        phase: What the game waits for (:class:`Phase`).
        round: The round of play (1 first).
        room: Each seat's room (a ghost's too).
        alive: Whether each seat lives.
        bodies: Unreported bodies: seat -> room.
        progress: Each seat's ``do task`` turns done, per task.
        steps_done: Task turns done by the whole crew (hidden; ``task_bar`` is public).
        task_bar: ``steps_done`` as of the last meeting (what every player sees).
        winner: ``"crew"`` or ``"impostors"`` once decided, else None.
        known_dead: Per seat, the seats it knows are dead (saw the body or the kill, or
            heard it announced).
        known_team: Per seat, what it knows of each seat's team (None: unknown).
        last_seen: Per seat, where and when it last saw each other living seat.
        log: Every message, and each seat's view of them.
        game_log: The setup, the deal and every entry (replays the game).

    """

    def __init__(
        self,
        setup: AmongUsSetup,
        roles: Sequence[str],
        tasks: Sequence[Sequence[int]],
    ) -> None:
        if sorted(roles) != sorted(setup.base_roles()):
            raise ValueError(f"roles {tuple(roles)!r} are not a deal of {setup.base_roles()!r}")
        n = setup.num_players
        if len(tasks) != n:
            raise ValueError(f"tasks must list {n} seats, got {len(tasks)}")
        for seat, rooms in enumerate(tasks):
            wanted = setup.tasks_per_player if roles[seat] == CREWMATE else 0
            valid = all(isinstance(r, int) and 0 <= r < len(setup.rooms) for r in rooms)
            if len(set(rooms)) != len(rooms) or len(rooms) != wanted or not valid:
                raise ValueError(f"seat {seat} needs {wanted} distinct task rooms, got {rooms!r}")
        self.setup = setup
        self.names = setup.names
        self.roles = tuple(roles)
        self.teams = tuple(ROLES[role].team for role in self.roles)
        self.tasks = tuple(tuple(int(r) for r in rooms) for rooms in tasks)
        self.impostors = tuple(seat for seat in range(n) if self.roles[seat] == IMPOSTOR)
        self.progress = [[0] * len(rooms) for rooms in self.tasks]
        self.total_steps = sum(len(rooms) for rooms in self.tasks) * setup.task_steps
        self.steps_done = 0
        # The public task bar: task steps done as of the last meeting (updated only then,
        # so watching it turn by turn cannot tell who did a task and who only waited).
        self.task_bar = 0
        self.room = [setup.button] * n
        self.alive = [True] * n
        self.bodies: dict[int, int] = {}
        self.announced: set[int] = set()
        self.buttons = [setup.emergency_meetings] * n
        self.next_kill = [1 + setup.kill_cooldown] * n
        self.round = 1
        self.phase = Phase.PLAY
        self.winner: str | None = None
        self.truncated = False
        self.queue: list[int] = []
        self.chance_kind = ""
        self.chance_options: tuple[int, ...] = ()
        self.votes: list[tuple[int, int]] = []
        self.meetings = 0
        self.log = MessageLog(n)
        self.game_log = GameLog(
            {**setup.to_dict(), "tasks": [list(rooms) for rooms in self.tasks]}, self.roles
        )
        self.known_dead: list[set[int]] = [set() for _ in range(n)]
        self.known_team: list[list[str | None]] = [[None] * n for _ in range(n)]
        self.last_seen: list[list[Sighting | None]] = [[None] * n for _ in range(n)]
        # Public structured history: votes cast (voter, target) and accusations.
        self.vote_counts = [[0] * n for _ in range(n)]
        self.accusations = [[0] * n for _ in range(n)]
        self._deal_messages()
        self._look(setup.button)
        self._start_round()

    # -- queries ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether the game has ended (decided or undecided)."""
        return self.phase is Phase.OVER

    @property
    def to_move(self) -> int | None:
        """The seat to act, or None (a chance event is pending, or the game is over)."""
        return self.queue[0] if self.queue else None

    def living(self) -> list[int]:
        """The living seats, in seat order."""
        return [seat for seat in range(self.setup.num_players) if self.alive[seat]]

    def present(self, seat: int) -> bool:
        """Whether ``seat`` is on the map (alive, or a crewmate's ghost)."""
        return self.alive[seat] or self.roles[seat] == CREWMATE

    def tasks_left(self, seat: int) -> list[int]:
        """The rooms of ``seat``'s unfinished tasks, in the order dealt."""
        steps = self.setup.task_steps
        return [
            r for r, done in zip(self.tasks[seat], self.progress[seat], strict=True) if done < steps
        ]

    def cooldown(self, seat: int) -> int:
        """Rounds before impostor ``seat`` may kill (0: now)."""
        return max(0, self.next_kill[seat] - self.round)

    def sight(self, seat: int) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """What ``seat`` sees now: its room, the living others there, the bodies there.

        A dead impostor is off the map and sees nobody; ghosts are seen by nobody.
        """
        room = self.room[seat]
        if not self.present(seat):
            return room, (), ()
        here = tuple(
            other
            for other in range(self.setup.num_players)
            if other != seat and self.alive[other] and self.room[other] == room
        )
        bodies = tuple(sorted(body for body, where in self.bodies.items() if where == room))
        return room, here, bodies

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` (empty unless it is the seat to move).

        Any ``say`` message is legal in a discussion; the list holds one, ``say`` with no
        text, to stand for them.
        """
        if self.to_move != seat:
            return []
        others = [other for other in self.living() if other != seat]
        if self.phase is Phase.DISCUSSION:
            return [WAIT, Action("say")] + [Action("accuse", other) for other in others]
        if self.phase is Phase.VOTE:
            return [WAIT] + [Action("vote", other) for other in others]
        room, here, bodies = self.sight(seat)
        actions = [WAIT] + [Action("go", nxt) for nxt in self.setup.neighbours[room]]
        if room in self.tasks_left(seat):
            actions.append(Action("task"))
        if not self.alive[seat]:
            return actions
        if self.roles[seat] == IMPOSTOR and self.cooldown(seat) == 0:
            actions += [Action("kill", x) for x in here if self.roles[x] == CREWMATE]
        if bodies:
            actions.append(Action("report"))
        if room == self.setup.button and self.buttons[seat] > 0:
            actions.append(Action("button"))
        return actions

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not play ``action`` now (one reason, in a fixed order), or None."""
        if self.over:
            return "the game is over"
        if self.to_move != seat:
            return "it is not your turn"
        if action.kind not in PHASE_KINDS[self.phase]:
            allowed = ", ".join(_VERBS[kind] for kind in PHASE_KINDS[self.phase])
            return (
                f"'{_VERBS.get(action.kind, action.kind)}' is not allowed now; allowed: {allowed}"
            )
        room, here, bodies = self.sight(seat)
        target = action.target
        ghost = not self.alive[seat]
        if ghost and action.kind in ("kill", "report", "button"):
            return "you are a ghost: you may only move, do tasks and wait"
        if action.kind == "go":
            assert target is not None
            if target not in self.setup.neighbours[room]:
                exits = ", ".join(self.setup.rooms[r] for r in self.setup.neighbours[room])
                here_name, there = self.setup.rooms[room], self.setup.rooms[target]
                return f"no corridor leads from {here_name} to {there}; exits: {exits}"
        elif action.kind == "task":
            if self.roles[seat] != CREWMATE:
                return "impostors have no tasks"
            if room not in self.tasks_left(seat):
                return f"you have no unfinished task in {self.setup.rooms[room]}"
        elif action.kind == "kill":
            assert target is not None
            if self.roles[seat] != IMPOSTOR:
                return "only an impostor may kill"
            if self.cooldown(seat) > 0:
                return f"your kill cooldown has {self.cooldown(seat)} more rounds"
            if target == seat:
                return "you may not kill yourself"
            if not self.alive[target] or target not in here:
                return f"{self.names[target]} is not alive in {self.setup.rooms[room]} with you"
            if self.roles[target] == IMPOSTOR:
                return f"{self.names[target]} is a fellow impostor"
        elif action.kind == "report":
            if not bodies:
                return f"there is no body in {self.setup.rooms[room]}"
        elif action.kind == "button":
            if room != self.setup.button:
                return f"the emergency button is in {self.setup.button_room}"
            if self.buttons[seat] == 0:
                return "you have no emergency meetings left"
        elif action.kind in ("accuse", "vote"):
            assert target is not None
            if target == seat:
                return f"you may not {action.kind} yourself"
            if not self.alive[target]:
                return f"{self.names[target]} is dead"
        return None

    def chance_outcomes(self) -> tuple[int, ...]:
        """The equally likely outcomes of the pending chance event (seats; -1 is skip)."""
        return self.chance_options

    # -- playing -----------------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        """Play ``seat``'s legal ``action`` (check it with :meth:`illegal_reason` first).

        Raises:
            ValueError: the action is illegal.
        """
        reason = self.illegal_reason(seat, action)
        if reason is not None:
            raise ValueError(f"illegal action for seat {seat}: {reason}")
        value = within_budget(action.value, self.setup.max_speech_chars)
        self.game_log.entries.append(("act", seat, action.kind, action.target, value))
        self.queue.pop(0)
        if self.phase is Phase.PLAY:
            self._play(seat, action)
        elif self.phase is Phase.DISCUSSION:
            self._discuss(seat, action, value)
        else:
            self.votes.append((seat, SKIP_SEAT if action.target is None else action.target))
            if not self.queue:
                self._count_votes()

    def forfeit_turn(self, seat: int) -> None:
        """``seat``'s turn passes with nothing done (its action was refused): ``wait``."""
        self.apply(seat, WAIT)

    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending chance event with ``outcome`` (one of :meth:`chance_outcomes`).

        Raises:
            ValueError: no chance event is pending, or ``outcome`` is not one of its outcomes.
        """
        if self.phase is not Phase.CHANCE or outcome not in self.chance_options:
            raise ValueError(f"{outcome!r} is not an outcome of the pending chance event")
        self.game_log.entries.append(("chance", outcome))
        if self.chance_kind == "speaker":
            self.phase = Phase.DISCUSSION
            self.queue = round_robin(self.living(), outcome, self.setup.discussion_rounds)
        else:
            self._eject(None if outcome == SKIP_SEAT else outcome)

    @classmethod
    def replay(cls, log: GameLog) -> AmongUsGame:
        """The game ``log`` records, played again from its setup, deal and entries."""
        setup_data = dict(log.setup)
        tasks = setup_data.pop("tasks")
        setup_data["corridors"] = tuple(tuple(pair) for pair in setup_data["corridors"])
        game = cls(AmongUsSetup(**setup_data), log.roles, tasks)
        for entry in log.entries:
            if entry[0] == "chance":
                game.apply_chance(entry[1])
            else:
                _, seat, kind, target, value = entry
                game.apply(seat, Action(kind, target, value))
        return game

    # -- play phase --------------------------------------------------------------------------
    def _play(self, seat: int, action: Action) -> None:
        room = self.room[seat]
        kind = action.kind
        if kind == "go":
            assert action.target is not None
            self._move(seat, room, action.target)
        elif kind == "task":
            index = self.tasks[seat].index(room)
            self.progress[seat][index] += 1
            self.steps_done += 1
            if self.progress[seat][index] == self.setup.task_steps:
                self._post("task", None, {seat}, f"You finished your task in {self._room(room)}.")
            if self.steps_done == self.total_steps:
                self._end(CREW, "Every task is done: the crew wins.")
                return
        elif kind == "kill":
            assert action.target is not None
            self._kill(seat, action.target, room)
            if self.over:
                return
        elif kind in ("report", "button"):
            self._meeting(seat, kind, room)
            return
        if not self.queue:
            self._next_round()

    def _move(self, seat: int, old: int, new: int) -> None:
        name = self.names[seat]
        self.room[seat] = new
        _, here, bodies = self.sight(seat)
        text = f"You went to {self._room(new)}: "
        text += ", ".join(self.names[s] for s in here) + " here." if here else "nobody here."
        if bodies:
            text += f" Bodies: {', '.join(self.names[s] for s in bodies)}."
        self._post("move", seat, {seat}, text, value=str(new))
        if self.alive[seat]:  # a ghost comes and goes unseen
            self._post(
                "leave",
                seat,
                self._watchers(old),
                f"{name} left for {self._room(new)}.",
                None,
                str(new),
            )
            self._post(
                "arrive",
                seat,
                self._watchers(new) - {seat},
                f"{name} came in from {self._room(old)}.",
                None,
                str(old),
            )
        self._look(new)

    def _kill(self, killer: int, victim: int, room: int) -> None:
        self.alive[victim] = False
        self.bodies[victim] = room
        self.next_kill[killer] = self.round + self.setup.kill_cooldown
        witnesses = self._watchers(room) | {killer, victim}
        text = f"{self.names[killer]} killed {self.names[victim]} in {self._room(room)}."
        self._post("kill", killer, witnesses, text, victim, str(room))
        self._look(room)
        self._check_parity()

    # -- meetings ----------------------------------------------------------------------------
    def _meeting(self, seat: int, kind: str, room: int) -> None:
        self.meetings += 1
        name = self.names[seat]
        if kind == "report":
            found = [body for body, where in sorted(self.bodies.items()) if where == room]
            bodies = " and ".join(f"{self.names[b]}'s" for b in found)
            noun = "bodies" if len(found) > 1 else "body"
            text = f"{name} reported {bodies} {noun} in {self._room(room)}: a meeting begins."
            self._post("report", seat, None, text, found[0], str(room))
        else:
            self.buttons[seat] -= 1
            text = f"{name} called an emergency meeting in {self._room(room)}."
            self._post("button", seat, None, text, None, str(room))
        dead = [s for s in range(self.setup.num_players) if not self.alive[s]]
        for body in dead:
            if body not in self.announced:
                self.announced.add(body)
                self._post("dead", None, None, f"{self.names[body]} is dead.", body)
        for known in self.known_dead:
            known.update(dead)
        self.bodies.clear()
        self.task_bar = self.steps_done
        self.room = [self.setup.button] * self.setup.num_players
        self._look(self.setup.button)
        self.votes = []
        if self.setup.discussion_rounds > 0:
            self._chance("speaker", tuple(self.living()))
        else:
            self._open_vote()

    def _discuss(self, seat: int, action: Action, value: str) -> None:
        name = self.names[seat]
        if action.kind == "say":
            self._post("speech", seat, None, f"{name} said: {value}", value=value)
        elif action.kind == "accuse":
            assert action.target is not None
            self.accusations[seat][action.target] += 1
            self._post(
                "accuse", seat, None, f"{name} accused {self.names[action.target]}.", action.target
            )
        else:
            self._post("silence", seat, None, f"{name} said nothing.")
        if not self.queue:
            self._open_vote()

    def _open_vote(self) -> None:
        self.phase = Phase.VOTE
        self.queue = self.living()

    def _count_votes(self) -> None:
        for voter, target in self.votes:
            if target == SKIP_SEAT:
                self._post("vote", voter, None, f"{self.names[voter]} voted to skip.")
            else:
                self.vote_counts[voter][target] += 1
                text = f"{self.names[voter]} voted for {self.names[target]}."
                self._post("vote", voter, None, text, target)
        result = tally([target for _, target in self.votes], self.setup.tie_rule)
        if result.needs_draw:
            self._chance("tie", tuple(sorted(result.leaders)))
        else:
            self._eject(None if result.chosen in (None, SKIP_SEAT) else result.chosen)

    def _eject(self, seat: int | None) -> None:
        if seat is None:
            self._post("no_eject", None, None, "Nobody was ejected.")
        else:
            self.alive[seat] = False
            self.announced.add(seat)
            for dead in self.known_dead:
                dead.add(seat)
            text = f"{self.names[seat]} was ejected."
            role = ""
            if self.setup.reveal_role_on_eject:
                role = self.roles[seat]
                text += f" {self.names[seat]} was {_article(role)}."
                for row in self.known_team:
                    row[seat] = self.teams[seat]
            self._post("eject", None, None, text, seat, role)
            if not any(self.alive[s] for s in self.impostors):
                self._end(CREW, "No impostor is left: the crew wins.")
                return
            self._check_parity()
            if self.over:
                return
        self._next_round(after_meeting=True)

    # -- rounds, sight and the end -----------------------------------------------------------
    def _start_round(self) -> None:
        n = self.setup.num_players
        first = (self.round - 1) % n
        order = [(first + k) % n for k in range(n)]
        self.phase = Phase.PLAY
        self.queue = [s for s in order if self.present(s)]

    def _next_round(self, after_meeting: bool = False) -> None:
        self.round += 1
        if self.round > self.setup.max_rounds:
            self.truncated = True
            self._end(None, f"Round {self.setup.max_rounds} is over: the game ends undecided.")
            return
        if after_meeting:
            for seat in self.impostors:
                self.next_kill[seat] = self.round + self.setup.kill_cooldown
        self._start_round()

    def _check_parity(self) -> None:
        living = self.living()
        bad = sum(self.roles[s] == IMPOSTOR for s in living)
        if bad >= len(living) - bad:
            self._end(IMPOSTORS, "The impostors are as many as the crew: the impostors win.")

    def _end(self, winner: str | None, text: str) -> None:
        self.winner = winner
        self.task_bar = self.steps_done
        self.phase = Phase.OVER
        self.queue = []
        self._post("end", None, None, text, value=winner or "")
        for seat in range(self.setup.num_players):
            self.known_team[seat] = list(self.teams)

    def _chance(self, kind: str, options: tuple[int, ...]) -> None:
        self.phase = Phase.CHANCE
        self.queue = []
        self.chance_kind = kind
        self.chance_options = options

    def _watchers(self, room: int) -> set[int]:
        """The seats on the map in ``room`` (the living and the ghosts): who sees it."""
        return {
            s for s in range(self.setup.num_players) if self.room[s] == room and self.present(s)
        }

    def _look(self, room: int) -> None:
        """Everyone in ``room`` sees the living there and the bodies there."""
        watchers = self._watchers(room)
        living = [s for s in watchers if self.alive[s]]
        bodies = [b for b, where in self.bodies.items() if where == room]
        for seat in watchers:
            row = self.last_seen[seat]
            for other in living:
                if other != seat:
                    row[other] = (room, self.round)
            self.known_dead[seat].update(bodies)

    def _deal_messages(self) -> None:
        for seat, role in enumerate(self.roles):
            self.known_team[seat][seat] = self.teams[seat]
            text = f"You are {self.names[seat]}, {_article(role)}."
            self._post("role", None, {seat}, text, seat, role)
            if role == IMPOSTOR:
                for other in self.impostors:
                    self.known_team[seat][other] = IMPOSTORS
                if len(self.impostors) > 1:
                    names = " and ".join(self.names[s] for s in self.impostors)
                    self._post("team", None, {seat}, f"The impostors are {names}.", value=IMPOSTORS)
            else:
                rooms = ", ".join(self._room(r) for r in self.tasks[seat])
                self._post("tasks", None, {seat}, f"Your tasks are in {rooms}.")

    def _room(self, room: int) -> str:
        return self.setup.rooms[room]

    def _post(
        self,
        kind: str,
        sender: int | None,
        audience: set[int] | None,
        text: str,
        subject: int | None = None,
        value: str = "",
    ) -> None:
        frozen = None if audience is None else frozenset(audience)
        if frozen is not None and not frozen:
            return
        self.log.post(Message(self.round, kind, sender, frozen, text, subject, value))


def _article(role: str) -> str:
    return "an impostor" if role == IMPOSTOR else "a crewmate"


#: How the grammar writes each action kind (for error messages).
_VERBS = {
    "wait": "wait",
    "go": "go ROOM",
    "task": "do task",
    "kill": "kill NAME",
    "report": "report",
    "button": "call meeting",
    "say": "say: MESSAGE",
    "accuse": "accuse NAME",
    "vote": "vote NAME",
}
