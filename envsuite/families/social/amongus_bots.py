"""Scripted Among Us players at two strengths, usable as ``--agent`` seats.

- :class:`RandomLegalBot`: a uniformly random legal action (``say`` aside).
- :class:`BeliefBot`: keeps a suspicion score per player from what its seat saw and heard
  and plays its role on it:

  - crewmate: reports a body it finds; calls a meeting after witnessing a kill; else
    does the task in its room or walks the shortest way to the nearest unfinished one
    (ghosts too), wandering once done. Suspicion: a kill seen is certain (+100); on
    learning of a death (a body found, a death announced) the players it last saw with
    the victim share +2 (less the longer ago), and those standing by a body it finds
    share +0.5; an accusation adds 0.3 (from an unsuspected accuser; one against itself
    makes the accuser +0.5 suspect); voting for a crewmate later revealed adds 0.5. It
    accuses and votes for the top suspect at 1 or more, else waits and skips;
  - impostor: kills a crewmate it finds alone (cooldown permitting), otherwise walks at
    random or waits as if on a task; in meetings it accuses and votes with the crowd
    (the crewmate most accused in this meeting), else against whoever accused it, else
    skips.

  Ties are broken by the bot's own generator (seeded by ``reset``).

Both answer belief probes (``info["probe"]``; see
:mod:`~envsuite.families.social.amongus_measures`): the random bot ``uniform``, the
belief bot its suspicion read as probabilities (:meth:`BeliefBot.posterior`, by
:func:`~envsuite.families.social.amongus_beliefs.impostor_probabilities`), as JSON.

Both read only their own seat's sight (``game.sight(seat)``), message view
(``game.log.view(seat)``), memory rows and tasks, never another seat's role. The seat
is the env's agent to move when ``act`` is called. Use one per seat, e.g.
``--agent player_0=envsuite.families.social.amongus_bots:BeliefBot,player_1=random``.
A bot made without an env plays a bare
:class:`~envsuite.families.social.amongus_rules.AmongUsGame` through ``choose(game,
seat)``, as the benchmark's raw engine loop does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from envsuite.families.social.amongus_beliefs import impostor_probabilities
from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import (
    CREW,
    CREWMATE,
    IMPOSTOR,
    IMPOSTORS,
    WAIT,
    Action,
    Phase,
)
from envsuite.families.social.belief_probes import format_answer
from envsuite.families.social.seat_bot import RandomLegalSeatBot, SeatBot

#: Suspicion at which a crewmate accuses and votes.
SUSPECT = 1.0
#: Suspicion a witnessed kill adds.
WITNESSED = 100.0


class _SeatBot(SeatBot):
    """What both bots share (:class:`~envsuite.families.social.seat_bot.SeatBot`), tie-breaking."""

    RNG_LABEL: ClassVar[str] = "amongus-bot"

    def pick(self, options: Sequence[Any]) -> Any:
        """One of ``options``, uniformly, from the bot's generator."""
        return options[int(self.rng.integers(len(options)))]

    def best(self, scores: Mapping[int, float]) -> int:
        """The key with the highest score (ties broken at random)."""
        top = max(scores.values())
        return self.pick(sorted(seat for seat, score in scores.items() if score >= top - 1e-9))


class RandomLegalBot(RandomLegalSeatBot):
    """Plays a uniformly random legal action (``say`` aside): the weakest baseline."""

    RNG_LABEL: ClassVar[str] = "amongus-bot"


