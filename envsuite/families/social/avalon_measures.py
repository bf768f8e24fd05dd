"""What Avalon measures beside winning: belief probes, speaking reward, deduction, deception.

:class:`AvalonMeasures` is owned by the env and fed every change of its
:class:`~envsuite.families.social.avalon_rules.AvalonGame`; the rules engine knows nothing
of it (a probe never changes the game, and the game log replays without it). The
bookkeeping is :class:`~envsuite.families.social.social_measures.MeasureBook`'s, as for
Werewolf; this module decides when Avalon probes and who listens.

- **Belief probes** (``belief_probes``, a subset of ``discussion``, ``proposal``,
  ``vote``, ``quest``, ``assassination``): when the game enters a named phase
  (``discussion``: before a proposal's first speech; ``proposal``: before the leader
  proposes; ``vote``: before the first vote on a proposed team; ``quest``: before an
  approved team plays its cards; ``assassination``: before the assassin names Merlin),
  every player, in seat order, gets a probe turn asking for the probability that each
  other player is evil (answer format and scores:
  :mod:`~envsuite.families.social.belief_probes`; the question's ``day`` is the quest,
  1 to 5). Final infos: ``probes``, ``probe_brier``, ``probe_log``, ``probe_accuracy``,
  ``probe_malformed``, and ``deduction`` for good players.
- **Deduction** (good seats, with probes).

  Formula: ``deduction = mean over the seat's probes of (1/(n−1)) Σ_{s≠seat} hit(s)``,
  ``hit(s) = 1`` when the answer's likelier side for ``s`` is its true side (½ for a
  50/50 answer): the share of the other players whose side the good player names
  right, i.e. its ``probe_accuracy``; ``probe_log`` is the matching cross-entropy.

  Source: Light et al. (2023), "AvalonBench: Evaluating LLMs Playing the Game of Avalon"
  (arXiv:2310.05036), whose scoring code (``AvalonScoring.deduction_acc`` and
  ``score_deduction`` in THUDM/AgentBench ``src/server/tasks/avalon/task_scoring.py``)
  thresholds a good player's believed probability of each player being good at 0.5 and
  averages the matches, and scores the same beliefs by their cross-entropy. Departures:
  ours asks at every named phase rather than once, leaves the player itself out (it
  knows its side), counts a 50/50 answer as ½ per player (AvalonBench reads 0.5 as
  "good"), and takes the mean cross-entropy over players rather than the sum.
- **Speaking reward** (``speaking_reward=True``), after Sarkar et al. (2025), "Training
  Language Models for Social Deduction with Multi-Agent RL": the listeners are the good
  players other than the speaker, each an exact-Bayes
  :class:`~envsuite.families.social.avalon_beliefs.AvalonBelief` reading only its own
  seat's view and sight, and speeches too (:func:`~.avalon_beliefs.speech_stance`: "X is
  evil", "I trust X"). A listener's *belief on the truth* is its mean probability on the
  other players' true sides (:func:`~.social_measures.belief_on_truth`).

  Formula: ``reward(speech) = mean_{listeners} (belief on truth after − before)``.

  Speeches are the discussion's ``say`` and the leader's ``propose`` (a proposal is a
  public statement of whom the leader trusts, and the listeners read it). Votes are not
  scored one by one: they are published together when the last is cast, so no single
  vote has a before and after. Final infos: ``speeches``, ``speaking_reward`` (mean per
  speech, when it spoke) and ``speaking_reward_total``.
- **Deception** (``speaking_reward=True``; evil seats).

  Formula: at the opening of every vote on a proposed team, ``cover(e) = 1 − mean_l
  P_l(e is evil)`` over the good listeners ``l`` whose sight does not show ``e``'s side
  (Merlin, who sees the evil but Mordred, is left out for the evil it sees); the seat's
  ``deception`` is the mean of its covers (higher: better hidden; listeners who know
  nothing give ``1 − m/(n−1)`` with ``m`` evil among ``n`` players).

  Source: AvalonBench's deception score (``AvalonScoring.score_deception``, same file):
  the mean, over the other good players, of their believed probability that the player
  is good. Departures: the beliefs are the belief-tracking listeners' rather than the
  good players' own reports, so the score measures what the evil player's proposals,
  votes, quest cards and speeches let a careful observer infer; they are weighed at
  every vote rather than once a game; and good players whose sight shows the player's
  side are left out, since nothing the player does can change what they see.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envsuite.families.social import social_measures
from envsuite.families.social.avalon_beliefs import AvalonBelief
from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import (
    EVIL,
    GOOD,
    MERLIN,
    MORGANA,
    Phase,
)
from envsuite.families.social.belief_probes import ProbeQuestion
from envsuite.families.social.social_measures import MeasureBook, belief_on_truth

#: Probe points: the phase names ``belief_probes`` takes, and the phase each opens.
PROBE_PHASES: dict[str, Phase] = {
    "discussion": Phase.DISCUSSION,
    "proposal": Phase.PROPOSE,
    "vote": Phase.VOTE,
    "quest": Phase.QUEST,
    "assassination": Phase.ASSASSINATE,
}
#: The acts whose effect on the listeners is a speech's reward.
SPEECH_KINDS = frozenset({"say", "propose"})
#: Keys of the final info a seat may get (the runner records them as metrics).
MEASURE_KEYS = (*social_measures.MEASURE_KEYS, "deduction")


def checked_probe_phases(phases: Any) -> tuple[str, ...]:
    """``belief_probes`` as a tuple of phase names in :data:`PROBE_PHASES` order.

    Raises:
        ValueError: not a sequence of known phase names.
    """
    return social_measures.checked_probe_phases(phases, tuple(PROBE_PHASES))


class AvalonMeasures(MeasureBook):
    """Probes, speaking reward, deduction and deception of one game (see the module).

    Args:
        probe_phases: The phases (names of :data:`PROBE_PHASES`) at which to probe.
        speaking_reward: Whether to keep listeners and score speeches and deception.
    """

    SPEECH_KINDS: ClassVar[frozenset[str]] = SPEECH_KINDS

    def __init__(self, probe_phases: tuple[str, ...], speaking_reward: bool) -> None:
        super().__init__(probe_phases, speaking_reward)
        self.probe_phases = frozenset(PROBE_PHASES[name] for name in probe_phases)
        self._listeners: dict[int, AvalonBelief] = {}
        self._good: tuple[bool, ...] = ()
        self._probed: tuple[int, int, Phase] | None = None
        self._weighed: tuple[int, int] | None = None

    def start(self, game: AvalonGame) -> None:
        """Forget the last game; probe the opening phase if it is a probe point."""
        setup = game.setup
        self.reset(setup.num_players)
        self._good = tuple(team == GOOD for team in game.teams)
        self._listeners = {}
        if self.speaking_reward:
            for seat in range(setup.num_players):
                if self._good[seat]:
                    self._listeners[seat] = listener(game, seat)
        self._probed, self._weighed, self._before = None, None, None
        self.after_change(game)

    # -- probes ----------------------------------------------------------------------
    def question(self, game: AvalonGame, seat: int) -> ProbeQuestion:
        """The probe put to ``seat``: every other player, evil or good."""
        others = tuple(name for other, name in enumerate(game.names) if other != seat)
        phase = next(name for name, one in PROBE_PHASES.items() if one is game.phase)
        return ProbeQuestion(others, (EVIL, GOOD), phase, game.quest + 1, "quest")

    def after_change(self, game: AvalonGame) -> None:
        """Note a new phase: queue its probes; weigh the evil players' cover at a vote."""
        if game.over:
            self.queue = []
            return
        key = (game.quest, game.rejections, game.phase)
        if game.phase in self.probe_phases and self._probed != key:
            self._probed = key
            self.queue = list(range(game.setup.num_players))
        vote = (game.quest, game.rejections)
        if self.speaking_reward and game.phase is Phase.VOTE and self._weighed != vote:
            self._weighed = vote
            self._weigh_cover(game)

    # -- speaking reward and deception -----------------------------------------------
    def _listener_count(self, game: AvalonGame, speaker: int) -> int:
        return len(self._listening(speaker))

    def _speech_round(self, game: AvalonGame) -> int:
        return game.quest + 1

    def _listening(self, speaker: int) -> list[int]:
        return [s for s in sorted(self._listeners) if s != speaker]

    def evil_probabilities(self, game: AvalonGame, seat: int) -> np.ndarray:
        """Good listener ``seat``'s probability that each seat is evil, brought up to date."""
        belief = self._listeners[seat]
        belief.update(game.view(seat))
        return belief.evil_probabilities()

    def _belief_on_truth(self, game: AvalonGame, speaker: int) -> float:
        evil = np.array([not good for good in self._good])
        values = [
            belief_on_truth(self.evil_probabilities(game, seat), evil, seat)
            for seat in self._listening(speaker)
        ]
        return float(np.mean(values)) if values else 0.0

    def _weigh_cover(self, game: AvalonGame) -> None:
        evil = [s for s, good in enumerate(self._good) if not good]
        beliefs = {s: self.evil_probabilities(game, s) for s in sorted(self._listeners)}
        for seat in evil:
            blind = [s for s in beliefs if game.known[s][seat] not in (EVIL, GOOD)]
            if blind:
                suspicion = float(np.mean([beliefs[s][seat] for s in blind]))
                self.add_cover(seat, 1.0 - suspicion)

    # -- results ---------------------------------------------------------------------
    def final_info(self, seat: int) -> dict[str, float]:
        """The seat's measures; ``deduction`` for a good seat that answered probes."""
        info = super().final_info(seat)
        if self.probe_phases and self._good[seat] and self.tallies[seat].probes.probes:
            info["deduction"] = info["probe_accuracy"]
        return info


def listener(game: AvalonGame, seat: int) -> AvalonBelief:
    """A belief tracker for ``seat`` that knows what the seat knows and reads speeches."""
    setup = game.setup
    belief = AvalonBelief(
        setup.num_players, setup.num_evil, MERLIN in setup.special_roles, game.names
    )
    belief.know(seat, game.roles[seat], game.known[seat], MORGANA in setup.special_roles)
    return belief
