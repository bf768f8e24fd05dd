"""Reference bandit policies: UCB1 and Thompson sampling (the bandit oracles)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.seeding import make_generator


class _ArmStatistics:
    """Pull counts and reward sums, updated from ``info["arm"]`` and ``info["reward"]``."""

    def __init__(self, num_arms: int, names: tuple[str, ...] | None) -> None:
        self.num_arms = num_arms
        self.names = names
        self.counts = np.zeros(num_arms, dtype=np.int64)
        self.sums = np.zeros(num_arms)
        self.sum_squares = np.zeros(num_arms)

    def reset(self) -> None:
        self.counts[:] = 0
        self.sums[:] = 0.0
        self.sum_squares[:] = 0.0

    def update(self, info: Mapping[str, Any]) -> None:
        if "arm" in info and "reward" in info:
            arm, reward = int(info["arm"]), float(info["reward"])
            self.counts[arm] += 1
            self.sums[arm] += reward
            self.sum_squares[arm] += reward * reward

    def answer(self, arm: int) -> Any:
        """The action for ``arm``: its name in text mode, its index in vector mode."""
        return self.names[arm] if self.names is not None else arm


class UCB1Agent:
    """UCB1 (Auer, Cesa-Bianchi and Fischer, 2002): pull argmax of mean + c·sqrt(2 ln t / n).

    Each arm is pulled once first. ``scale`` is the reward range (1 for Bernoulli) or the
    reward noise standard deviation for Gaussian arms. Ties go to the lowest index, so the
    agent is deterministic.

    Args:
        num_arms: Number of arms.
        names: Arm names to answer with (text mode), or None to answer with indices.
        scale: Width of the exploration bonus.
    """

    def __init__(self, num_arms: int, names: tuple[str, ...] | None = None, scale: float = 1.0):
        self.stats = _ArmStatistics(num_arms, names)
        self.scale = scale

    def reset(self, seed: int | None = None) -> None:
        """Forget all pulls."""
        self.stats.reset()

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Update on the last pull reported in ``info``, then choose the next arm."""
        stats = self.stats
        stats.update(info)
        untried = np.flatnonzero(stats.counts == 0)
        if untried.size:
            return stats.answer(int(untried[0]))
        t = int(stats.counts.sum())
        bonus = self.scale * np.sqrt(2.0 * math.log(t) / stats.counts)
        return stats.answer(int(np.argmax(stats.sums / stats.counts + bonus)))


class ThompsonSamplingAgent:
    """Thompson sampling: Beta(1, 1) priors for Bernoulli arms, Gaussian posteriors otherwise.

    For Gaussian arms the posterior of each mean is N(sum / (n + 1), noise_std² / (n + 1))
    (a N(0, noise_std²) prior). Randomness comes from the agent's own generator, seeded in
    :meth:`reset`.

    Args:
        num_arms: Number of arms.
        names: Arm names to answer with (text mode), or None to answer with indices.
        arm_type: ``"bernoulli"`` or ``"gaussian"``.
        noise_std: Reward noise standard deviation assumed for Gaussian arms.
    """

    def __init__(
        self,
        num_arms: int,
        names: tuple[str, ...] | None = None,
        arm_type: str = "bernoulli",
        noise_std: float = 1.0,
    ) -> None:
        self.stats = _ArmStatistics(num_arms, names)
        self.arm_type = arm_type
        self.noise_std = noise_std
        self.rng = make_generator(0, "thompson")

    def reset(self, seed: int | None = None) -> None:
        """Forget all pulls and reseed the sampling generator."""
        self.stats.reset()
        self.rng = make_generator(0 if seed is None else seed, "thompson")

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Update on the last pull, sample each arm's mean from its posterior, take the best."""
        stats = self.stats
        stats.update(info)
        if self.arm_type == "bernoulli":
            samples = self.rng.beta(1.0 + stats.sums, 1.0 + stats.counts - stats.sums)
        else:
            n = stats.counts + 1.0
            samples = self.rng.normal(stats.sums / n, self.noise_std / np.sqrt(n))
        return stats.answer(int(np.argmax(samples)))
