"""Scripted Werewolf and Mafia players at two strengths, usable as ``--agent`` seats.

- :class:`RandomLegalBot`: a uniformly random legal action (``say`` aside).
- :class:`BeliefBot`: keeps a :class:`~envsuite.families.social.werewolf_beliefs.WolfBelief`
  from the messages its seat may read and acts on it by role:

  - villager: accuses (when one player is clearly the likeliest werewolf) and votes for
    the likeliest werewolf;
  - seer: checks the likeliest unchecked werewolf; claims every werewolf it found (or,
    having found none, a player it cleared); votes for a werewolf it found, else the
    likeliest;
  - doctor: protects the most trusted player who claimed visions (the likely seer),
    else itself (else, where it may not, the player it trusts most);
  - werewolf: kills the village player who has pointed most at the werewolves (claims,
    accusations and votes against them), and accuses and votes for the village player
    most suspected by the others (the most votes and accusations against it).

  Ties are broken by the bot's own generator (seeded by ``reset``): each move is drawn
  uniformly from the bot's :meth:`~_SeatBot.options`, and ``action_probabilities(game,
  seat)`` gives that exact distribution (what an exact solver of bot games reads).

Both answer belief probes (``info["probe"]``; see
:mod:`~envsuite.families.social.werewolf_measures`): the random bot ``uniform``, the
belief bot its exact posterior probability that each other player is a werewolf (as JSON).

Both read only their own seat's view (``game.view(seat)``) and knowledge row
(``game.known[seat]``), never another seat's role: the seat is the env's agent to move
when ``act`` is called (PettingZoo AEC asks the agent to move). Use one per seat, e.g.
``--agent player_0=envsuite.families.social.werewolf_bots:BeliefBot,player_1=random``.
A bot made without an env (``BeliefBot()``) plays a bare
:class:`~envsuite.families.social.werewolf_rules.WerewolfGame` through ``choose(game,
seat)``, as the benchmarks' raw engine loop does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from envsuite.families.social.belief_probes import format_answer
from envsuite.families.social.seat_bot import SeatBot
from envsuite.families.social.werewolf_beliefs import WolfBelief
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import (
    PASS,
    SEER,
    VILLAGE,
    WEREWOLF,
    WEREWOLVES,
    Action,
    Phase,
)

#: A villager accuses only when the likeliest werewolf is this much above the average.
ACCUSE_MARGIN = 1.5


class _SeatBot(SeatBot):
    """What both bots share: :class:`~envsuite.families.social.seat_bot.SeatBot`, options."""

    RNG_LABEL: ClassVar[str] = "werewolf-bot"

    def choose(self, game: WerewolfGame, seat: int) -> Action:
        """The rule action of ``seat`` (the seat to move): one of :meth:`options`, uniformly."""
        options = self.options(game, seat)
        return options[int(self.rng.integers(len(options)))]

    def options(self, game: WerewolfGame, seat: int) -> list[Action]:
        """What :meth:`choose` draws from, uniformly (repeats weigh more); one: no draw."""
        raise NotImplementedError

    def action_probabilities(self, game: WerewolfGame, seat: int) -> dict[Action, float]:
        """The exact distribution of :meth:`choose`'s action for ``seat`` now (exact solvers)."""
        options = self.options(game, seat)
        return {action: options.count(action) / len(options) for action in dict.fromkeys(options)}

    @staticmethod
    def best(scores: Mapping[int, float]) -> list[int]:
        """The keys with the highest score, sorted (the bot draws one: ties broken at random)."""
        top = max(scores.values())
        return sorted(seat for seat, score in scores.items() if score >= top - 1e-12)


class RandomLegalBot(_SeatBot):
    """Plays a uniformly random legal action (``say`` aside): the weakest baseline."""

    def options(self, game: WerewolfGame, seat: int) -> list[Action]:
        """Every legal action but ``say``."""
        return [action for action in game.legal_actions(seat) if action.kind != "say"]


