"""The Avalon-v0 oracle: an Avalon :class:`~avalon_bots.BeliefBot` in every seat.

Avalon has no solution to play; the reference policy is the strongest scripted bot, which
reads only what its seat may know (exact Bayes over the evil set and Merlin's seat). Every
Avalon game ends decided, so the env-level success the conformance kit checks is met by
any policy; the bots' strength is measured in ``tests/families/social/test_avalon_env.py``.
"""

from __future__ import annotations

from typing import Any

from envsuite.families.social.avalon_bots import BeliefBot


def avalon_oracle(env: Any) -> dict[str, BeliefBot]:
    """One belief-tracking bot per seat of ``env``."""
    return {agent: BeliefBot(env) for agent in env.unwrapped.possible_agents}
