"""Policies for repeated matrix games: learning bots (the oracle) and scripted baselines.

Every agent follows envsuite's Agent protocol (``reset(seed)``, ``act(observation, info)``)
and learns only from its own ``info``: ``round`` and ``opponent_action`` after each round.
Agents answer with action names when given ``names`` (text mode) and indices otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from envsuite.seeding import make_generator


class _GameAgent:
    """Shared bookkeeping: the opponent's plays, read once per round from ``info``.

    Args:
        payoffs: The agent's own payoff matrix (rows its actions, columns the opponent's).
        names: Action names to answer with (text mode), or None to answer with indices.

    """

    def __init__(self, payoffs: Any, names: Sequence[str] | None = None) -> None:
        self.payoffs = np.asarray(payoffs, dtype=np.float64)
        self.names = tuple(names) if names is not None else None
        self.rng = make_generator(0, type(self).__name__)
        self.reset()

    @property
    def num_actions(self) -> int:
        """Number of the agent's own actions."""
        return int(self.payoffs.shape[0])

    def reset(self, seed: int | None = None) -> None:
        """Forget the last episode and reseed the agent's own generator."""
        self.rng = make_generator(0 if seed is None else seed, type(self).__name__)
        self.seen_round = 0
        self.opponent_counts = np.zeros(self.payoffs.shape[1], dtype=np.int64)
        self.cumulative = np.zeros(self.num_actions)  # each own action vs the opponent's plays
        self.last_opponent_action: int | None = None

    def observe(self, info: Mapping[str, Any]) -> None:
        """Record the round reported in ``info`` (once, however often it is passed)."""
        round_ = info.get("round", 0)
        if isinstance(round_, int) and round_ > self.seen_round and "opponent_action" in info:
            self.seen_round = round_
            opponent_action = int(info["opponent_action"])
            self.opponent_counts[opponent_action] += 1
            self.cumulative += self.payoffs[:, opponent_action]
            self.last_opponent_action = opponent_action

    def answer(self, action: int) -> Any:
        """Return the env action for own action index ``action``."""
        return self.names[action] if self.names is not None else action

    def choose(self) -> int:
        """Pick the next action index (after :meth:`observe`)."""
        raise NotImplementedError

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Update on the last round in ``info``, then answer with the next action."""
        self.observe(info)
        return self.answer(self.choose())


class FictitiousPlayAgent(_GameAgent):
    """Fictitious play: a best response to the opponent's empirical action frequencies.

    With ``temperature > 0`` it is smooth fictitious play: it samples from the logit
    (softmax) response, probabilities ∝ exp(expected payoff / (temperature · range)),
    using its own generator. With ``temperature == 0`` it plays the best response, ties
    to the lowest index (before any round: the best response to a uniform opponent).

    Args:
        payoffs: The agent's payoff matrix (rows its actions, columns the opponent's).
        names: Action names to answer with (text mode), or None for indices.
        temperature: Logit noise, as a fraction of the payoff range.

    """

    def __init__(
        self, payoffs: Any, names: Sequence[str] | None = None, temperature: float = 0.0
    ) -> None:
        self.temperature = float(temperature)
        super().__init__(payoffs, names)

    def choose(self) -> int:
        """Best (or logit) response to the empirical opponent frequencies."""
        total = int(self.opponent_counts.sum())
        expected = self.cumulative / total if total else self.payoffs.mean(axis=1)
        if self.temperature <= 0:
            return int(np.argmax(expected))
        spread = float(np.ptp(self.payoffs)) or 1.0
        return _sample_softmax(self.rng, expected / (self.temperature * spread))


class HedgeAgent(_GameAgent):
    """Hedge (multiplicative weights) on the counterfactual payoff of every own action.

    Plays action a with probability ∝ exp(η · C_a / range), where C_a is what a would have
    earned against the opponent's plays so far, and η = sqrt(8 ln n / T) (Freund and
    Schapire, 1997), which bounds expected external regret by range · sqrt(T ln n / 2).

    Args:
        payoffs: The agent's payoff matrix (rows its actions, columns the opponent's).
        names: Action names to answer with (text mode), or None for indices.
        horizon: Number of rounds T, which sets the learning rate.

    """

    def __init__(self, payoffs: Any, names: Sequence[str] | None = None, horizon: int = 100):
        self.learning_rate = math.sqrt(8.0 * math.log(max(len(payoffs), 2)) / max(horizon, 1))
        super().__init__(payoffs, names)

    def choose(self) -> int:
        """Sample from the exponential weights."""
        spread = float(np.ptp(self.payoffs)) or 1.0
        return _sample_softmax(self.rng, self.learning_rate * self.cumulative / spread)


class AlwaysAgent(_GameAgent):
    """Always plays the same action (index ``action``)."""

    def __init__(self, payoffs: Any, names: Sequence[str] | None = None, action: int = 0):
        if not 0 <= action < len(payoffs):
            raise ValueError(f"action must lie in [0, {len(payoffs)}), got {action}")
        self.action = action
        super().__init__(payoffs, names)

    def choose(self) -> int:
        """Return the fixed action."""
        return self.action


class TitForTatAgent(_GameAgent):
    """Plays ``first`` in round 1, then the opponent's last action (by index, when own)."""

    def __init__(self, payoffs: Any, names: Sequence[str] | None = None, first: int = 0):
        self.first = first
        super().__init__(payoffs, names)

    def choose(self) -> int:
        """Copy the opponent's last action (``first`` before any round or if not own)."""
        last = self.last_opponent_action
        return last if last is not None and last < self.num_actions else self.first


class UniformRandomAgent(_GameAgent):
    """Plays uniformly at random from its own generator, seeded in :meth:`reset`."""

    def choose(self) -> int:
        """Draw a uniformly random action."""
        return int(self.rng.integers(self.num_actions))


def _sample_softmax(rng: np.random.Generator, logits: np.ndarray) -> int:
    weights = np.exp(logits - logits.max())
    return int(rng.choice(len(weights), p=weights / weights.sum()))


def game_agents(env: Any, kind: type[_GameAgent], **kwargs: Any) -> dict[str, _GameAgent]:
    """One ``kind`` agent per player of a RepeatedGame env, told its payoffs and names."""
    raw = env.unwrapped
    text = raw.observation_mode == "text"
    return {
        agent: kind(raw.payoffs[agent], raw.names[agent] if text else None, **kwargs)
        for agent in raw.possible_agents
    }