class BeliefBot(_SeatBot):
    """Plays from a Bayesian belief over the werewolves (see the module)."""

    def __init__(self, env: Any = None) -> None:
        super().__init__(env)
        self._game: WerewolfGame | None = None
        self._belief: WolfBelief | None = None
        self._spoke_day = 0

    def _tracker(self, game: WerewolfGame, seat: int) -> WolfBelief:
        if self._game is not game or self._belief is None:
            self._game = game
            self._belief = WolfBelief(game.setup.num_players, game.setup.num_werewolves)
            self._spoke_day = 0
        self._belief.update(game.view(seat), game.known[seat])
        return self._belief

    def answer_probe(self, game: WerewolfGame, seat: int) -> str:
        """The posterior probability that each other player is a werewolf, as JSON."""
        wolf = self.posterior(game, seat)
        return format_answer(
            {name: float(wolf[other]) for other, name in enumerate(game.names) if other != seat}
        )

    def posterior(self, game: WerewolfGame, seat: int) -> np.ndarray:
        """P(each seat is a werewolf) from ``seat``'s view (its own team is certain)."""
        return self._tracker(game, seat).wolf_probabilities(game.alive)

    def choose(self, game: WerewolfGame, seat: int) -> Action:
        """The role's move in this phase (see the module)."""
        action = super().choose(game, seat)
        if game.phase is Phase.DISCUSSION and game.roles[seat] == SEER:
            self._spoke_day = game.day  # a seer claims once a day
        return action

    def options(self, game: WerewolfGame, seat: int) -> list[Action]:
        """The role's candidate moves in this phase, equally likely (see the module)."""
        belief = self._tracker(game, seat)
        role = game.roles[seat]
        if game.phase is Phase.BID:
            return [Action("bid", None, str(self.bid(game, seat)))]
        if role == WEREWOLF:
            return self._wolf(game, seat)
        wolf = belief.wolf_probabilities(game.alive)
        others = [s for s in game.living() if s != seat]
        found = [s for s in others if game.known[seat][s] == WEREWOLVES]
        phase = game.phase
        if phase is Phase.NIGHT_SEER:
            unknown = [s for s in others if game.known[seat][s] is None] or others
            return [Action("check", s) for s in self.best({s: wolf[s] for s in unknown})]
        if phase is Phase.NIGHT_DOCTOR:
            return [Action("save", s) for s in self._trusted_seer(game, seat, wolf)]
        if phase is Phase.DISCUSSION:
            if role == SEER:
                return self._seer_claim(game, seat, found)
            targets = self.best({s: wolf[s] for s in others})  # tied: equally likely
            if wolf[targets[0]] > ACCUSE_MARGIN * float(np.mean([wolf[s] for s in others])):
                return [Action("accuse", s) for s in targets]
            return [PASS] * len(targets)  # the target is still drawn (the generator moves)
        # The vote.
        return [Action("vote", s) for s in found or self.best({s: wolf[s] for s in others})]

    def bid(self, game: WerewolfGame, seat: int) -> int:
        """Its urgency to speak (``speaking_order="bidding"``), 0 to 4.

        4 when the last speech named it; 3 for a seer with a claim still to make today;
        2 for a villager or doctor with a clear suspect to accuse; 1 for a werewolf (it
        follows the talk); else 0.
        """
        if seat in game.mentions:
            return 4
        if game.roles[seat] == WEREWOLF:
            return 1
        if game.roles[seat] == SEER:
            return 3 if self._spoke_day != game.day else 0
        wolf = self._tracker(game, seat).wolf_probabilities(game.alive)
        others = [s for s in game.living() if s != seat]
        top = max(float(wolf[s]) for s in others)
        return 2 if top > ACCUSE_MARGIN * float(np.mean([wolf[s] for s in others])) else 0

    def _seer_claim(self, game: WerewolfGame, seat: int, found: list[int]) -> list[Action]:
        """Claim a werewolf found (or a cleared player), once per day; else pass."""
        if self._spoke_day == game.day:
            return [Action("accuse", s) for s in found] or [PASS]
        if found:
            return [Action("claim", s, WEREWOLF) for s in found]
        cleared = [
            s
            for s in game.living()
            if s != seat and game.known[seat][s] == VILLAGE and game.claims[seat][s] is None
        ]
        return [Action("claim", s, VILLAGE) for s in cleared] or [PASS]

    def _trusted_seer(self, game: WerewolfGame, seat: int, wolf: np.ndarray) -> list[int]:
        """The living claimants least likely to be a werewolf, else ``seat`` (see the module).

        Where the doctor may not protect itself, the other players least likely to be one.
        """
        claimants = [
            s
            for s in game.living()
            if s != seat and any(value is not None for value in game.claims[s])
        ]
        if claimants:
            return self.best({s: -wolf[s] for s in claimants})
        if game.setup.doctor_self_save:
            return [seat]
        return self.best({s: -wolf[s] for s in game.living() if s != seat})

    def _wolf(self, game: WerewolfGame, seat: int) -> list[Action]:
        n = game.setup.num_players
        known = game.known[seat]  # a werewolf knows every seat's team
        village = [s for s in game.living() if known[s] != WEREWOLVES]
        pack = [s for s in range(n) if known[s] == WEREWOLVES]
        if game.phase is Phase.NIGHT_WOLVES:
            threat = {
                s: sum(game.vote_counts[s][w] + game.accusations[s][w] for w in pack)
                + 3 * sum(game.claims[s][w] == WEREWOLF for w in pack)
                + sum(value is not None for value in game.claims[s])
                for s in village
            }
            return [Action("kill", s) for s in self.best(threat)]
        suspected = {
            s: sum(game.vote_counts[v][s] + game.accusations[v][s] for v in range(n))
            + 2 * sum(game.claims[v][s] == WEREWOLF for v in range(n))
            for s in village
        }
        kind = "accuse" if game.phase is Phase.DISCUSSION else "vote"
        return [Action(kind, s) for s in self.best(suspected)]
