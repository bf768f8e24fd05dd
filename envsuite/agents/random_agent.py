"""The random agent: uniform over the legal actions the env names, else over the space."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium.spaces import Discrete, Space

from envsuite.agents.space_copy import independent_space_copy
from envsuite.seeding import derive_seed


class RandomAgent:
    """Acts uniformly at random, from its own seeded generator.

    When the env lists ``info["legal_actions"]`` (text envs with a finite action set), the
    agent picks one of them; when it gives an ``info["action_mask"]`` for a ``Discrete``
    or ``MultiBinary``-like space (PettingZoo's convention for turn-based games), it samples
    the space under that mask (an all-zero mask, the mask of an agent whose turn it is not,
    is ignored);
    otherwise it samples the action space. Seeded by :meth:`reset`, so a run is
    reproducible.

    Args:
        action_space: The env's action space (for one agent, in multi-agent envs).
    """

    def __init__(self, action_space: Space[Any]) -> None:
        self.action_space = independent_space_copy(action_space)
        self.action_space.seed(0)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the agent's generator."""
        self.action_space.seed(derive_seed(0 if seed is None else seed, "random-agent"))

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """A uniformly random legal action, or a sample of the action space."""
        legal = info.get("legal_actions") if isinstance(info, Mapping) else None
        if legal:
            return legal[int(self.action_space.np_random.integers(len(legal)))]
        mask = info.get("action_mask") if isinstance(info, Mapping) else None
        if (
            mask is not None
            and isinstance(self.action_space, Discrete)
            and _fits(mask, int(self.action_space.n))
        ):
            return self.action_space.sample(mask=np.asarray(mask, dtype=np.int8))
        return self.action_space.sample()


def _fits(mask: Any, n: int) -> bool:
    """Whether ``mask`` is a 0/1 vector of length ``n`` with at least one legal action."""
    try:
        array = np.asarray(mask)
    except Exception:  # an env's odd mask: sample without it
        return False
    return (
        array.shape == (n,)
        and array.dtype.kind in "biu"
        and bool(np.isin(array, (0, 1)).all())
        and bool(array.any())
    )
