"""The episode a TRL dataset row names, and the chat prompt its reset observation makes.

A row of an envsuite prompt dataset identifies one episode by three columns: ``env_id``,
``env_kwargs`` (canonical JSON, so rows stay plain strings in Arrow) and ``seed``. Both
TRL paths read them back: the single-turn reward function (``reward_funcs`` receives the
dataset's columns as keyword arguments) and the multi-turn environment (TRL's
``environment_factory`` passes the row to its ``reset``).

The prompt is the start of the episode's chat transcript
(:mod:`envsuite.evaluation.transcripts`): the env's system prompt, then one user message
holding the reset observation exactly as the chat agent shows it (text, and a last
``Valid actions: ...`` line where the env lists them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from envsuite.agents.image_parts import content_text, observation_content
from envsuite.errors import UsageError
from envsuite.evaluation.rollout import EnvFactory, local_env
from envsuite.evaluation.transcripts import system_prompt_of
from envsuite.jsonable import canonical_json
from envsuite.registry import registry

#: The columns that name an episode, besides ``prompt``.
EPISODE_COLUMNS = ("env_id", "env_kwargs", "seed")


class EpisodeRowError(UsageError):
    """A dataset row that does not name an episode (a column missing or of the wrong type)."""


@dataclass(frozen=True)
class Episode:
    """One seeded episode of one env, as a dataset row names it.

    Attributes:
        env_id: A registered single-agent id.
        env_kwargs: Its keyword arguments.
        seed: The reset seed.
    """

    env_id: str
    env_kwargs: Mapping[str, Any]
    seed: int

    @property
    def kwargs_json(self) -> str:
        """``env_kwargs`` as canonical JSON (the dataset column's value)."""
        return canonical_json(dict(self.env_kwargs))

    def columns(self) -> dict[str, Any]:
        """The row's identifying columns: ``env_id``, ``env_kwargs`` (JSON) and ``seed``."""
        return {"env_id": self.env_id, "env_kwargs": self.kwargs_json, "seed": self.seed}


def episode_of(env_id: Any, env_kwargs: Any, seed: Any) -> Episode:
    """The :class:`Episode` named by a row's three columns, checked.

    Raises:
        EpisodeRowError: an id that is not a registered single-agent env, kwargs that are
            not a JSON object (or a mapping), or a seed that is not a non-negative int.
    """
    if not isinstance(env_id, str) or env_id not in registry:
        raise EpisodeRowError(f"env_id must be a registered envsuite id; got {env_id!r}")
    if registry[env_id].api != "gymnasium":
        raise EpisodeRowError(
            f"{env_id} is a multi-agent env (api {registry[env_id].api!r}); the TRL adapter "
            "serves single-agent envs"
        )
    kwargs = env_kwargs
    if isinstance(kwargs, str):
        try:
            kwargs = json.loads(kwargs)
        except json.JSONDecodeError as exc:
            raise EpisodeRowError(f"env_kwargs is not JSON: {exc}") from exc
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, Mapping):
        raise EpisodeRowError(f"env_kwargs must be a JSON object; got {env_kwargs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise EpisodeRowError(f"seed must be a non-negative int; got {seed!r}")
    return Episode(env_id, dict(kwargs), seed)


def chat_prompt(env: Any, observation: Any, info: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The system and first user message of an episode (as the transcript view starts it)."""
    return [
        {"role": "system", "content": system_prompt_of(env)},
        {"role": "user", "content": observation_content(observation, info).content},
    ]


def observation_text(observation: Any, info: Mapping[str, Any]) -> str:
    """An observation as the text of a user message (images left out)."""
    return content_text(observation_content(observation, info).content)


def completion_text(completion: Any) -> str:
    """The model's answer in a TRL completion.

    A conversational completion is a list of messages: the text of the last assistant
    message (its text parts joined); a standard completion is the string itself. Anything
    else becomes ``""``, which every env scores as a malformed answer.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        for message in reversed(completion):
            if isinstance(message, Mapping) and message.get("role") == "assistant":
                content = message.get("content")
                return content_text(content) if isinstance(content, str | list) else ""
    return ""


class EnvCache:
    """One env per (id, kwargs), made on first use by an :data:`EnvFactory` and reused.

    Every episode starts with ``reset(seed=...)``, which fixes everything the episode
    does, so reusing an env is the same as making a new one (for envs that carry no state
    across episodes: SAT-v0's ``curriculum`` does, and is best not used here).

    Args:
        env_factory: ``(env_id, env_kwargs) -> env``: ``envsuite.make`` by default, or
            ``lambda i, k: envsuite.remote.make(url, i, **k)`` for a served env.
    """

    def __init__(self, env_factory: EnvFactory = local_env) -> None:
        self.env_factory: Callable[[str, dict[str, Any]], Any] = env_factory
        self._envs: dict[tuple[str, str], Any] = {}

    def get(self, episode: Episode) -> Any:
        """The env of ``episode`` (not reset)."""
        key = (episode.env_id, episode.kwargs_json)
        if key not in self._envs:
            self._envs[key] = self.env_factory(episode.env_id, dict(episode.env_kwargs))
        return self._envs[key]

    def close(self) -> None:
        """Close every env made (a served env's session ends)."""
        envs, self._envs = list(self._envs.values()), {}
        for env in envs:
            env.close()
