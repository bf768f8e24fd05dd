"""Stochastic bandit policies that report their action probabilities (for policy selection).

Each policy here is an :class:`~envsuite.agent_protocol.Agent` that also speaks the
stochastic-policy protocol of :mod:`envsuite.evaluation.policy_selection`:

* ``action_probabilities(observation, info)`` returns π(· | history) as a mapping from
  action to probability, and advances the policy's state exactly as ``act`` would (it
  learns from ``info["arm"]`` / ``info["reward"]`` of the last step) without drawing;
* ``act(observation, info)`` is ``action_probabilities`` followed by one draw from the
  policy's own generator (seeded in ``reset(seed)``);
* ``last_action_probability()`` is the probability of the action ``act`` last returned,
  which the runner logs as ``Step.probability``.

Actions are arm indices in vector mode and arm names in text mode (the names the env lists
in ``info["legal_actions"]``), so the mapping's keys are exactly what ``act`` returns. The
policies learn only from ``info``, never from their own draws, so replaying a logged
trajectory through ``action_probabilities`` leaves them in the state ``act`` would have.
Every policy reads the made env's ``num_arms`` (and ``names``, ``observation_mode``,
``context_dim``) through ``env.unwrapped``, so they are built with
``module:Class`` agent strings (the loader passes ``env``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.agent_protocol import ReportsActionProbabilities, ReportsActionProbability
from envsuite.families.decision.linucb import LinUCBAgent
from envsuite.seeding import make_generator


def _check_probability(name: str, value: float) -> float:
    if not (isinstance(value, int | float) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    return float(value)


class ArmPolicy(ReportsActionProbabilities, ReportsActionProbability):
    """Base of the policies here: arm statistics, seeded sampling and the protocol.

    Subclasses implement :meth:`distribution` (π over arms from the statistics so far)
    and may override :meth:`observe` to learn more from ``info``.

    Args:
        env: The made env (a bandit of the decision family).
    """

    def __init__(self, env: Any) -> None:
        raw = env.unwrapped
        self.num_arms = int(raw.num_arms)
        self.names: tuple[str, ...] | None = (
            tuple(raw.names) if getattr(raw, "observation_mode", "vector") == "text" else None
        )
        self.counts = np.zeros(self.num_arms, dtype=np.int64)
        self.sums = np.zeros(self.num_arms)
        self.rng = make_generator(0, type(self).__name__)
        self._last_probability: float | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget every pull and reseed the policy's generator."""
        self.counts[:] = 0
        self.sums[:] = 0.0
        self.rng = make_generator(0 if seed is None else seed, type(self).__name__)
        self._last_probability = None

    def observe(self, info: Mapping[str, Any]) -> None:
        """Learn from the last step's ``info`` (the arm actually pulled and its reward)."""
        if "arm" in info and "reward" in info:
            arm = int(info["arm"])
            self.counts[arm] += 1
            self.sums[arm] += float(info["reward"])

    def distribution(self) -> np.ndarray:
        """π over arms (length K, sums to 1) given what was observed so far."""
        raise NotImplementedError

    def action_probabilities(self, observation: Any, info: Mapping[str, Any]) -> dict[Any, float]:
        """Learn from ``info`` as :meth:`act` would, then return π(action) for every arm."""
        self.observe(info)
        probabilities = self.distribution()
        return {self.answer(arm): float(p) for arm, p in enumerate(probabilities)}

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Learn from ``info``, then draw an arm from π with the policy's own generator."""
        self.observe(info)
        probabilities = self.distribution()
        arm = int(self.rng.choice(self.num_arms, p=probabilities))
        self._last_probability = float(probabilities[arm])
        return self.answer(arm)

    def last_action_probability(self) -> float | None:
        """The probability π gave the action :meth:`act` last returned."""
        return self._last_probability

    def answer(self, arm: int) -> Any:
        """The action for ``arm``: its name in text mode, its index in vector mode."""
        return self.names[arm] if self.names is not None else arm

    def means(self, initial_value: float) -> np.ndarray:
        """Empirical mean reward per arm; ``initial_value`` for arms never pulled."""
        pulled = self.counts > 0
        means = np.full(self.num_arms, float(initial_value))
        means[pulled] = self.sums[pulled] / self.counts[pulled]
        return means


def _greedy(values: np.ndarray, epsilon: float) -> np.ndarray:
    """ε uniformly over all arms, 1 − ε split evenly over the arms with the highest value."""
    best = values == values.max()
    return epsilon / values.size + (1.0 - epsilon) * best / best.sum()


class UniformPolicy(ArmPolicy):
    """Every arm with probability 1/K: the usual behaviour policy for logging.

    Args:
        env: The made env.
    """

    def distribution(self) -> np.ndarray:
        """1/K for every arm."""
        return np.full(self.num_arms, 1.0 / self.num_arms)


