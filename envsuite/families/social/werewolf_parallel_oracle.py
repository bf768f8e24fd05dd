"""The WerewolfParallel-v0 and MafiaParallel-v0 oracle: a belief bot in every seat.

The same reference policy as Werewolf-v0's (:mod:`.werewolf_oracle`): a
:class:`~envsuite.families.social.werewolf_bots.BeliefBot` per seat, each playing its
agent of the Parallel form through a
:class:`~envsuite.families.social.werewolf_parallel_bots.ParallelSeat`.
"""

from __future__ import annotations

from typing import Any

from envsuite.families.social.werewolf_bots import BeliefBot
from envsuite.families.social.werewolf_parallel_bots import ParallelSeat


def werewolf_parallel_oracle(env: Any) -> dict[str, ParallelSeat]:
    """One belief-tracking bot per agent of the Parallel ``env``."""
    return {agent: ParallelSeat(env, agent, BeliefBot()) for agent in env.unwrapped.possible_agents}
