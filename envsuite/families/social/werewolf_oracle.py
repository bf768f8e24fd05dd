"""The Werewolf-v0 oracle: a :class:`~werewolf_bots.BeliefBot` in every seat.

Werewolf has no solution to play; the reference policy is the strongest scripted bot,
which reads only what its seat may know. With it in every seat a game always reaches a
decision (the env-level success), which the conformance kit checks.
"""

from __future__ import annotations

from typing import Any

from envsuite.families.social.werewolf_bots import BeliefBot


def werewolf_oracle(env: Any) -> dict[str, BeliefBot]:
    """One belief-tracking bot per seat of ``env``."""
    return {agent: BeliefBot(env) for agent in env.unwrapped.possible_agents}
