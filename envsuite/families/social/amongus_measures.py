"""What Among Us measures beside winning: belief probes, speaking reward, deception.

:class:`AmongUsMeasures` is owned by the env and fed every change of its
:class:`~envsuite.families.social.amongus_rules.AmongUsGame`; the rules engine knows
nothing of it (a probe never changes the game, and the game log replays without it). The
bookkeeping is :class:`~envsuite.families.social.social_measures.MeasureBook`'s, as for
Werewolf; this module decides when Among Us probes and who listens.

- **Belief probes** (``belief_probes``, a subset of ``meeting`` and ``vote``): when a
  meeting's discussion opens (``meeting``: after the deaths are announced and the first
  speaker drawn, before the first speech) or its vote opens (``vote``), every living
  player, in seat order, gets a probe turn asking for the probability that each other
  player is an impostor (answer format and scores:
  :mod:`~envsuite.families.social.belief_probes`; the question's ``day`` is the
  meeting's number). Final infos: ``probes``, ``probe_brier``, ``probe_log``,
  ``probe_accuracy`` (the deduction score) and ``probe_malformed``.
- **Speaking reward** (``speaking_reward=True``), as defined by Sarkar et al. (2025),
  "Training Language Models for Social Deduction with Multi-Agent RL", whose grid world
  this game follows: a message is rewarded by how it moves the listeners' belief toward
  the truth. Here the listeners are the living crewmates other than the speaker, each a
  :class:`SpeechListener` of its own (a crew
  :class:`~envsuite.families.social.amongus_bots.BeliefBot` reading only its seat's
  sight and messages, looking at its room after every action) whose suspicion is read
  as probabilities (:mod:`~envsuite.families.social.amongus_beliefs`); the
  paper's listener is the trained model itself, which this measure avoids.

  Formula: ``reward(speech) = mean_{listeners} (belief on truth after − before)``, the
  belief on the truth being the mean probability on the other players' true teams
  (:func:`~envsuite.families.social.social_measures.belief_on_truth`).

  Source: Sarkar et al. (2025) reward a message by the change in the listening
  crewmates' probability of the true impostor. Departures: the listeners are bots, not
  the trained model; and the belief on the truth averages over every other player, as
  in Werewolf and Avalon, so that several impostors count alike. With one impostor
  and a listener's probabilities summing to 1 it equals ``(2·P(true impostor) + n −
  3) / (n − 1)``, affine in the paper's quantity: the two rewards have the same sign.

  Speeches are the discussion's ``say`` and ``accuse``. The bots read accusations; a
  listener also reads a ``say`` that :func:`crew_speech_stance` finds accusing one
  player ("I saw Eve vent", "Bob is sus") as that player's accusation (the bots keep no
  evidence for vouching, so "I trust Bob" moves nobody). Final infos: ``speeches``,
  ``speaking_reward`` (mean per speech, when it spoke) and ``speaking_reward_total``.
- **Deception** (``speaking_reward=True``; impostor seats): at every vote's opening that
  an impostor lives through, ``1 −`` the living crew listeners' mean probability that it
  is an impostor; the seat's ``deception`` is the mean over those votes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from envsuite.families.social import social_measures
from envsuite.families.social.amongus_bots import BeliefBot
from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import CREW, IMPOSTORS, Phase
from envsuite.families.social.belief_probes import ProbeQuestion
from envsuite.families.social.social_measures import MeasureBook, belief_on_truth
from envsuite.families.social.speech_stance import speech_stance

#: Probe points: the phase names ``belief_probes`` takes, and the phase each opens.
PROBE_PHASES: dict[str, Phase] = {"meeting": Phase.DISCUSSION, "vote": Phase.VOTE}
#: The acts whose effect on the listeners is a speech's reward.
SPEECH_KINDS = frozenset({"say", "accuse"})
#: Keys of the final info a seat may get (the runner records them as metrics).
MEASURE_KEYS = social_measures.MEASURE_KEYS
#: Words that make a speech an accusation, or a vouch, of the player it names.
IMPOSTOR_WORDS = frozenset(
    ["impostor", "imposter", "sus", "suspect", "suspicious", "killer", "vent", "vented", "liar"]
)
CREW_WORDS = frozenset(["crew", "crewmate", "innocent", "trust", "trusted", "safe", "cleared"])


def crew_speech_stance(text: str, names: tuple[str, ...], speaker: int) -> tuple[int, bool] | None:
    """What an Among Us speech says of one player: ``(seat, True)`` an accusation.

    :func:`~envsuite.families.social.speech_stance.speech_stance` with
    :data:`IMPOSTOR_WORDS` accusing and :data:`CREW_WORDS` vouching (None: nothing).
    """
    return speech_stance(text, names, speaker, IMPOSTOR_WORDS, CREW_WORDS)


class SpeechListener(BeliefBot):
    """A crew :class:`~.amongus_bots.BeliefBot` that also hears accusations in free text."""

    def _read(
        self,
        game: AmongUsGame,
        seat: int,
        kind: str,
        sender: int | None,
        subject: int | None,
        value: str,
    ) -> None:
        if kind == "speech" and sender is not None:
            stance = crew_speech_stance(value, game.names, sender)
            if stance is not None and stance[1]:
                kind, subject = "accuse", stance[0]
        super()._read(game, seat, kind, sender, subject, value)


def checked_probe_phases(phases: Any) -> tuple[str, ...]:
    """``belief_probes`` as a tuple of phase names in :data:`PROBE_PHASES` order.

    Raises:
        ValueError: not a sequence of known phase names.
    """
    return social_measures.checked_probe_phases(phases, tuple(PROBE_PHASES))


class AmongUsMeasures(MeasureBook):
    """Probes, speaking reward and deception of one game (see the module).

    Args:
        probe_phases: The phases (names of :data:`PROBE_PHASES`) at which to probe.
        speaking_reward: Whether to keep listeners and score speeches and deception.
    """

    SPEECH_KINDS: ClassVar[frozenset[str]] = SPEECH_KINDS

    def __init__(self, probe_phases: tuple[str, ...], speaking_reward: bool) -> None:
        super().__init__(probe_phases, speaking_reward)
        self.probe_phases = frozenset(PROBE_PHASES[name] for name in probe_phases)
        self._listeners: dict[int, SpeechListener] = {}
        self._probed: tuple[int, Phase] | None = None
        self._weighed: int = 0

    def start(self, game: AmongUsGame) -> None:
        """Forget the last game; probe the opening phase if it is a probe point."""
        n = game.setup.num_players
        self.reset(n)
        self._listeners = {}
        if self.speaking_reward:
            self._listeners = {s: SpeechListener() for s in range(n) if game.teams[s] == CREW}
        self._probed, self._weighed, self._before = None, 0, None
        self.after_change(game)

    # -- probes ----------------------------------------------------------------------
    def question(self, game: AmongUsGame, seat: int) -> ProbeQuestion:
        """The probe put to ``seat``: every other player, impostor or crew."""
        others = tuple(name for other, name in enumerate(game.names) if other != seat)
        phase = next(name for name, one in PROBE_PHASES.items() if one is game.phase)
        return ProbeQuestion(others, (IMPOSTORS, CREW), phase, game.meetings, "meeting")

    def after_change(self, game: AmongUsGame) -> None:
        """Note the change: listeners look; queue a new phase's probes; weigh cover."""
        if game.over:
            self.queue = []
            return
        for seat in self._listening(game, None):
            self._listeners[seat].observe(game, seat)
        key = (game.meetings, game.phase)
        if game.phase in self.probe_phases and self._probed != key:
            self._probed = key
            self.queue = game.living()
        if self.speaking_reward and game.phase is Phase.VOTE and self._weighed != game.meetings:
            self._weighed = game.meetings
            self._weigh_cover(game)

    # -- speaking reward and deception -----------------------------------------------
    def _listener_count(self, game: AmongUsGame, speaker: int) -> int:
        return len(self._listening(game, speaker))

    def _speech_round(self, game: AmongUsGame) -> int:
        return game.meetings

    def _listening(self, game: AmongUsGame, speaker: int | None) -> list[int]:
        return [s for s in sorted(self._listeners) if s != speaker and game.alive[s]]

    def impostor_probabilities(self, game: AmongUsGame, seat: int) -> np.ndarray:
        """Crew listener ``seat``'s probability that each seat is an impostor, up to date."""
        return self._listeners[seat].posterior(game, seat)

    def _belief_on_truth(self, game: AmongUsGame, speaker: int) -> float:
        truth = np.array([team == IMPOSTORS for team in game.teams])
        values = [
            belief_on_truth(self.impostor_probabilities(game, seat), truth, seat)
            for seat in self._listening(game, speaker)
        ]
        return float(np.mean(values)) if values else 0.0

    def _weigh_cover(self, game: AmongUsGame) -> None:
        crew = self._listening(game, None)
        if not crew:
            return
        suspicion = np.mean([self.impostor_probabilities(game, s) for s in crew], axis=0)
        for seat in game.impostors:
            if game.alive[seat]:
                self.add_cover(seat, 1.0 - float(suspicion[seat]))
