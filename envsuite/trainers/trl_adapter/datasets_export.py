"""Envsuite episodes as a ``datasets.Dataset`` of seeded chat prompts for TRL's trainers.

One row per seed: ``prompt`` (conversational: the env's system prompt and its reset
observation, see :mod:`.episodes`), ``env_id``, ``env_kwargs`` (JSON) and ``seed``. For
single-turn envs (SAT-v0, Sudoku-v0 with ``mode="single"``: one answer ends the episode)
pair it with :class:`~envsuite.trainers.trl_adapter.rewards.EnvReward`; for multi-turn
envs with :func:`~envsuite.trainers.trl_adapter.tool_env.environment_factory`, whose
system prompt then also says how to act (the ``act`` tool).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from envsuite.errors import MissingExtraError, UsageError
from envsuite.evaluation.rollout import EnvFactory, local_env
from envsuite.trainers.trl_adapter.episodes import (
    EnvCache,
    Episode,
    chat_prompt,
    episode_of,
)

#: Added to the system prompt of a multi-turn dataset: TRL's environment path acts by tools.
TOOL_INSTRUCTIONS = (
    "Take each action by calling the `act` tool with the action text as its `action` "
    "argument; the tool answers with what you observe next."
)


class NotSingleTurnError(UsageError):
    """An env whose episode does not end after one answer, given to the single-turn export."""


def _datasets() -> Any:
    try:
        import datasets
    except ModuleNotFoundError as exc:
        raise MissingExtraError(
            "The TRL adapter needs the 'datasets' package. "
            "Install it with: pip install 'envsuite[trl]'"
        ) from exc
    return datasets


def _check_single_turn(env: Any, episode: Episode) -> None:
    """Reset with the first seed and answer with nothing: a single-turn env ends there."""
    env.reset(seed=episode.seed)
    _, _, terminated, truncated, _ = env.step("")
    if not (terminated or truncated):
        raise NotSingleTurnError(
            f"{episode.env_id} with {episode.kwargs_json} does not end after one answer: it "
            "is a multi-turn env (Sudoku-v0 is single-turn with mode='single' and max_turns 1); "
            "use single_turn=False and the multi-turn environment_factory"
        )


def prompt_dataset(
    env_id: str,
    seeds: Iterable[int],
    env_kwargs: Mapping[str, Any] | None = None,
    *,
    single_turn: bool = True,
    env_factory: EnvFactory = local_env,
) -> Any:
    """A ``datasets.Dataset`` with one seeded prompt row per seed (see the module docstring).

    Args:
        env_id: A registered single-agent env id.
        seeds: The reset seeds, one row each, in order (each a non-negative int).
        env_kwargs: Keyword arguments of every episode's env.
        single_turn: Check that one answer ends the episode (raises
            :class:`NotSingleTurnError` otherwise); False for a multi-turn dataset, whose
            system prompt then adds :data:`TOOL_INSTRUCTIONS`.
        env_factory: Makes the env that draws the prompts (``envsuite.make`` by default;
            a served env through ``envsuite.remote.make`` gives the same rows).

    Returns:
        A ``datasets.Dataset`` with the columns ``prompt``, ``env_id``, ``env_kwargs``
        and ``seed``.

    Raises:
        EpisodeRowError: an unknown or multi-agent id, or a bad seed.
        NotSingleTurnError: ``single_turn`` and the env goes on after one answer.
        MissingExtraError: ``datasets`` is not installed.
    """
    datasets = _datasets()
    episodes = [episode_of(env_id, dict(env_kwargs or {}), seed) for seed in seeds]
    if not episodes:
        raise UsageError("prompt_dataset needs at least one seed")
    cache = EnvCache(env_factory)
    try:
        if single_turn:
            _check_single_turn(cache.get(episodes[0]), episodes[0])
        rows: dict[str, list[Any]] = {"prompt": [], "env_id": [], "env_kwargs": [], "seed": []}
        for episode in episodes:
            env = cache.get(episode)
            observation, info = env.reset(seed=episode.seed)
            prompt = chat_prompt(env, observation, info)
            if not single_turn:
                prompt[0]["content"] += "\n" + TOOL_INSTRUCTIONS
            rows["prompt"].append(prompt)
            for column, value in episode.columns().items():
                rows[column].append(value)
    finally:
        cache.close()
    return datasets.Dataset.from_dict(rows)
