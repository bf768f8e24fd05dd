"""Multi-turn envsuite episodes through TRL's ``environment_factory`` (GRPOTrainer's env path).

TRL (1.x) drives a multi-turn environment as tools: ``GRPOTrainer(environment_factory=
factory)`` makes one environment object per rollout, calls its ``reset(**row)`` with the
dataset row before generating, exposes its public methods to the model as tools (each
tool call runs the method; its return value becomes a ``tool`` message and generation
goes on), and scores the finished rollout with its ``get_reward()``.

:class:`EnvsuiteToolEnv` is that object for an envsuite env: ``reset`` resets the env
named by the row (``env_id``, ``env_kwargs``, ``seed``: a :func:`prompt_dataset` row) with
its seed, the one tool ``act(action)`` steps it with the action text and answers with the
next observation as the chat agent shows it, and ``get_reward`` is the episode's return
(the sum of its step rewards so far: a rollout that stopped calling the tool before the
episode ended gets its partial return, one that never acted gets 0; add a reward function
on ``environments`` if your env needs a penalty for that). A malformed or illegal
action costs the env's documented penalty, as any action does; an ``act`` after the
episode ended raises an error that TRL hands back to the model as the tool's answer.

One TRL behaviour to know: a tool result that would push the rollout past
``max_completion_length`` is dropped from the completion after the tool ran, so the env
has taken an action the trained sequence does not show. Keep ``max_completion_length``
above what an episode can produce (the env's ``max_turns`` times its observation size);
the calls of the turn that reaches ``max_tool_calling_iterations`` are never run.

The envs run in-process, or behind ``envsuite serve`` with
``env_factory=lambda i, k: envsuite.remote.make(url, i, **k)`` (one session per rollout
slot, reused across resets).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envsuite.errors import UsageError
from envsuite.evaluation.rollout import EnvFactory, local_env
from envsuite.trainers.trl_adapter.episodes import (
    EnvCache,
    EpisodeRowError,
    episode_of,
    observation_text,
)

#: Appended to the observation that ends the episode.
EPISODE_OVER = "The episode is over."


class EpisodeOverError(UsageError):
    """``act`` called with no episode running (before ``reset``, or after the episode ended)."""


class EnvsuiteToolEnv:
    """One rollout slot of TRL's environment path over envsuite envs (see the module docstring).

    Every public method but ``reset`` and ``get_reward`` is a tool TRL shows the model,
    so the class has exactly one: ``act``.

    Args:
        env_factory: ``(env_id, env_kwargs) -> env`` (``envsuite.make`` by default).
        env_id: The env of rows that name none (TRL's placeholder rows when it runs
            without a dataset); the row's ``env_id`` wins.
        env_kwargs: Their kwargs (JSON text or a mapping).

    Attributes:
        actions: The actions of the current episode, in order.
        rewards: ``rewards[i]`` is the env's reward for ``actions[i]``.
        done: Whether the episode ended (terminated or truncated).
        seed: The current episode's seed.
    """

    def __init__(
        self,
        env_factory: EnvFactory = local_env,
        env_id: str | None = None,
        env_kwargs: Any = None,
    ) -> None:
        self._envs = EnvCache(env_factory)
        self._default = (env_id, env_kwargs)
        self._env: Any = None
        self.actions: list[str] = []
        self.rewards: list[float] = []
        self.done = False
        self.seed: int | None = None

    def reset(self, **row: Any) -> str | None:
        """Start the episode the row names (TRL passes every column of the row).

        Returns:
            None when the row's prompt already ends with the reset observation (a
            :func:`prompt_dataset` row); else the observation's text, which TRL appends
            to the prompt's last user message.

        Raises:
            EpisodeRowError: the row names no episode (no seed, an unknown id, ...).
        """
        env_id = row.get("env_id", self._default[0])
        env_kwargs = row.get("env_kwargs", self._default[1])
        if "seed" not in row:
            raise EpisodeRowError(
                "the row has no seed column: build the dataset with "
                "envsuite.trainers.trl_adapter.prompt_dataset"
            )
        episode = episode_of(env_id, env_kwargs, row["seed"])
        self._env = self._envs.get(episode)
        observation, info = self._env.reset(seed=episode.seed)
        self.actions, self.rewards, self.done, self.seed = [], [], False, episode.seed
        text = observation_text(observation, info)
        prompt = row.get("prompt")
        if isinstance(prompt, list) and prompt and isinstance(prompt[-1], dict):
            last = prompt[-1].get("content")
            if last == text:
                return None
        return text

    def act(self, action: str) -> str:
        """Take one turn in the environment.

        Args:
            action: The action, in the format the environment asks for.

        Returns:
            What you observe after the action.
        """
        if self._env is None or self.done:
            raise EpisodeOverError(
                "no episode is running: the episode is over" if self.done else "reset first"
            )
        text = action if isinstance(action, str) else str(action)
        observation, reward, terminated, truncated, info = self._env.step(text)
        self.actions.append(text)
        self.rewards.append(float(reward))
        self.done = bool(terminated or truncated)
        answer = observation_text(observation, info)
        return f"{answer}\n{EPISODE_OVER}" if self.done else answer

    def get_reward(self) -> float:
        """The episode's return: the sum of the env's rewards for every action taken."""
        return float(sum(self.rewards))

    def _close(self) -> None:
        """Close the envs (a served env's sessions end); private so it is no tool."""
        self._env = None
        self._envs.close()


def environment_factory(
    env_factory: EnvFactory = local_env,
    env_id: str | None = None,
    env_kwargs: Any = None,
) -> Callable[[], EnvsuiteToolEnv]:
    """The ``environment_factory`` to give ``GRPOTrainer``: each call, a new rollout slot.

    Args:
        env_factory: ``(env_id, env_kwargs) -> env`` (``envsuite.make`` by default;
            ``lambda i, k: envsuite.remote.make(url, i, **k)`` for a served env).
        env_id: The env of rows that name none (see :class:`EnvsuiteToolEnv`).
        env_kwargs: Their kwargs.
    """

    def make_slot() -> EnvsuiteToolEnv:
        return EnvsuiteToolEnv(env_factory, env_id, env_kwargs)

    return make_slot