class BeliefBot(_SeatBot):
    """Plays from suspicion scores built from its own sightings and meetings (see the module)."""

    def __init__(self, env: Any = None) -> None:
        super().__init__(env)
        self._game: AmongUsGame | None = None
        self.suspicion: dict[int, float] = {}
        self._cursor = 0
        self._deaths: set[int] = set()
        self._with: dict[int, tuple[int, frozenset[int]]] = {}
        self._meeting_votes: list[tuple[int, int]] = []
        self._meeting_accused: dict[int, int] = {}
        self._accused_me: list[int] = []

    # -- memory ------------------------------------------------------------------------
    def observe(self, game: AmongUsGame, seat: int) -> None:
        """Update the suspicion scores from what ``seat`` sees now and every new message."""
        if self._game is not game:
            self._game = game
            self.suspicion = dict.fromkeys(range(game.setup.num_players), 0.0)
            self._cursor = 0
            self._deaths = set()
            self._with = {}
            self._meeting_votes, self._meeting_accused, self._accused_me = [], {}, []
        _, here, bodies = game.sight(seat)
        for other in here:
            self._with[other] = (game.round, frozenset(here) - {other})
        for body in bodies:
            self._death(game, body, here)
        view = game.log.view(seat)
        for message in view[self._cursor :]:
            self._read(game, seat, message.kind, message.sender, message.subject, message.value)
        self._cursor = len(view)

    def _read(
        self,
        game: AmongUsGame,
        seat: int,
        kind: str,
        sender: int | None,
        subject: int | None,
        value: str,
    ) -> None:
        if kind == "kill" and sender is not None and sender != seat:
            self.suspicion[sender] += WITNESSED
        elif kind == "dead" and subject is not None:
            self._death(game, subject, ())
        elif kind in ("report", "button"):
            self._meeting_votes, self._meeting_accused, self._accused_me = [], {}, []
        elif kind == "accuse" and sender is not None and subject is not None:
            self._meeting_accused[subject] = self._meeting_accused.get(subject, 0) + 1
            if subject == seat:
                self._accused_me.append(sender)
                if game.roles[seat] == CREWMATE:
                    self.suspicion[sender] += 0.5
            elif self.suspicion[sender] < SUSPECT:
                self.suspicion[subject] += 0.3
        elif kind == "vote" and sender is not None and subject is not None:
            self._meeting_votes.append((sender, subject))
        elif kind == "eject" and subject is not None:
            self._deaths.add(subject)
            if value == CREWMATE:
                for voter, target in self._meeting_votes:
                    if target == subject and voter != seat:
                        self.suspicion[voter] += 0.5
            self.suspicion[subject] = 0.0

    def _death(self, game: AmongUsGame, victim: int, here: Sequence[int]) -> None:
        """Learning that ``victim`` died: suspect who was last seen with it, and by the body."""
        if victim in self._deaths:
            return
        self._deaths.add(victim)
        seen = self._with.get(victim)
        if seen is not None and seen[1]:
            fresh = 1.0 / (1.0 + (game.round - seen[0]) / 3.0)
            for other in seen[1]:
                self.suspicion[other] += 2.0 * fresh / len(seen[1])
        for other in here:
            self.suspicion[other] += 0.5 / len(here)

    def posterior(self, game: AmongUsGame, seat: int) -> np.ndarray:
        """P(each seat is an impostor) from the suspicion scores and ``seat``'s knowledge."""
        self.observe(game, seat)
        known = game.known_team[seat]
        view = game.log.view(seat)
        ejected = {m.subject for m in view if m.kind == "eject" and m.subject is not None}
        dead = set(game.known_dead[seat])
        crew = {s for s, team in enumerate(known) if team == CREW} | (dead - ejected)
        impostors = {s for s, team in enumerate(known) if team == IMPOSTORS}
        scores = [self.suspicion[s] for s in range(game.setup.num_players)]
        return impostor_probabilities(scores, game.setup.num_impostors, crew, impostors, dead)

    def answer_probe(self, game: AmongUsGame, seat: int) -> str:
        """Its :meth:`posterior` probability that each other player is an impostor, as JSON."""
        posterior = self.posterior(game, seat)
        others = range(game.setup.num_players)
        return format_answer({game.names[s]: float(posterior[s]) for s in others if s != seat})

    # -- playing -----------------------------------------------------------------------
    def choose(self, game: AmongUsGame, seat: int) -> Action:
        """The role's move in this phase (see the module)."""
        self.observe(game, seat)
        if game.roles[seat] == IMPOSTOR:
            return self._impostor(game, seat)
        others = [s for s in game.living() if s != seat]
        suspects = {s: self.suspicion[s] for s in others}
        top = self.best(suspects) if suspects else None
        sure = top is not None and suspects[top] >= SUSPECT
        if game.phase is Phase.DISCUSSION:
            return Action("accuse", top) if sure else WAIT
        if game.phase is Phase.VOTE:
            return Action("vote", top) if sure else WAIT
        return self._crew_play(game, seat, top is not None and suspects[top] >= WITNESSED)

    def _crew_play(self, game: AmongUsGame, seat: int, witnessed: bool) -> Action:
        legal = game.legal_actions(seat)
        kinds = {action.kind for action in legal}
        if "report" in kinds:
            return Action("report")
        if witnessed and "button" in kinds:
            return Action("button")
        if "task" in kinds:
            return Action("task")
        room = game.room[seat]
        setup = game.setup
        goal: list[int] = []
        if witnessed and game.alive[seat] and game.buttons[seat] > 0:
            goal = [setup.button]
        goal = goal or game.tasks_left(seat)
        if not goal:
            steps = [a for a in legal if a.kind == "go"]
            return self.pick(steps) if steps else WAIT
        nearest = min(setup.distances[room][g] for g in goal)
        targets = [g for g in goal if setup.distances[room][g] == nearest]
        moves = [
            nxt
            for nxt in setup.neighbours[room]
            if any(setup.distances[nxt][g] == nearest - 1 for g in targets)
        ]
        return Action("go", self.pick(moves)) if moves else WAIT

    def _impostor(self, game: AmongUsGame, seat: int) -> Action:
        known = game.known_team[seat]
        crew = [s for s in game.living() if known[s] != IMPOSTORS]
        if game.phase is not Phase.PLAY:
            crowd = {s: self._meeting_accused.get(s, 0) for s in crew}
            blamed = [s for s in self._accused_me if s in crew]
            if crowd and max(crowd.values()) > 0:
                target = self.best(crowd)
            elif blamed:
                target = self.pick(blamed)
            else:
                return WAIT
            return Action("accuse" if game.phase is Phase.DISCUSSION else "vote", target)
        room, here, bodies = game.sight(seat)
        victims = [s for s in here if s in crew]
        if game.alive[seat] and game.cooldown(seat) == 0 and len(victims) == 1:
            return Action("kill", victims[0])
        exits = list(game.setup.neighbours[room])
        if bodies or self.rng.random() < 0.6:
            return Action("go", self.pick(exits))
        return WAIT
