"""What Werewolf and Mafia measure beside winning: belief probes, speaking reward, deception.

:class:`WerewolfMeasures` is owned by the env and fed every change of its
:class:`~envsuite.families.social.werewolf_rules.WerewolfGame`; the rules engine knows
nothing of it (a probe never changes the game, and the game log replays without it).

- **Belief probes** (``belief_probes=("night", "discussion", "vote")`` or a subset):
  when the game enters a named phase (``night``: before the werewolves choose; ``discussion``:
  after the dawn, before the first speaker; ``vote``: after the discussion, before the first
  vote), every living player, in seat order, gets a probe turn asking for the probability
  that each other player is on the killers' team (see
  :mod:`~envsuite.families.social.belief_probes` for the answer format, the default and
  the scores). A seat's final info then holds ``probes`` (answered), ``probe_brier``,
  ``probe_log``, ``probe_accuracy`` (means over its probes; accuracy is the deduction
  score) and ``probe_malformed`` (answers with a defaulted player).
- **Speaking reward** (``speaking_reward=True``), after Sarkar et al. (2025), "Training
  Language Models for Social Deduction with Multi-Agent RL": the listeners are exact-Bayes
  belief trackers (:class:`~envsuite.families.social.werewolf_beliefs.WolfBelief`), one
  per living village player other than the speaker, each reading only its own seat's
  view. A listener's *belief on the truth* is the mean, over the other players, of the
  probability it gives each player's true team. A speech's reward is the mean over the
  listeners of (belief on the truth after it) − (belief on the truth before it): positive
  when it moves the village toward the truth, negative when it misleads. Speeches are the
  discussion's ``say``, ``accuse`` and ``claim`` acts; the trackers read claims and
  accusations, not free text, so a ``say`` scores 0 (a language listener is a model
  choice this measure avoids). Final infos hold ``speeches``, ``speaking_reward`` (mean
  per speech, when it spoke) and ``speaking_reward_total``; every speech is in
  :attr:`WerewolfMeasures.speeches`.
- **Deception** (with ``speaking_reward=True``; werewolf seats): at each vote's opening
  that a werewolf lives through, 1 − the living village listeners' mean probability that
  it is a werewolf; the seat's ``deception`` is the mean over those votes (higher: better
  hidden; a listener that knows nothing gives ``1 − w/(n−1)`` with ``w`` werewolves among
  ``n`` players).

The bookkeeping (probe queue and scores, speech records, final-info keys) is
:class:`~envsuite.families.social.social_measures.MeasureBook`'s, shared with Avalon and
Among Us; this module decides when Werewolf probes and who listens.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envsuite.families.social import social_measures
from envsuite.families.social.belief_probes import ProbeQuestion
from envsuite.families.social.social_measures import (
    MEASURE_KEYS,
    MeasureBook,
    SpeechReward,
    belief_on_truth,
)
from envsuite.families.social.werewolf_beliefs import WolfBelief
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import VILLAGE, WEREWOLVES, Phase

__all__ = [
    "MEASURE_KEYS",
    "PROBE_PHASES",
    "SPEECH_KINDS",
    "SpeechReward",
    "WerewolfMeasures",
    "checked_probe_phases",
]

#: Probe points: the phase names ``belief_probes`` takes, and the phase each opens.
PROBE_PHASES: dict[str, Phase] = {
    "night": Phase.NIGHT_WOLVES,
    "discussion": Phase.DISCUSSION,
    "vote": Phase.VOTE,
}
#: The acts whose effect on the listeners is a speech's reward.
SPEECH_KINDS = frozenset({"say", "accuse", "claim"})


def checked_probe_phases(phases: Any) -> tuple[str, ...]:
    """``belief_probes`` as a tuple of phase names in :data:`PROBE_PHASES` order.

    Raises:
        ValueError: not a sequence of known phase names.
    """
    return social_measures.checked_probe_phases(phases, tuple(PROBE_PHASES))


class WerewolfMeasures(MeasureBook):
    """Probes, speaking reward and deception of one game (see the module).

    Args:
        probe_phases: The phases (names of :data:`PROBE_PHASES`) at which to probe.
        speaking_reward: Whether to keep listeners and score speeches and deception.
    """

    SPEECH_KINDS: ClassVar[frozenset[str]] = SPEECH_KINDS

    def __init__(self, probe_phases: tuple[str, ...], speaking_reward: bool) -> None:
        super().__init__(probe_phases, speaking_reward)
        self.probe_phases = frozenset(PROBE_PHASES[name] for name in probe_phases)
        self._listeners: list[WolfBelief] = []
        self._probed: tuple[int, Phase] | None = None
        self._weighed: int = 0

    def start(self, game: WerewolfGame) -> None:
        """Forget the last game; probe the opening phase if it is a probe point."""
        n = game.setup.num_players
        self.reset(n)
        self._listeners = (
            [WolfBelief(n, game.setup.num_werewolves) for _ in range(n)]
            if self.speaking_reward
            else []
        )
        self._probed, self._weighed, self._before = None, 0, None
        self.after_change(game)

    # -- probes ----------------------------------------------------------------------
    def question(self, game: WerewolfGame, seat: int) -> ProbeQuestion:
        """The probe put to ``seat``: every other player, over the two teams."""
        others = tuple(name for other, name in enumerate(game.names) if other != seat)
        classes = (game.words.team(WEREWOLVES), game.words.team(VILLAGE))
        phase = next(name for name, one in PROBE_PHASES.items() if one is game.phase)
        return ProbeQuestion(others, classes, phase, game.day)

    def team_name(self, game: WerewolfGame, team: str) -> str:
        """``team`` in the game's words (werewolves / village, or Mafia's)."""
        return game.words.team(team)

    def after_change(self, game: WerewolfGame) -> None:
        """Note a new phase: queue its probes, weigh the werewolves' cover at a vote."""
        if game.over:
            self.queue = []
            return
        key = (game.day, game.phase)
        if game.phase in self.probe_phases and self._probed != key:
            self._probed = key
            self.queue = game.living()
        if self.speaking_reward and game.phase is Phase.VOTE and self._weighed != game.day:
            self._weighed = game.day
            self._weigh_cover(game)

    # -- speaking reward and deception -----------------------------------------------
    def _listener_count(self, game: WerewolfGame, speaker: int) -> int:
        return len(self._listening(game, speaker))

    def _speech_round(self, game: WerewolfGame) -> int:
        return game.day

    def _listening(self, game: WerewolfGame, speaker: int) -> list[int]:
        return [s for s in game.living() if s != speaker and game.teams[s] == VILLAGE]

    def _wolf_probabilities(self, game: WerewolfGame, listener: int) -> np.ndarray:
        belief = self._listeners[listener]
        belief.update(game.view(listener), game.known[listener])
        return belief.wolf_probabilities(game.alive)

    def _belief_on_truth(self, game: WerewolfGame, speaker: int) -> float:
        """Mean over listeners of their mean probability on the other players' true teams."""
        wolves = np.array([team == WEREWOLVES for team in game.teams])
        values = [
            belief_on_truth(self._wolf_probabilities(game, listener), wolves, listener)
            for listener in self._listening(game, speaker)
        ]
        return float(np.mean(values)) if values else 0.0

    def _weigh_cover(self, game: WerewolfGame) -> None:
        village = [s for s in game.living() if game.teams[s] == VILLAGE]
        if not village:
            return
        suspicion = np.mean([self._wolf_probabilities(game, s) for s in village], axis=0)
        for wolf in game.wolves:
            if game.alive[wolf]:
                self.add_cover(wolf, 1.0 - float(suspicion[wolf]))
