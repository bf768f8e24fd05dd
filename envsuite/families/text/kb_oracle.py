"""The oracle of the question games: an information-gain questioner.

The candidates are the items of the whole table (the list is public) consistent with
every answer so far and not guessed wrong. With two candidates or fewer it guesses the
first (table order); otherwise it asks the grammar question not asked yet whose yes/no
split of the candidates is the most even (the largest information gain for a uniform
prior; ties: the first in :meth:`~.kb_questions.KnowledgeBase.oracle_questions` order),
or guesses when no question splits them. It reads the game from ``env.unwrapped`` and
asks in the canonical phrasing (:meth:`~.kb_questions.KnowledgeBase.describe`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from envsuite.families.text.kb_questions import KnowledgeBase, Question, QuestionGame


@cache
def question_table(kb: KnowledgeBase) -> tuple[list[Question], np.ndarray]:
    """The oracle's questions and their answers (questions x items, bool)."""
    questions = kb.oracle_questions()
    return questions, np.stack([kb.truth(q) for q in questions])


def next_move(game: QuestionGame) -> tuple[str, Any]:
    """``("guess", item)`` or ``("question", q)``: the oracle's next move in ``game``."""
    candidates = game.candidates()
    if len(candidates) <= 2:
        return "guess", int(candidates[0])
    questions, table = question_table(game.kb)
    yes = table[:, candidates].sum(axis=1)
    imbalance = np.abs(2 * yes - len(candidates))
    best = int(np.argmin(imbalance))
    if imbalance[best] == len(candidates):  # no question splits them
        return "guess", int(candidates[0])
    return "question", questions[best]


class KnowledgeGameOracle:
    """Plays :func:`next_move` (text mode: the question's canonical text or the name)."""

    def __init__(self, env: Any) -> None:
        self.raw = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the oracle reads the game at every turn."""

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        """The next question or guess, as text."""
        kind, payload = next_move(self.raw.game)
        kb = self.raw.kb
        return kb.names[payload] if kind == "guess" else kb.describe(payload)
