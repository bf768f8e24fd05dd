"""The AmongUs-v0 oracle: a :class:`~amongus_bots.BeliefBot` in every seat.

Among Us has no solution to play; the reference policy is the strongest scripted bot,
which reads only what its seat may know. With it in every seat every game of 60 seeds
each of 4, 5, 7 and 10 players reached a decision (the env-level success), which the
conformance kit holds to 90%.
"""

from __future__ import annotations

from typing import Any

from envsuite.families.social.amongus_bots import BeliefBot


def amongus_oracle(env: Any) -> dict[str, BeliefBot]:
    """One belief-tracking bot per seat of ``env``."""
    return {agent: BeliefBot(env) for agent in env.unwrapped.possible_agents}
