"""A Bayesian belief over Avalon role assignments, from what one seat may read.

A hypothesis is the part of a role assignment that decides play: the set of evil seats
and Merlin's seat (every seat not evil nor Merlin is an ordinary good player; the evil
roles' names matter only through sight, which the hard evidence handles). With 10
players, 4 evil and Merlin there are 210 x 6 = 1,260 hypotheses, so every update is a
few numpy operations.

Hard evidence removes hypotheses: the seat's own team and role (Merlin knows it is
Merlin), what its role sees (``game.known[seat]``: evil seats are evil, a seat seen as
good is good; Percival's two seats hold Merlin, and the other one is evil when Morgana
is in play). Soft evidence reweights them with the likelihoods below (modelling
choices, not facts about opponents; the tracker is exact Bayes for that model):

- a quest with ``f`` fail cards from a team holding ``k`` evil: binomial, each evil
  member failing with probability ``EVIL_FAILS`` (``f > k`` is impossible);
- a proposal: each evil member of the team multiplies the likelihood by
  ``GOOD_LEADER_PER_EVIL`` for a good leader (``MERLIN_LEADER_PER_EVIL`` for Merlin, who
  sees them); an evil leader proposes a team with no evil with weight ``EVIL_CLEAN_TEAM``;
- a vote: the probability of approving depends on the voter (good, Merlin or evil) and
  on whether the team holds an evil player (``APPROVE``);
- only when made with ``names`` (the listeners of
  :mod:`~envsuite.families.social.avalon_measures`; the bots never read speech): a
  speech whose stance :func:`speech_stance` reads ("Bob is evil", "I trust Bob") points
  at its one named player; a good speaker's accusation lands on an evil player
  ``GOOD_ACCUSES_EVIL`` times as often as on a good one, an evil speaker's on a fellow
  evil one ``EVIL_ACCUSES_EVIL`` times; vouching ("is good") takes the inverse factors.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import comb

import numpy as np

from envsuite.families.social.avalon_setup import EVIL, GOOD, MERLIN, MERLIN_OR_MORGANA
from envsuite.families.social.speech_stance import speech_stance as stance_of

#: Probability that an evil team member plays fail.
EVIL_FAILS = 0.85
#: Likelihood factor per evil team member, by the leader's kind.
GOOD_LEADER_PER_EVIL = 0.6
MERLIN_LEADER_PER_EVIL = 0.25
#: Likelihood of an evil leader's team holding no evil.
EVIL_CLEAN_TEAM = 0.3
#: P(approve) by voter kind (good, Merlin, evil) and team (clean, holds evil).
APPROVE = np.array([[0.7, 0.45], [0.9, 0.2], [0.35, 0.85]])
#: Relative likelihood of a good speaker's accusation landing on an evil player.
GOOD_ACCUSES_EVIL = 1.5
#: Relative likelihood of an evil speaker's accusation landing on a fellow evil player.
EVIL_ACCUSES_EVIL = 0.2
#: Words that make a speech an accusation, or a vouch, of the player it names.
EVIL_WORDS = frozenset(
    [
        "evil",
        "suspect",
        "suspicious",
        "minion",
        "minions",
        "spy",
        "traitor",
        "liar",
        "lying",
        "sabotage",
        "saboteur",
    ]
)
GOOD_WORDS = frozenset(["good", "trust", "trusted", "loyal", "innocent", "clean", "honest"])


def speech_stance(text: str, names: Sequence[str], speaker: int) -> tuple[int, bool] | None:
    """What an Avalon speech says of one player: ``(seat, True)`` "is evil", else a vouch.

    :func:`~envsuite.families.social.speech_stance.speech_stance` with
    :data:`EVIL_WORDS` accusing and :data:`GOOD_WORDS` vouching (None: it says nothing).
    """
    return stance_of(text, names, speaker, EVIL_WORDS, GOOD_WORDS)


class AvalonBelief:
    """The posterior over (evil set, Merlin) for one seat.

    Args:
        n: Seats in the game.
        num_evil: Evil seats in the game.
        merlin: Whether Merlin is in play (if not, every hypothesis has Merlin -1).
        names: The players' names, to read speeches by (None: speeches are ignored).

    Attributes:
        evil: Boolean ``(K, n)``: row k marks the evil seats of hypothesis k.
        merlin: ``(K,)`` Merlin's seat under hypothesis k (-1 when not in play).
        log_weight: ``(K,)`` log posterior (unnormalised; ``-inf`` for ruled out).

    """

    def __init__(
        self, n: int, num_evil: int, merlin: bool, names: Sequence[str] | None = None
    ) -> None:
        rows: list[tuple[tuple[int, ...], int]] = []
        for combo in itertools.combinations(range(n), num_evil):
            if merlin:
                rows += [(combo, m) for m in range(n) if m not in combo]
            else:
                rows.append((combo, -1))
        self.evil = np.zeros((len(rows), n), dtype=bool)
        for k, (combo, _) in enumerate(rows):
            self.evil[k, list(combo)] = True
        self.merlin = np.array([m for _, m in rows])
        self.log_weight = np.zeros(len(rows))
        self.seen = 0
        self._team: tuple[int, ...] = ()
        self._log_approve = np.log(APPROVE)
        self._log_reject = np.log(1 - APPROVE)
        self.names = None if names is None else tuple(names)
        accuse = np.array([[1.0, GOOD_ACCUSES_EVIL], [1.0, EVIL_ACCUSES_EVIL]])
        self._log_accuse = np.log(accuse)  # [speaker is evil][target is evil]

    def know(self, seat: int, role: str, known: Sequence[str | None], morgana: bool) -> None:
        """Apply the seat's hard knowledge: its role and what its role sees."""
        if role == MERLIN:
            self._keep(self.merlin == seat)
        elif known[seat] == GOOD:
            self._keep(self.merlin != seat)
        pair = [s for s, what in enumerate(known) if what == MERLIN_OR_MORGANA]
        if pair:
            self._keep(np.isin(self.merlin, pair))
            if morgana:
                for s in pair:
                    self._keep((self.merlin == s) | self.evil[:, s])
        for s, what in enumerate(known):
            if what == EVIL:
                self._keep(self.evil[:, s])
            elif what == GOOD:
                self._keep(~self.evil[:, s])

    def update(self, view: Sequence[object]) -> None:
        """Take in the messages of ``view`` not seen yet (a seat's message view)."""
        for message in view[self.seen :]:
            kind = getattr(message, "kind", "")
            value = getattr(message, "value", "")
            sender = getattr(message, "sender", None)
            if kind == "proposal" and sender is not None:
                self._team = tuple(int(s) for s in value.split(","))
                self._proposal(sender, self._team)
            elif kind == "vote" and sender is not None and self._team:
                self._vote(sender, value == "approve", self._team)
            elif kind == "quest":
                fails, team = value.split(":")
                self._quest(tuple(int(s) for s in team.split(",")), int(fails))
            elif kind == "speech" and sender is not None and self.names is not None:
                self._speech(sender, str(getattr(message, "text", "")))
        self.seen = len(view)

    def _evil_on(self, team: tuple[int, ...]) -> np.ndarray:
        return self.evil[:, list(team)].sum(axis=1)

    def _proposal(self, leader: int, team: tuple[int, ...]) -> None:
        k = self._evil_on(team)
        is_evil = self.evil[:, leader]
        is_merlin = self.merlin == leader
        per = np.where(is_merlin, np.log(MERLIN_LEADER_PER_EVIL), np.log(GOOD_LEADER_PER_EVIL))
        good_term = per * k
        evil_term = np.where(k == 0, np.log(EVIL_CLEAN_TEAM), 0.0)
        self.log_weight += np.where(is_evil, evil_term, good_term)

    def _vote(self, voter: int, approved: bool, team: tuple[int, ...]) -> None:
        tainted = (self._evil_on(team) > 0).astype(int)
        kind = np.where(self.evil[:, voter], 2, np.where(self.merlin == voter, 1, 0))
        table = self._log_approve if approved else self._log_reject
        self.log_weight += table[kind, tainted]

    def _speech(self, speaker: int, text: str) -> None:
        assert self.names is not None
        said = text.split(":", 1)[1] if ":" in text else text  # drop "Alice says:"
        stance = speech_stance(said, self.names, speaker)
        if stance is None:
            return
        target, accused = stance
        sign = 1.0 if accused else -1.0
        speaker_evil = self.evil[:, speaker].astype(int)
        target_evil = self.evil[:, target].astype(int)
        self.log_weight += sign * self._log_accuse[speaker_evil, target_evil]

    def _quest(self, team: tuple[int, ...], fails: int) -> None:
        k = self._evil_on(team)
        with np.errstate(divide="ignore"):
            likelihood = np.array(
                [_binomial(int(kk), fails, EVIL_FAILS) for kk in range(len(team) + 1)]
            )
            self.log_weight += np.log(likelihood)[k]

    def _keep(self, mask: np.ndarray) -> None:
        self.log_weight[~mask] = -np.inf

    def weights(self) -> np.ndarray:
        """The normalised posterior (uniform if the model rules every hypothesis out)."""
        top = self.log_weight.max()
        if not np.isfinite(top):
            return np.full(len(self.log_weight), 1.0 / len(self.log_weight))
        weight = np.exp(self.log_weight - top)
        return weight / weight.sum()

    def evil_probabilities(self) -> np.ndarray:
        """P(seat is evil) for each seat."""
        return self.weights() @ self.evil

    def merlin_probabilities(self) -> np.ndarray:
        """P(seat is Merlin) for each seat (zeros when Merlin is not in play)."""
        n = self.evil.shape[1]
        result = np.zeros(n)
        weights = self.weights()
        in_play = self.merlin >= 0
        np.add.at(result, self.merlin[in_play], weights[in_play])
        return result

    def clean_probability(self, team: Sequence[int]) -> float:
        """P(no member of ``team`` is evil)."""
        return float(self.weights()[self._evil_on(tuple(team)) == 0].sum())


def _binomial(k: int, f: int, p: float) -> float:
    """P(f fails of k evil members, each failing with probability p)."""
    if f > k:
        return 0.0
    return comb(k, f) * p**f * (1 - p) ** (k - f)
