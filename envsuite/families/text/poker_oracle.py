"""The poker oracle: the CFR+ equilibrium, sampled from each seat's information state.

Each seat samples its action from the equilibrium's probabilities at its own information
state (:meth:`~envsuite.families.text.poker.PokerEnv.information_state_key`), with its own
generator seeded by ``reset(seed=...)``. It never reads the opponent's card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.text.poker_cfr import equilibrium
from envsuite.seeding import make_generator


class PokerOracle:
    """Plays the equilibrium strategy for one seat of a poker env.

    Args:
        env: The env it plays in (any wrapper of a PokerEnv).
        agent: The seat it plays.

    """

    def __init__(self, env: Any, agent: str) -> None:
        self.env = env.unwrapped
        self.agent = agent
        self.policy = equilibrium(self.env.game)
        self.rng = make_generator(0, "poker-oracle", agent)

    def reset(self, seed: int | None = None) -> None:
        """A fresh generator from ``seed`` (and the seat): same seed, same choices."""
        self.rng = make_generator(0 if seed is None else seed, "poker-oracle", self.agent)

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """An action drawn from the equilibrium at this seat's information state."""
        key = self.env.information_state_key(self.agent)
        probs = self.policy.action_probabilities(key)
        action = int(self.rng.choice(len(probs), p=probs / probs.sum()))
        return self.env.encode_action(action)


def poker_oracle(env: Any) -> dict[str, PokerOracle]:
    """Build the KuhnPoker-v0 / LeducHoldem-v0 oracle: the equilibrium in each seat."""
    return {agent: PokerOracle(env, agent) for agent in env.unwrapped.possible_agents}
