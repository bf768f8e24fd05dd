"""Belief probes: asking a player how likely each other player is to hold each hidden class.

A probe is one turn of the player's ordinary turn protocol (the env hands it the turn,
the observation ends with :func:`probe_prompt`, ``info["probe"]`` holds the question as
data), so chat agents and Python agents answer it the same way. Nothing here knows a
game: a :class:`ProbeQuestion` names the players asked about and the classes (Werewolf's
teams, Avalon's sides, Among Us's crew and impostors).

Answer format (read leniently by :func:`parse_probe_answer`, never raising):

- ``Alice: 0.7, Bob: 0.1`` (also ``Alice=70%`` or one per line): the probability that
  each named player belongs to the *first* class of the question (for Werewolf, the
  werewolves); the other class gets the rest. Numbers above 1 and at most 100 are read
  as percentages.
- JSON: ``{"Alice": 0.7, "Bob": 0.1}`` (the same), or per player a distribution over
  the classes, ``{"Alice": {"werewolves": 0.7, "village": 0.3}}`` (normalised).
- A Python agent may return the dict itself instead of its JSON text.
- ``uniform``: every player gets the uniform distribution (an answer, not a default).

A player the answer leaves out or gives an unreadable value for gets the uniform
distribution over the classes (the documented default) and counts as *defaulted*; an
answer with any defaulted player (``uniform`` aside) counts as malformed.

Scores (both proper scoring rules; lower is better), per probe the mean over the players
asked about, with ``p`` the answered distribution and ``y`` the one-hot truth:

- Brier score: ``½ Σ_k (p_k − y_k)²``, in [0, 1]; for two classes it is the familiar
  ``(p − y)²`` of the first class. Uniform over two classes scores 0.25.
- Log score: ``−ln p_true``, with ``p_true`` clipped to at least :data:`LOG_FLOOR` so a
  confident mistake costs ``−ln 1e-4 ≈ 9.21`` rather than infinity. Uniform over two
  classes scores ``ln 2 ≈ 0.693``.
- Accuracy: the share of players whose likeliest class is the true one (a tie between
  the true class and others scores one over the number tied), AvalonBench's deduction
  accuracy (Light et al., 2023).

A game plugs in by building a :class:`ProbeQuestion` for the seat asked, reading the
answer with :func:`parse_probe_answer`, scoring it with :func:`score_probe` against the
seat's truth and keeping a :class:`ProbeTally` per seat, whose :meth:`ProbeTally.info`
gives the final-info keys (:data:`PROBE_KEYS`) the runner records as per-player metrics
and the report groups by agent, role and team. The bookkeeping every game shares is
:class:`~envsuite.families.social.social_measures.MeasureBook` (Werewolf and Mafia:
:mod:`~envsuite.families.social.werewolf_measures`; Avalon:
:mod:`~envsuite.families.social.avalon_measures`; Among Us:
:mod:`~envsuite.families.social.amongus_measures`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The least probability the log score uses (so it stays finite).
LOG_FLOOR = 1e-4
#: The answer that means "uniform for everyone" (the default answer offered to agents).
UNIFORM_ANSWER = "uniform"
#: Longest answer text read, in characters.
MAX_ANSWER_CHARS = 10_000
#: ``Name: 0.7``, ``"Name": 0.7``, ``Name = 70%``: a name, a separator and a number.
_PAIR = re.compile(
    r"([A-Za-z][A-Za-z0-9_]*)[\"']?\s*[:=]\s*"  # the name (closing quote allowed) and : or =
    r"(-?[0-9]*\.?[0-9]+(?:[eE]-?[0-9]+)?)\s*(%?)"  # the number, maybe a percentage
)


#: The final-info keys of a seat's probes (see :meth:`ProbeTally.info`).
PROBE_KEYS = ("probes", "probe_brier", "probe_log", "probe_accuracy", "probe_malformed")


@dataclass(frozen=True)
class ProbeQuestion:
    """One probe: which players are asked about, and over which classes.

    Attributes:
        players: The names of the players asked about (every other player).
        classes: The hidden classes, the one a bare number is about first.
        phase: The game phase the probe was asked at (for records and prompts).
        day: The game day the probe was asked on (Avalon: the quest; Among Us: the round).
        round_name: What the game calls ``day`` in the prompt (``"day"``, ``"quest"``,
            ``"round"``); ``as_info`` always names it ``day``.
    """

    players: tuple[str, ...]
    classes: tuple[str, ...]
    phase: str
    day: int
    round_name: str = "day"

    def as_info(self) -> dict[str, Any]:
        """The question as JSON-able data for ``info["probe"]``."""
        return {
            "players": list(self.players),
            "classes": list(self.classes),
            "phase": self.phase,
            "day": self.day,
        }


@dataclass(frozen=True)
class ProbeAnswer:
    """A read answer: a distribution per player, and how many players were defaulted."""

    beliefs: dict[str, tuple[float, ...]]
    defaulted: int

    @property
    def malformed(self) -> bool:
        """Whether any player had to take the default distribution."""
        return self.defaulted > 0


@dataclass(frozen=True)
class ProbeScore:
    """The scores of one answered probe (means over the players asked about)."""

    brier: float
    log: float
    accuracy: float


@dataclass
class ProbeTally:
    """One seat's probes so far: their count, score sums and malformed answers."""

    probes: int = 0
    brier: float = 0.0
    log: float = 0.0
    accuracy: float = 0.0
    malformed: int = 0

    def add(self, score: ProbeScore, answer: ProbeAnswer) -> None:
        """Count one scored answer."""
        self.probes += 1
        self.brier += score.brier
        self.log += score.log
        self.accuracy += score.accuracy
        self.malformed += int(answer.malformed)

    def info(self) -> dict[str, float]:
        """``probes`` and ``probe_malformed`` (counts) and the mean scores, when any."""
        info: dict[str, float] = {"probes": self.probes, "probe_malformed": self.malformed}
        if self.probes:
            info["probe_brier"] = self.brier / self.probes
            info["probe_log"] = self.log / self.probes
            info["probe_accuracy"] = self.accuracy / self.probes
        return info


