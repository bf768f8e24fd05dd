"""Seeded envsuite episodes as a verifiers taskset (``verifiers.v1``, verifiers >= 0.4).

A task is one episode of one registered env: the env id, its kwargs and a reset seed.
Tasks run from ``seed_start`` upwards, one seed each (the taskset is infinite, so a run
bounds it with ``-n``); verifiers' ``-r G`` rollouts of a task are then a GRPO group that
shares the seed, as ``envsuite rollout``'s groups do. Each task carries the env's first
observation as its prompt, built exactly as envsuite's chat agents build user messages
(:func:`~envsuite.agents.image_parts.observation_content`: the text, images as PNG parts,
a last ``Valid actions: ...`` line where the env lists legal actions), and the env's own
system prompt (:func:`~envsuite.evaluation.transcripts.system_prompt_of`).

The env is made in this process (``envsuite.make``) or, with ``server_url``, behind
``envsuite serve`` (``envsuite.remote.make``); the episodes are the same either way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from pydantic import Field

from envsuite.agents.image_parts import Content, observation_content
from envsuite.evaluation.transcripts import system_prompt_of
from envsuite.registry import registry
from envsuite.trainers.verifiers_package import vf


class EnvsuiteTasksetConfig(vf.TasksetConfig):
    """Which episodes load (``--env.taskset.*``).

    Attributes:
        env_id: A registered single-agent envsuite id (``envsuite/Wordle-v0``); empty
            only while verifiers' command line is still being read.
        env_kwargs: The env's keyword arguments (as ``envsuite.make`` takes them).
        seed_start: The first task's reset seed; task ``i`` resets with ``seed_start + i``.
        server_url: ``http://host:port`` of an ``envsuite serve`` holding ``env_id``
            (None: the env runs in this process).
        server_token: That server's bearer token, if it has one.
    """

    env_id: str = ""
    env_kwargs: dict[str, Any] = Field(default_factory=dict)
    seed_start: int = Field(0, ge=0)
    server_url: str | None = None
    server_token: str | None = None


class EnvsuiteData(vf.TaskData):
    """One episode: what the env reproduces it from (besides the prompt it opens with)."""

    env_id: str
    env_kwargs: dict[str, Any]
    seed: int
    server_url: str | None = None
    server_token: str | None = None


class EnvsuiteTask(vf.Task[EnvsuiteData, vf.State, vf.TaskConfig]):
    """A task of :class:`EnvsuiteTaskset` (scored by the env's return, in the env's run)."""


def make_env(data: EnvsuiteData | EnvsuiteTasksetConfig) -> Any:
    """The Gymnasium env of a task or taskset: in-process, or on its server.

    Raises:
        ValueError: no env id, or a multi-agent one (a verifiers task has one player).
    """
    if not data.env_id:
        raise ValueError("name the envsuite env: --env.taskset.env-id envsuite/NAME-vN")
    if registry[data.env_id].multi_agent:
        raise ValueError(
            f"{data.env_id} is a multi-agent env; the verifiers taskset plays single-agent envs"
        )
    if data.server_url is None:
        return registry[data.env_id].make(**data.env_kwargs)
    from envsuite.remote import make as remote_make

    return remote_make(data.server_url, data.env_id, token=data.server_token, **data.env_kwargs)


def user_content(observation: Any, info: Any) -> Content:
    """An observation as the content of a user message (as envsuite's chat agents send it)."""
    return observation_content(observation, info).content


def as_prompt(content: Content) -> Any:
    """A user message's content as a verifiers prompt: a string, or one user message."""
    if isinstance(content, str):
        return content
    return [vf.UserMessage(content=content)]


def env_system_prompt(data: EnvsuiteData | EnvsuiteTasksetConfig, env: Any) -> str:
    """The env's own system prompt, read from a local copy when the env is served.

    What the wire does not carry is read off the same env made here, as ``envsuite
    rollout`` does; without a local copy (an extra missing here) the served env's answer
    (the chat agent's generic prompt) is used.
    """
    if data.server_url is None:
        return system_prompt_of(env)
    try:
        local = registry[data.env_id].make(**data.env_kwargs)
    except Exception:  # no local copy: what the remote env says
        return system_prompt_of(env)
    try:
        return system_prompt_of(local)
    finally:
        with contextlib.suppress(Exception):
            local.close()


class EnvsuiteTaskset(vf.Taskset[EnvsuiteTask, EnvsuiteTasksetConfig]):
    """Episodes of one envsuite env, one task per seed (see the module docstring)."""

    INFINITE = True

    def load(self) -> Iterator[EnvsuiteTask]:
        """Task ``i``: the env reset with ``seed_start + i``; its first observation is the prompt.

        Raises:
            ValueError: no env id, or a multi-agent one.
        """
        config = self.config
        env = make_env(config)
        try:
            system_prompt = env_system_prompt(config, env)
            index = 0
            while True:
                seed = config.seed_start + index
                observation, info = env.reset(seed=seed)
                yield EnvsuiteTask(
                    EnvsuiteData(
                        name=f"{config.env_id}#{seed}",
                        prompt=as_prompt(user_content(observation, info)),
                        system_prompt=system_prompt,
                        env_id=config.env_id,
                        env_kwargs=dict(config.env_kwargs),
                        seed=seed,
                        server_url=config.server_url,
                        server_token=config.server_token,
                    ),
                    config.task,
                )
                index += 1
        finally:
            env.close()
