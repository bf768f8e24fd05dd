"""What the social-deduction games measure beside winning, as bookkeeping every game shares.

Werewolf and Mafia (:mod:`~envsuite.families.social.werewolf_measures`), Avalon
(:mod:`~envsuite.families.social.avalon_measures`) and Among Us
(:mod:`~envsuite.families.social.amongus_measures`) each decide *when* a player is probed,
*who* listens to a speech and *what* a listener believes; :class:`MeasureBook` keeps what
follows from that the same way for all of them:

- the probe queue (seats owed a probe turn, in order), the reading and scoring of each
  answer (:mod:`~envsuite.families.social.belief_probes`) and a record of every answer;
- every speech's reward (:class:`SpeechReward`) and each seat's totals;
- each hidden-team seat's cover at the points the game weighs it (deception);
- the seat's final info: ``probes``, ``probe_brier``, ``probe_log``, ``probe_accuracy``,
  ``probe_malformed`` (with probes); ``speeches``, ``speaking_reward``,
  ``speaking_reward_total`` and ``deception`` (with the speaking reward).

The *belief on the truth* of a listener (:func:`belief_on_truth`) is the speaking
reward's yardstick in every game, after Sarkar et al. (2025), "Training Language Models
for Social Deduction with Multi-Agent RL": the mean, over the players other than the
listener, of the probability the listener gives each player's true team.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np

from envsuite.env_base import InvalidAction
from envsuite.families.social.belief_probes import (
    PROBE_KEYS,
    ProbeQuestion,
    ProbeTally,
    answer_text,
    parse_probe_answer,
    score_probe,
)

#: Final-info keys of the speaking reward and deception (see :meth:`MeasureBook.final_info`).
SPEECH_KEYS = ("speeches", "speaking_reward", "speaking_reward_total", "deception")
#: Every final-info key :class:`MeasureBook` may give (a game may add its own).
MEASURE_KEYS = (*PROBE_KEYS, *SPEECH_KEYS)


def checked_probe_phases(phases: Any, known: Sequence[str]) -> tuple[str, ...]:
    """``belief_probes`` as a tuple of the phase names in ``known``, in ``known``'s order.

    Raises:
        ValueError: not a sequence of names from ``known``.
    """
    if phases is None:
        return ()
    if isinstance(phases, str) or not isinstance(phases, Sequence):
        raise ValueError(
            f"belief_probes must be a list of phase names from {list(known)}, got {phases!r}"
        )
    unknown = [phase for phase in phases if phase not in known]
    if unknown:
        raise ValueError(
            f"belief_probes names unknown phases {unknown!r}; choose from {list(known)}"
        )
    return tuple(name for name in known if name in phases)


def read_probe_answer(answer: Any, question: ProbeQuestion) -> str:
    """A probe turn's answer as text, refused only when no player's probability can be read.

    Raises:
        InvalidAction: not text or a dict, or no player's probability read (the env then
            scores the answer as uniform for everyone, with no penalty).
    """
    if not isinstance(answer, str | Mapping):
        raise InvalidAction(
            f"a probe answer is text or a dict of name -> probability, got "
            f"{type(answer).__name__}; every player counts as 0.5"
        )
    text = answer_text(answer)
    if parse_probe_answer(text, question).defaulted == len(question.players):
        raise InvalidAction(
            "no probability read in the probe answer (write 'Name: 0.7, ...'); "
            "every player counts as 0.5"
        )
    return text


def belief_on_truth(first: np.ndarray, truth: np.ndarray, listener: int) -> float:
    """A listener's belief on the truth (see the module).

    Formula:
        ``mean_{s != listener} (first[s] if truth[s] else 1 - first[s])``

    Args:
        first: Per seat, the listener's probability that it is on the hidden team.
        truth: Per seat, whether it is on the hidden team.
        listener: The listener's seat (left out of the mean).
    """
    on_truth = np.where(truth, first, 1.0 - first)
    return float(np.delete(on_truth, listener).mean())


@dataclass(frozen=True)
class SpeechReward:
    """One speech's effect on the listeners: the mean change of their belief on the truth.

    Attributes:
        day: The game's day, quest or round when it was made.
        seat: The speaker.
        kind: The act (``say``, ``accuse``, ``claim``, ``propose``).
        listeners: How many listeners heard it (0: the reward is 0).
        reward: Mean over the listeners of (belief on the truth after) − (before).
    """

    day: int
    seat: int
    kind: str
    listeners: int
    reward: float


@dataclass
class SeatTally:
    """One seat's measures so far."""

    probes: ProbeTally = field(default_factory=ProbeTally)
    speeches: int = 0
    speaking: float = 0.0
    hidden: list[float] = field(default_factory=list)