class EpsilonGreedy(ArmPolicy):
    """ε-greedy on empirical means: arms never pulled first, then the best mean.

    π(a) = ε/K + (1 − ε)·1[a ∈ G]/|G|, where G is the set of arms never pulled if there
    are any, else the arms with the highest empirical mean (ties split evenly, so the
    policy needs no tie-breaking draw). ε = 0 gives the greedy policy, ε = 1 the uniform
    one.

    Args:
        env: The made env.
        epsilon: Exploration probability ε in [0, 1].
    """

    def __init__(self, env: Any, epsilon: float = 0.1) -> None:
        super().__init__(env)
        self.epsilon = _check_probability("epsilon", epsilon)

    def distribution(self) -> np.ndarray:
        """ε-greedy over the arms' empirical means, untried arms counting as the best."""
        return _greedy(self.means(math.inf), self.epsilon)


class Softmax(ArmPolicy):
    """Boltzmann exploration: π(a) ∝ exp(μ̂_a / τ) over empirical means μ̂.

    Arms never pulled count as having mean ``initial_value`` (1.0 is optimistic for
    Bernoulli arms, whose rewards lie in [0, 1]).

    Args:
        env: The made env.
        temperature: Temperature τ > 0 (small: nearly greedy; large: nearly uniform).
        initial_value: Mean assumed for arms never pulled.
    """

    def __init__(self, env: Any, temperature: float = 0.1, initial_value: float = 1.0) -> None:
        super().__init__(env)
        if not (isinstance(temperature, int | float) and temperature > 0):
            raise ValueError(f"temperature must be a number > 0, got {temperature!r}")
        if not (isinstance(initial_value, int | float) and math.isfinite(initial_value)):
            raise ValueError(f"initial_value must be a finite number, got {initial_value!r}")
        self.temperature = float(temperature)
        self.initial_value = float(initial_value)

    def distribution(self) -> np.ndarray:
        """The softmax of the empirical means over τ (shifted by the max, for stability)."""
        logits = self.means(self.initial_value) / self.temperature
        weights = np.exp(logits - logits.max())
        return weights / weights.sum()


class FixedArm(ArmPolicy):
    """Always one arm, with ε spread uniformly over all arms (a non-learning baseline).

    Args:
        env: The made env.
        arm: Index of the arm to pull.
        epsilon: Exploration probability ε in [0, 1].
    """

    def __init__(self, env: Any, arm: int = 0, epsilon: float = 0.0) -> None:
        super().__init__(env)
        if isinstance(arm, bool) or not isinstance(arm, int) or not 0 <= arm < self.num_arms:
            raise ValueError(f"arm must be an int in [0, {self.num_arms}), got {arm!r}")
        self.arm = arm
        self.epsilon = _check_probability("epsilon", epsilon)

    def distribution(self) -> np.ndarray:
        """1 − ε + ε/K on the fixed arm, ε/K on each other arm."""
        values = np.zeros(self.num_arms)
        values[self.arm] = 1.0
        return _greedy(values, self.epsilon)


class LinearEpsilonGreedy(ArmPolicy):
    """ε-greedy over LinUCB's per-arm ridge models (ContextualBandit-v0).

    The arm models are those of :class:`~envsuite.families.decision.linucb.LinUCBAgent`
    (learned from ``info["arm"]``, ``info["context"]`` and ``info["reward"]``); the greedy
    set G is the arms with the highest upper bound x·θ̂_a + α √(xᵀ A_a⁻¹ x) for the
    coming context ``info["next_context"]`` (α = 0: plain ridge-greedy; α > 0: LinUCB),
    and π(a) = ε/K + (1 − ε)·1[a ∈ G]/|G|. With ε = 0 and α > 0 this is LinUCB made a
    (deterministic) stochastic policy. After the last round (no ``next_context``) π is
    uniform.

    Args:
        env: The made env (a contextual bandit).
        epsilon: Exploration probability ε in [0, 1].
        alpha: Width α of LinUCB's confidence bonus (>= 0).
        ridge: Ridge regularisation λ > 0.
    """

    def __init__(
        self, env: Any, epsilon: float = 0.1, alpha: float = 0.0, ridge: float = 1.0
    ) -> None:
        super().__init__(env)
        self.epsilon = _check_probability("epsilon", epsilon)
        if not (isinstance(alpha, int | float) and alpha >= 0):
            raise ValueError(f"alpha must be a number >= 0, got {alpha!r}")
        if not (isinstance(ridge, int | float) and ridge > 0):
            raise ValueError(f"ridge must be a number > 0, got {ridge!r}")
        context_dim = int(env.unwrapped.context_dim)
        self.model = LinUCBAgent(self.num_arms, context_dim, None, float(alpha), float(ridge))
        self.context: np.ndarray | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget every observation and reseed the policy's generator."""
        super().reset(seed)
        self.model.reset()
        self.context = None

    def observe(self, info: Mapping[str, Any]) -> None:
        """Update the pulled arm's model; remember the coming context."""
        super().observe(info)
        if "arm" in info and "context" in info and "reward" in info:
            context = np.asarray(info["context"], dtype=float)
            self.model.update(int(info["arm"]), context, float(info["reward"]))
        next_context = info.get("next_context")
        self.context = None if next_context is None else np.asarray(next_context, dtype=float)

    def distribution(self) -> np.ndarray:
        """ε-greedy over the upper bounds for the coming context (uniform after the end)."""
        if self.context is None:
            return np.full(self.num_arms, 1.0 / self.num_arms)
        return _greedy(self.model.upper_bounds(self.context), self.epsilon)
