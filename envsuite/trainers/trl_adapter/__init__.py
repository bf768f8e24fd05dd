"""Envsuite envs for TRL's ``GRPOTrainer`` (``pip install 'envsuite[trl]'``).

- Single-turn envs (SAT-v0, Sudoku-v0 with ``mode="single"``): :func:`prompt_dataset`
  makes a ``datasets.Dataset`` of seeded chat prompts and :class:`EnvReward` scores each
  completion in its env (``reward_funcs=EnvReward()``).
- Multi-turn envs: :func:`prompt_dataset` with ``single_turn=False`` and
  :func:`environment_factory` (TRL's environment path: the model acts through an ``act``
  tool, the env's return is the reward).

Either runs the envs in-process or behind ``envsuite serve`` (``env_factory=lambda i, k:
envsuite.remote.make(url, i, **k)``). Only the dataset export imports ``datasets``; TRL
itself is imported by the user's training script, never here.
"""

from envsuite.trainers.trl_adapter.datasets_export import (
    TOOL_INSTRUCTIONS,
    NotSingleTurnError,
    prompt_dataset,
)
from envsuite.trainers.trl_adapter.episodes import (
    Episode,
    EpisodeRowError,
    completion_text,
    episode_of,
)
from envsuite.trainers.trl_adapter.rewards import EnvReward
from envsuite.trainers.trl_adapter.tool_env import (
    EnvsuiteToolEnv,
    EpisodeOverError,
    environment_factory,
)

__all__ = [
    "TOOL_INSTRUCTIONS",
    "EnvReward",
    "EnvsuiteToolEnv",
    "Episode",
    "EpisodeOverError",
    "EpisodeRowError",
    "NotSingleTurnError",
    "completion_text",
    "environment_factory",
    "episode_of",
    "prompt_dataset",
]
