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

from typing import Any

import numpy as np

from envsuite.families.text.kb_questions import QuestionGame


def next_move(game: QuestionGame) -> tuple[str, Any]:
    """``("guess", item)`` or ``("question", q)``: the oracle's next move in ``game``."""
    candidates = game.candidates()
    if len(candidates) <= 2:
        return "guess", int(candidates[0])
    questions, table = game.kb.question_list, game.kb.question_table
    yes = table[:, candidates].sum(axis=1)
    imbalance = np.abs(2 * yes - len(candidates))
    best = int(np.argmin(imbalance))
    if imbalance[best] == len(candidates):  # no question splits them
        return "guess", int(candidates[0])
    return "question", questions[best]


class KnowledgeGameOracle:
    """Plays :func:`next_move` (text: the canonical question or the name; vector: its action).

    The vector action is the question's position in ``kb.question_list``, or the number of
    questions plus the item's position.
    """

    def __init__(self, env: Any) -> None:
        self.raw = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the oracle reads the game at every turn."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next question or guess, as text or as the vector mode's action."""
        kind, payload = next_move(self.raw.game)
        kb = self.raw.kb
        if not self.raw.text_mode:
            count = len(kb.question_list)
            return count + payload if kind == "guess" else kb.question_number[payload]
        return kb.names[payload] if kind == "guess" else kb.describe(payload)
