"""A Bayesian belief over who the werewolves are, from what one seat may read.

The hypotheses are every set of ``num_werewolves`` seats. Hard evidence removes
hypotheses: the seat's own knowledge (its role; the werewolves' pack; the seer's visions;
roles revealed at death), a night victim (werewolves never kill werewolves), and the game
still running (at least one werewolf lives, and fewer werewolves than others live). Soft
evidence reweights them with the likelihoods below, read as "how much likelier is this
event if the actor is a werewolf / the target is one":

- a vote or an accusation from a villager lands on a werewolf more often than chance
  (``VILLAGE_HITS``); a werewolf almost never votes for or accuses a fellow werewolf
  (``WOLF_ON_WOLF``);
- a claim ("X is a werewolf" / "X is village") is true with probability
  ``VILLAGE_TRUTH`` from a villager and ``WOLF_TRUTH`` from a werewolf (werewolves lie).

These are modelling choices, not facts about opponents; the tracker is exact Bayes for
that model. With 15 players and 3 werewolves there are 455 hypotheses, so every update is
a few numpy operations.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from envsuite.families.social.channels import Message
from envsuite.families.social.werewolf_setup import WEREWOLF, WEREWOLVES

#: Relative likelihood of a villager's vote or accusation landing on a werewolf.
VILLAGE_HITS = 1.5
#: Relative likelihood of a werewolf's vote or accusation landing on a fellow werewolf.
WOLF_ON_WOLF = 0.2
#: Probability that a claim is true, by the claimant's team.
VILLAGE_TRUTH = 0.85
WOLF_TRUTH = 0.3
#: Votes weigh this much more than accusations (a power of the likelihood).
VOTE_WEIGHT = 1.5


class WolfBelief:
    """The posterior over werewolf sets for one seat.

    Args:
        n: Seats in the game.
        num_wolves: Werewolves in the game.

    Attributes:
        hypotheses: Boolean ``(K, n)``: row k marks the werewolves of hypothesis k.
        log_weight: ``(K,)`` log posterior (unnormalised; ``-inf`` for ruled out).

    """

    def __init__(self, n: int, num_wolves: int) -> None:
        combos = list(itertools.combinations(range(n), num_wolves))
        self.hypotheses = np.zeros((len(combos), n), dtype=bool)
        for k, combo in enumerate(combos):
            self.hypotheses[k, list(combo)] = True
        self.log_weight = np.zeros(len(combos))
        self.seen = 0
        self._facts: tuple[str | None, ...] = ()
        table = np.log(np.array([[1.0, VILLAGE_HITS], [1.0, WOLF_ON_WOLF]]))
        self._pointing = table  # [actor is wolf][target is wolf]
        truth = np.log(np.array([[VILLAGE_TRUTH, 1 - VILLAGE_TRUTH], [WOLF_TRUTH, 1 - WOLF_TRUTH]]))
        self._claim = truth  # [actor is wolf][claim is false]

    def update(self, view: Sequence[Message], known: Sequence[str | None]) -> None:
        """Take in the messages of ``view`` not seen yet and the seat's hard knowledge."""
        for message in view[self.seen :]:
            self._message(message)
        self.seen = len(view)
        facts = tuple(known)
        if facts != self._facts:
            self._facts = facts
            for seat, team in enumerate(facts):
                if team is not None:
                    self._rule_out(self.hypotheses[:, seat] != (team == WEREWOLVES))

    def _message(self, message: Message) -> None:
        kind, actor, target = message.kind, message.sender, message.subject
        h = self.hypotheses
        if kind == "killed" and target is not None:
            self._rule_out(h[:, target])
        elif kind in ("vote", "accuse") and actor is not None and target is not None:
            weight = VOTE_WEIGHT if kind == "vote" else 1.0
            pointing = self._pointing[h[:, actor].astype(int), h[:, target].astype(int)]
            self.log_weight += weight * pointing
        elif kind == "claim" and actor is not None and target is not None:
            false = h[:, target] != (message.value == WEREWOLF)
            self.log_weight += self._claim[h[:, actor].astype(int), false.astype(int)]

    def _rule_out(self, mask: np.ndarray) -> None:
        self.log_weight[mask] = -np.inf

    def wolf_probabilities(self, alive: Sequence[bool]) -> np.ndarray:
        """P(seat is a werewolf) for each seat, given that the game is still running."""
        living = np.asarray(alive, dtype=bool)
        wolves_alive = self.hypotheses[:, living].sum(axis=1)
        running = (wolves_alive >= 1) & (2 * wolves_alive < int(living.sum()))
        log_weight = np.where(running, self.log_weight, -np.inf)
        top = log_weight.max()
        if not np.isfinite(top):  # the model rules everything out: fall back to uniform
            log_weight = np.where(running, 0.0, -np.inf)
            top = 0.0 if running.any() else None
            if top is None:
                return np.full(len(living), self.hypotheses.mean())
        weight = np.exp(log_weight - top)
        return (weight @ self.hypotheses) / weight.sum()
