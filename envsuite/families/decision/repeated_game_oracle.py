"""The ``RepeatedGame-v0`` oracle (the game agents are in :mod:`.game_policies`)."""

from __future__ import annotations

from typing import Any

from envsuite.families.decision.game_policies import FictitiousPlayAgent, _GameAgent, game_agents


def repeated_game_oracle(env: Any) -> dict[str, _GameAgent]:
    """Build the RepeatedGame-v0 oracle: a (plain) fictitious-play agent per player.

    In self-play its average external regret is within 0.1 of the payoff range at every
    horizon from 20 rounds on in every named game (within 0.05 from 60 rounds on), lower
    than Hedge reaches in matching pennies and rock-paper-scissors at the same horizons.
    """
    return game_agents(env, FictitiousPlayAgent)
