"""The ``TwentyQuestions-v0`` oracle: the information-gain questioner of ``kb_oracle``.

It names every one of the 506 objects within 20 turns: in 9.61 turns on average (the
right guess included), at most 12 (``tests/families/text/test_twenty_questions.py`` plays
them all).
"""

from __future__ import annotations

from typing import Any

from envsuite.families.text.kb_oracle import KnowledgeGameOracle


def twenty_questions_oracle(env: Any) -> KnowledgeGameOracle:
    """The TwentyQuestions-v0 oracle."""
    return KnowledgeGameOracle(env)
