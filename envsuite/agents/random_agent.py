"""The random agent: uniform over ``info["legal_actions"]`` when given, else over the space."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from gymnasium.spaces import Space

from envsuite.seeding import derive_seed


class RandomAgent:
    """Acts uniformly at random, from its own seeded generator.

    When the env lists ``info["legal_actions"]`` (text envs with a finite action set), the
    agent picks one of them; otherwise it samples the action space. Seeded by
    :meth:`reset`, so a run is reproducible.

    Args:
        action_space: The env's action space (for one agent, in multi-agent envs).
    """

    def __init__(self, action_space: Space[Any]) -> None:
        self.action_space = copy.deepcopy(action_space)
        self.action_space.seed(0)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the agent's generator."""
        self.action_space.seed(derive_seed(0 if seed is None else seed, "random-agent"))

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """A uniformly random legal action, or a sample of the action space."""
        legal = info.get("legal_actions") if isinstance(info, Mapping) else None
        if legal:
            return legal[int(self.action_space.np_random.integers(len(legal)))]
        return self.action_space.sample()
