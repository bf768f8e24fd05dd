"""Turn-based (AEC) and nondeterministic envs for testing the kit: correct ones, and copies
broken in exactly one way each."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.families.decision.nim import NimEnv
from envsuite.families.decision.nim_oracle import nim_oracle
from tests.testing.broken_envs import GoodEnv


def _noise() -> float:
    """A number in [0, 1) from the operating system, outside any seed's reach."""
    return int.from_bytes(os.urandom(4), "little") / 2**32


class GoodNim(NimEnv):
    __doc__ = NimEnv.__doc__


class DeadStepRaisingNim(NimEnv):
    __doc__ = NimEnv.__doc__

    def step(self, action: Any, agent: str | None = None) -> None:
        selected = self.agent_selection
        if self.agents and self.terminations[selected] and action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")  # the bug
        super().step(action, agent)


class TurnBlindNim(NimEnv):
    __doc__ = NimEnv.__doc__

    def step(self, action: Any, agent: str | None = None) -> None:
        super().step(action)  # the bug: whoever sent it, the action is the mover's


class GlobalRandomNim(NimEnv):
    __doc__ = NimEnv.__doc__

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(heaps=(9, 9, 9), random_start=True, render_mode=render_mode)

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, dict[str, Any]]]:
        first, infos = super().new_episode(seed, options)
        heaps = tuple(int(np.random.randint(1, 10)) for _ in self.heaps)  # the bug
        self.state = type(self.state)(heaps, misere=self.misere)
        return first, infos


class NoisyNim(NimEnv):
    """Nim whose vector observation carries a number of OS noise (logical state: seeded).

    Declared ``nondeterministic`` it passes the kit; declared deterministic it must fail.
    """

    __doc__ = NimEnv.__doc__

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(
            heaps=(5, 6, 7), random_start=True, observation_mode="vector", render_mode=render_mode
        )
        noisy = spaces.Box(0.0, float(self.max_heap), (len(self.heaps) + 2,), np.float32)
        self.observation_spaces = dict.fromkeys(self.possible_agents, noisy)

    def observe(self, agent: str) -> np.ndarray:
        return np.append(super().observe(agent), np.float32(_noise())).astype(np.float32)


class FrozenDigestNim(NoisyNim):
    __doc__ = NimEnv.__doc__

    def state_digest(self) -> str:
        return "0" * 64  # the bug: says nothing about the state


class NoisyDigestNim(NoisyNim):
    __doc__ = NimEnv.__doc__

    def state_digest(self) -> str:
        return super().state_digest() + f"{_noise()}"  # the bug: the digest is noisy too


class NoisyObservationEnv(GoodEnv):
    """GoodEnv with a third observation entry of OS noise, and a digest of its logical state."""

    __doc__ = GoodEnv.__doc__

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.observation_space = spaces.Box(-1.0, 10.0, (3,), np.float32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        observation, info = super().reset(seed=seed, options=options)
        return self._noisy(observation), info

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = super().step(action)
        return self._noisy(observation), reward, terminated, truncated, info

    def _noisy(self, observation: np.ndarray) -> np.ndarray:
        return np.append(observation[:2], np.float32(_noise())).astype(np.float32)

    def state_digest(self) -> str:
        return f"target={self.target} t={self.t}"


class NoisyUndigestedEnv(NoisyObservationEnv):
    __doc__ = GoodEnv.__doc__

    state_digest = None  # type: ignore[assignment]  # the bug: nothing to compare instead


class _Forfeiter:
    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Any) -> str:
        return "I resign"


def forfeiting_oracle(env: Any) -> dict[str, Any]:
    """The perfect oracle for player_1, and a player_0 that never moves legally."""
    return {**nim_oracle(env), "player_0": _Forfeiter()}


class StayingNim(NimEnv):
    __doc__ = NimEnv.__doc__

    def step(self, action: Any, agent: str | None = None) -> None:
        selected = self.agent_selection
        if self.agents and self.terminations[selected] and action is None:
            return  # the bug: the dead step leaves the finished agent in the game
        super().step(action, agent)