class MeasureBook:
    """Probe queue, probe scores, speech rewards and cover of one game (see the module).

    A game's book says what its probe asks (:meth:`question`), how it names a team
    (:meth:`team_name`), which acts are speeches (:attr:`SPEECH_KINDS`), how many listen
    to a speech (:meth:`_listener_count`), what they believe (:meth:`_belief_on_truth`)
    and which round a speech counts in (:meth:`_speech_round`); the book answers probes
    (:meth:`answer`) and scores speeches (:meth:`before_action`, :meth:`after_action`).

    Args:
        probe_phases: The names of the phases at which to probe (empty: no probes).
        speaking_reward: Whether speeches and cover are scored.
    """

    #: The acts whose effect on the listeners is a speech's reward.
    SPEECH_KINDS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, probe_phases: tuple[str, ...], speaking_reward: bool) -> None:
        self.probe_names = probe_phases
        self.speaking_reward = speaking_reward
        self.speeches: list[SpeechReward] = []
        self.answers: list[dict[str, Any]] = []
        self.queue: list[int] = []
        self.tallies: list[SeatTally] = []
        self._before: float | None = None

    @property
    def enabled(self) -> bool:
        """Whether anything is measured (else the env behaves exactly as without it)."""
        return bool(self.probe_names) or self.speaking_reward

    def reset(self, num_players: int) -> None:
        """Forget the last game."""
        self.speeches, self.answers, self.queue = [], [], []
        self.tallies = [SeatTally() for _ in range(num_players)]

    @property
    def probe_seat(self) -> int | None:
        """The seat whose probe turn it is, or None."""
        return self.queue[0] if self.queue else None

    def score_answer(
        self, seat: int, question: ProbeQuestion, truth: Mapping[str, str], raw: Any
    ) -> None:
        """Read and score the probe turn's answer ``raw`` (any value) and end the turn.

        Raises:
            ValueError: ``seat`` has no probe to answer.
        """
        if self.probe_seat != seat:
            raise ValueError(f"seat {seat} has no probe to answer")
        parsed = parse_probe_answer(raw, question)
        score = score_probe(parsed, question, truth)
        self.tallies[seat].probes.add(score, parsed)
        self.answers.append({"seat": seat, **question.as_info(), **asdict(score)})
        self.queue.pop(0)

    # -- the game's side -------------------------------------------------------------
    def question(self, game: Any, seat: int) -> ProbeQuestion:
        """The probe put to ``seat`` now."""
        raise NotImplementedError

    def team_name(self, game: Any, team: str) -> str:
        """``team`` as the probe's classes name it (by default the team itself)."""
        return team

    def _listener_count(self, game: Any, speaker: int) -> int:
        """How many listen to a speech of ``speaker``."""
        raise NotImplementedError

    def _belief_on_truth(self, game: Any, speaker: int) -> float:
        """The listeners' mean belief on the truth (:func:`belief_on_truth`), 0 with none."""
        raise NotImplementedError

    def _speech_round(self, game: Any) -> int:
        """The round (day, meeting, quest) a speech made now counts in."""
        raise NotImplementedError

    # -- probes and speeches -----------------------------------------------------------
    def answer(self, game: Any, seat: int, raw: Any) -> None:
        """Score the probe turn's answer ``raw`` (any value; see ``parse_probe_answer``).

        Raises:
            ValueError: ``seat`` has no probe to answer.
        """
        if self.probe_seat != seat:
            raise ValueError(f"seat {seat} has no probe to answer")
        truth = {
            game.names[other]: self.team_name(game, game.teams[other])
            for other in range(game.setup.num_players)
            if other != seat
        }
        self.score_answer(seat, self.question(game, seat), truth, raw)

    def before_action(self, game: Any, seat: int, action: Any) -> None:
        """Hold the listeners' belief on the truth before a speech of ``seat``."""
        self._before = None
        if self.speaking_reward and action.kind in self.SPEECH_KINDS:
            self._before = self._belief_on_truth(game, seat)

    def after_action(self, game: Any, seat: int, action: Any) -> None:
        """Score the speech just made (if :meth:`before_action` held one)."""
        if self._before is None:
            return
        after = self._belief_on_truth(game, seat)
        listeners = self._listener_count(game, seat)
        self.add_speech(
            self._speech_round(game), seat, action.kind, listeners, after - self._before
        )
        self._before = None

    def add_speech(self, day: int, seat: int, kind: str, listeners: int, reward: float) -> None:
        """Record one speech's reward (0 when nobody listened)."""
        reward = reward if listeners else 0.0
        self.speeches.append(SpeechReward(day, seat, kind, listeners, reward))
        tally = self.tallies[seat]
        tally.speeches += 1
        tally.speaking += reward

    def add_cover(self, seat: int, cover: float) -> None:
        """Record ``seat``'s cover at one weighing: 1 − the listeners' mean suspicion of it."""
        self.tallies[seat].hidden.append(cover)

    def final_info(self, seat: int) -> dict[str, float]:
        """The seat's measures for its final info (only what was measured)."""
        tally = self.tallies[seat]
        info: dict[str, float] = {}
        if self.probe_names:
            info.update(tally.probes.info())
        if self.speaking_reward:
            info["speeches"] = tally.speeches
            info["speaking_reward_total"] = tally.speaking
            if tally.speeches:
                info["speaking_reward"] = tally.speaking / tally.speeches
            if tally.hidden:
                info["deception"] = float(np.mean(tally.hidden))
        return info

    def digest(self) -> dict[str, Any]:
        """The measures' state as JSON-able data (for the env's state digest)."""
        return {
            "queue": list(self.queue),
            "answers": self.answers,
            "speeches": [asdict(speech) for speech in self.speeches],
        }
