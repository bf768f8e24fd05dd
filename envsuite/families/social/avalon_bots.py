"""Scripted Avalon players at two strengths, usable as ``--agent`` seats; the oracle.

- :class:`RandomLegalBot`: a uniformly random legal action (``say`` aside).
- :class:`BeliefBot`: keeps an :class:`~envsuite.families.social.avalon_beliefs.AvalonBelief`
  (Bayes over evil sets and Merlin's seat, from its role, its sight, proposals, votes
  and quest results) and acts on it:

  - good leader: itself and the players least likely evil; good voter: approves its own
    team, any team on the fifth proposal (a fifth rejection loses), and otherwise a team
    whose chance of holding no evil is at least ``APPROVE_RATIO`` times that of the team
    it would propose; in the discussion it names the player it suspects most when that
    player is likelier evil than not;
  - Merlin (a heuristic to stay hidden): proposes teams of players it knows good, rejects
    teams holding a player it sees as evil, except that while evil has failed fewer than
    two quests it approves such a team with probability ``MERLIN_BLUFF``; it never
    speaks;
  - evil leader: itself and players not known to it as evil; evil voter: approves a team
    holding a player it knows evil (itself included), rejects a clean one (always on the
    fifth proposal, where a rejection wins); on a quest it fails, unless one fail card is
    enough and a fellow evil player it knows sits on the team at a lower seat (that one
    fails);
  - the assassin (a heuristic): names the player its belief makes likeliest Merlin (the
    one whose proposals and votes best fit knowing the evil).

  Ties and the bluff are drawn from the bot's own generator (seeded by ``reset``).

Both answer belief probes (``info["probe"]``; see
:mod:`~envsuite.families.social.avalon_measures`): the random bot ``uniform``, the
belief bot its exact posterior probability that each other player is evil (as JSON).

Both read only their own seat's view (``game.view(seat)``), its knowledge row
(``game.known[seat]``) and the public state, never another seat's role. Use one per seat,
e.g. ``--agent player_0=envsuite.families.social.avalon_bots:BeliefBot,player_1=random``;
a bot made without an env plays a bare
:class:`~envsuite.families.social.avalon_rules.AvalonGame` through ``choose(game, seat)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from envsuite.families.social.avalon_beliefs import AvalonBelief
from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import (
    EVIL,
    MAX_REJECTIONS,
    MERLIN,
    MORGANA,
    PASS,
    AvalonAction,
    Phase,
)
from envsuite.families.social.belief_probes import format_answer
from envsuite.families.social.seat_bot import RandomLegalSeatBot, SeatBot

#: A good voter approves a team at least this fraction as likely clean as its own.
APPROVE_RATIO = 0.7
#: How often Merlin approves a team holding evil it sees (while evil has < 2 failures).
MERLIN_BLUFF = 0.2
#: A good player speaks up about a player this likely evil.
SUSPECT_LEVEL = 0.5


class _SeatBot(SeatBot):
    """What both bots share (:class:`~envsuite.families.social.seat_bot.SeatBot`), tie-breaking."""

    RNG_LABEL: ClassVar[str] = "avalon-bot"

    def best(self, scores: Mapping[int, float], count: int = 1) -> list[int]:
        """The ``count`` keys with the highest scores (ties broken at random)."""
        keys = sorted(scores)
        noise = self.rng.random(len(keys))
        ranked = sorted(range(len(keys)), key=lambda i: (-scores[keys[i]], noise[i]))
        return [keys[i] for i in ranked[:count]]


class RandomLegalBot(RandomLegalSeatBot):
    """Plays a uniformly random legal action (``say`` aside): the weakest baseline."""

    RNG_LABEL: ClassVar[str] = "avalon-bot"


class BeliefBot(_SeatBot):
    """Plays from a Bayesian belief over role assignments (see the module)."""

    def __init__(self, env: Any = None) -> None:
        super().__init__(env)
        self._game: AvalonGame | None = None
        self._belief: AvalonBelief | None = None

    def belief(self, game: AvalonGame, seat: int) -> AvalonBelief:
        """The bot's belief for ``seat`` of ``game``, brought up to date."""
        if self._game is not game or self._belief is None:
            setup = game.setup
            self._game = game
            self._belief = AvalonBelief(
                setup.num_players, setup.num_evil, MERLIN in setup.special_roles
            )
            known = game.known[seat]
            self._belief.know(seat, game.roles[seat], known, MORGANA in setup.special_roles)
        self._belief.update(game.view(seat))
        return self._belief

    def answer_probe(self, game: AvalonGame, seat: int) -> str:
        """Its posterior probability that each other player is evil, as JSON."""
        evil = self.belief(game, seat).evil_probabilities()
        others = range(game.setup.num_players)
        return format_answer({game.names[s]: float(evil[s]) for s in others if s != seat})

    def choose(self, game: AvalonGame, seat: int) -> AvalonAction:
        """The role's move in this phase (see the module)."""
        belief = self.belief(game, seat)
        evil = game.teams[seat] == EVIL
        phase = game.phase
        if phase is Phase.DISCUSSION:
            return PASS if evil else self._speak(game, seat, belief)
        if phase is Phase.PROPOSE:
            return AvalonAction("propose", self._team(game, seat, belief))
        if phase is Phase.VOTE:
            approve = self._approves(game, seat, belief)
            return AvalonAction("approve" if approve else "reject")
        if phase is Phase.QUEST:
            return AvalonAction("fail" if evil and self._fails(game, seat) else "success")
        merlin = belief.merlin_probabilities()
        targets = game.assassin_targets(seat)
        return AvalonAction("assassinate", target=self.best({s: merlin[s] for s in targets})[0])

    def _speak(self, game: AvalonGame, seat: int, belief: AvalonBelief) -> AvalonAction:
        if game.roles[seat] == MERLIN:
            return PASS
        probabilities = belief.evil_probabilities()
        others = {s: float(probabilities[s]) for s in range(game.setup.num_players) if s != seat}
        suspect = self.best(others)[0]
        if others[suspect] <= SUSPECT_LEVEL:
            return PASS
        return AvalonAction("say", value=f"I suspect {game.names[suspect]} is evil.")

    def _team(self, game: AvalonGame, seat: int, belief: AvalonBelief) -> tuple[int, ...]:
        n, size = game.setup.num_players, game.team_size
        known = game.known[seat]
        if game.teams[seat] == EVIL:
            others = [s for s in range(n) if s != seat and known[s] != EVIL]
            chosen = self.best({s: 0.0 for s in others}, size - 1)
        else:
            probabilities = belief.evil_probabilities()
            chosen = self.best({s: -probabilities[s] for s in range(n) if s != seat}, size - 1)
        return tuple(sorted([seat, *chosen]))

    def _approves(self, game: AvalonGame, seat: int, belief: AvalonBelief) -> bool:
        team = game.team
        hammer = game.rejections == MAX_REJECTIONS - 1
        known = game.known[seat]
        if game.teams[seat] == EVIL:
            return any(known[s] == EVIL for s in team)
        if game.leader == seat or hammer:
            return True
        if game.roles[seat] == MERLIN:
            if any(known[s] == EVIL for s in team):
                return game.wins(EVIL) < 2 and bool(self.rng.random() < MERLIN_BLUFF)
            return True
        own = self._team(game, seat, belief)
        return belief.clean_probability(team) >= APPROVE_RATIO * belief.clean_probability(own)

    def _fails(self, game: AvalonGame, seat: int) -> bool:
        if game.setup.fails_needed(game.quest) > 1:
            return True
        known = game.known[seat]
        return not any(s < seat and known[s] == EVIL for s in game.team if s != seat)
