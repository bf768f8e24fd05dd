"""LinUCB with disjoint linear models (the ContextualBandit-v0 oracle)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np


class LinUCBAgent:
    """LinUCB, disjoint version (Li et al., 2010, Algorithm 1).

    Each arm a keeps a ridge-regression estimate θ̂_a = A_a⁻¹ b_a with A_a = λI + Σ x xᵀ
    and b_a = Σ r x over the rounds it was pulled, and the agent pulls
    argmax_a x·θ̂_a + α √(xᵀ A_a⁻¹ x), ties to the lowest index (so it is deterministic).

    It learns only from what the env shows every agent: after each step it updates the
    pulled arm's model from ``info["arm"]``, ``info["context"]`` and ``info["reward"]``
    (the arm actually pulled, which after a malformed answer is the env's penalty arm), and
    it acts on ``info["next_context"]``, the context also shown in the observation.

    Args:
        num_arms: Number of arms K.
        context_dim: Context dimension d.
        names: Arm names to answer with (text mode), or None to answer with indices.
        alpha: Width α of the confidence bonus.
        ridge: Ridge regularisation λ (the prior precision of each θ_a).

    """

    def __init__(
        self,
        num_arms: int,
        context_dim: int,
        names: tuple[str, ...] | None = None,
        alpha: float = 1.0,
        ridge: float = 1.0,
    ) -> None:
        self.num_arms = num_arms
        self.context_dim = context_dim
        self.names = names
        self.alpha = float(alpha)
        self.ridge = float(ridge)
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """Forget every observation (the agent is deterministic; ``seed`` is unused)."""
        identity = np.eye(self.context_dim) / self.ridge
        self.a_inverse = np.repeat(identity[None], self.num_arms, axis=0)
        self.b = np.zeros((self.num_arms, self.context_dim))

    def update(self, arm: int, context: np.ndarray, reward: float) -> None:
        """Add one observation to ``arm``'s model (Sherman–Morrison update of A⁻¹)."""
        a_inv = self.a_inverse[arm]
        ax = a_inv @ context
        self.a_inverse[arm] = a_inv - np.outer(ax, ax) / (1.0 + context @ ax)
        self.b[arm] += reward * context

    def upper_bounds(self, context: np.ndarray) -> np.ndarray:
        """Return every arm's upper confidence bound x·θ̂_a + α √(xᵀ A_a⁻¹ x)."""
        theta = np.einsum("kij,kj->ki", self.a_inverse, self.b)
        width = np.einsum("i,kij,j->k", context, self.a_inverse, context)
        return theta @ context + self.alpha * np.sqrt(np.maximum(width, 0.0))

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Learn from the last pull in ``info``, then choose an arm for the next context."""
        if "arm" in info and "context" in info and "reward" in info:
            context = np.asarray(info["context"], dtype=float)
            self.update(int(info["arm"]), context, float(info["reward"]))
        if "next_context" not in info:  # the episode is over; any answer will do
            return self._answer(0)
        context = np.asarray(info["next_context"], dtype=float)
        return self._answer(int(np.argmax(self.upper_bounds(context))))

    def _answer(self, arm: int) -> Any:
        return self.names[arm] if self.names is not None else arm