def probe_prompt(question: ProbeQuestion) -> str:
    """The text that asks a language agent the probe (appended to its observation)."""
    first = question.classes[0]
    names = ", ".join(question.players)
    example = ", ".join(f"{name}: 0.5" for name in question.players[:2])
    return (
        f"Belief probe ({question.round_name} {question.day}, {question.phase}; this does "
        f"not change the game): for each of {names}, give the probability that the player "
        f"is on team {first}. Answer as 'Name: probability' pairs (e.g. '{example}'), as JSON "
        f'({{"{question.players[0]}": 0.5}}), or {UNIFORM_ANSWER!r}. '
        "A player left out counts as 0.5."
    )


def uniform(question: ProbeQuestion) -> tuple[float, ...]:
    """The default distribution: uniform over the question's classes."""
    return tuple(1.0 / len(question.classes) for _ in question.classes)


def parse_probe_answer(answer: Any, question: ProbeQuestion) -> ProbeAnswer:
    """Read ``answer`` leniently as a distribution per player (see the module); never raises."""
    default = uniform(question)
    if isinstance(answer, str) and answer.strip().lower() == UNIFORM_ANSWER:
        return ProbeAnswer(dict.fromkeys(question.players, default), 0)
    found = _as_mapping(answer)
    lookup = {name.lower(): name for name in question.players}
    beliefs: dict[str, tuple[float, ...]] = {}
    for key, value in found.items():
        name = lookup.get(str(key).strip().lower())
        if name is None or name in beliefs:
            continue
        distribution = _distribution(value, question.classes)
        if distribution is not None:
            beliefs[name] = distribution
    defaulted = 0
    for name in question.players:
        if name not in beliefs:
            beliefs[name] = default
            defaulted += 1
    return ProbeAnswer({name: beliefs[name] for name in question.players}, defaulted)


def _as_mapping(answer: Any) -> Mapping[Any, Any]:
    """The answer's name -> value pairs: a dict as is, JSON text, or ``Name: p`` pairs."""
    if isinstance(answer, Mapping):
        return answer
    if not isinstance(answer, str):
        return {}
    text = answer[:MAX_ANSWER_CHARS]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        try:
            loaded = json.loads(text[start : end + 1])
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            return loaded
    pairs: dict[str, str] = {}
    for name, number, percent in _PAIR.findall(text):
        pairs.setdefault(name, number + percent)
    return pairs


def _probability(value: Any) -> float | None:
    """A number or numeric text as a probability in [0, 1] (percentages read), else None."""
    percent = False
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith("%")
        try:
            number = float(text.rstrip("%").strip())
        except ValueError:
            return None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    else:
        return None
    if not math.isfinite(number) or number < 0:
        return None
    if percent or number > 1:
        number /= 100.0
    return number if number <= 1 else None


def _distribution(value: Any, classes: Sequence[str]) -> tuple[float, ...] | None:
    """One player's value as a distribution over ``classes``, or None when unreadable."""
    if isinstance(value, Mapping):
        lookup = {str(key).strip().lower(): item for key, item in value.items()}
        weights = [_probability(lookup.get(name.lower())) for name in classes]
        if any(weight is None for weight in weights):
            return None
        total = sum(weight for weight in weights if weight is not None)
        if total <= 0:
            return None
        return tuple(float(weight or 0.0) / total for weight in weights)
    if len(classes) != 2:
        return None  # a bare number names one class of two only
    first = _probability(value)
    return None if first is None else (first, 1.0 - first)


def score_probe(
    answer: ProbeAnswer, question: ProbeQuestion, truth: Mapping[str, str]
) -> ProbeScore:
    """Brier, log and accuracy of ``answer`` against each player's true class (see the module).

    Raises:
        ValueError: ``truth`` misses a player asked about or names a class not asked about.
    """
    briers, logs, hits = [], [], []
    for name in question.players:
        if name not in truth or truth[name] not in question.classes:
            raise ValueError(f"no true class in {question.classes} for {name!r}")
        belief = answer.beliefs[name]
        true = question.classes.index(truth[name])
        briers.append(0.5 * sum((p - (k == true)) ** 2 for k, p in enumerate(belief)))
        logs.append(-math.log(max(belief[true], LOG_FLOOR)))
        top = max(belief)
        tied = [k for k, p in enumerate(belief) if p >= top - 1e-12]
        hits.append(1.0 / len(tied) if true in tied else 0.0)
    count = len(question.players)
    return ProbeScore(sum(briers) / count, sum(logs) / count, sum(hits) / count)


def answer_text(answer: Any) -> str:
    """Any answer as text: text as is, other data (a Python agent's dict) as JSON, else ""."""
    if isinstance(answer, str):
        return answer[:MAX_ANSWER_CHARS]
    try:
        return json.dumps(answer, default=str)[:MAX_ANSWER_CHARS]
    except (TypeError, ValueError):
        return ""


def format_answer(beliefs: Mapping[str, float]) -> str:
    """A first-class probability per player as answer text (JSON, exact floats)."""
    return json.dumps({name: float(p) for name, p in beliefs.items()})
