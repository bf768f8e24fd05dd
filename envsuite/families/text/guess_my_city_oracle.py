"""The ``GuessMyCity-v0`` oracle: the information-gain questioner of ``kb_oracle``.

It names every one of the 380 cities within 20 turns: in 9.32 turns on average (the
right guess included), at most 10 (``tests/families/text/test_guess_my_city.py`` plays
them all).
"""

from __future__ import annotations

from typing import Any

from envsuite.families.text.kb_oracle import KnowledgeGameOracle


def guess_my_city_oracle(env: Any) -> KnowledgeGameOracle:
    """The GuessMyCity-v0 oracle."""
    return KnowledgeGameOracle(env)
