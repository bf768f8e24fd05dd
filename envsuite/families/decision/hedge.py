"""Hedge (multiplicative weights), the Experts-v0 oracle."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np


class HedgeAgent:
    """Hedge / exponential weights (Freund and Schapire, 1997) with a fixed learning rate.

    Plays p_t ∝ exp(−η L_{t−1}), where L_{t−1} is every action's total revealed loss so
    far, with η = √(8 ln N / T) by default. For losses in [0, 1] this guarantees external
    regret at most √(T ln N / 2) against any loss sequence, adaptive ones included.

    It learns only from the loss vectors the env reveals (``info["loss_vector"]``).

    Args:
        num_actions: Number of actions N.
        horizon: Number of rounds T (sets the default η).
        names: Action names, to answer in text (N comma-separated weights), or None to
            answer with a float32 vector.
        learning_rate: η; None for √(8 ln N / T).

    """

    def __init__(
        self,
        num_actions: int,
        horizon: int,
        names: tuple[str, ...] | None = None,
        learning_rate: float | None = None,
    ) -> None:
        self.num_actions = num_actions
        self.names = names
        if learning_rate is None:
            learning_rate = math.sqrt(8.0 * math.log(num_actions) / horizon)
        self.learning_rate = float(learning_rate)
        self.cumulative_losses = np.zeros(num_actions)

    def reset(self, seed: int | None = None) -> None:
        """Forget every loss (the agent is deterministic; ``seed`` is unused)."""
        self.cumulative_losses = np.zeros(self.num_actions)

    def distribution(self) -> np.ndarray:
        """Return the current weights exp(−η L), normalised (computed stably)."""
        logits = -self.learning_rate * (self.cumulative_losses - self.cumulative_losses.min())
        weights = np.exp(logits)
        return weights / weights.sum()

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Add the loss vector revealed in ``info`` (if any), then play the new weights."""
        if "loss_vector" in info:
            self.cumulative_losses += np.asarray(info["loss_vector"], dtype=float)
        play = self.distribution()
        if self.names is not None:
            return ", ".join(f"{p:.12g}" for p in play)
        return play.astype(np.float32)
