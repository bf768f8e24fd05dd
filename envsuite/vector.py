"""Vector-env support: seeding sub-environments from one seed without ``seed + index``."""

from __future__ import annotations

import numbers
from typing import Any

from gymnasium.vector import VectorEnv, VectorWrapper

from envsuite.seeding import derive_seeds


class DerivedSeedVectorEnv(VectorWrapper):
    """Turns ``reset(seed=int)`` into independent per-env seeds.

    Gymnasium seeds sub-environment ``i`` with ``seed + i``, so two runs whose seeds differ
    by one share all but one episode. This wrapper derives the per-env seeds with
    :func:`envsuite.seeding.derive_seeds` (key ``"vector"``) instead. A list of seeds is
    passed through unchanged.
    """

    def __init__(self, env: VectorEnv) -> None:
        super().__init__(env)

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every sub-environment, deriving their seeds from an int ``seed``."""
        seeds: Any = seed
        if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            seeds = list(derive_seeds(int(seed), self.num_envs, "vector"))
        return self.env.reset(seed=seeds, options=options)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method of every sub-environment."""
        inner: Any = self.env
        return tuple(inner.call(name, *args, **kwargs))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Get an attribute of every sub-environment."""
        inner: Any = self.env
        return tuple(inner.get_attr(name))

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        """Set an attribute of every sub-environment."""
        inner: Any = self.env
        inner.set_attr(name, values)
