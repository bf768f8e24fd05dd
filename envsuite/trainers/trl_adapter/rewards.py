r"""A reward function for TRL's ``GRPOTrainer`` that scores each completion in its envsuite env.

``GRPOTrainer(reward_funcs=EnvReward(), train_dataset=prompt_dataset(...))``: TRL calls
``reward(prompts=..., completions=..., env_id=[...], env_kwargs=[...], seed=[...], ...)``
with the dataset's columns as lists, one entry per completion. For each completion the
env named by its row is reset with the row's seed and stepped once with the completion's
text; the reward is what the env returns for that step. A malformed answer gets the env's
own documented penalty (SAT-v0: -1 without a ``\boxed{}`` answer; Sudoku-v0: -0.1);
the env decides, never this function.

When TRL passes ``log_extra`` (it does from 1.x), the env's ``success`` and ``parse_error``
for each completion go to TRL's completions table as the columns ``envsuite_success`` and
``envsuite_parse_error``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from envsuite.evaluation.rollout import EnvFactory, local_env
from envsuite.trainers.trl_adapter.episodes import (
    EnvCache,
    EpisodeRowError,
    completion_text,
    episode_of,
)


class EnvReward:
    """The env's reward for a one-answer episode, as TRL's ``reward_funcs`` entry.

    Envs are made once per (id, kwargs) by ``env_factory`` and reset with each row's seed,
    so the same completion for the same row always gets the same reward.

    Args:
        env_factory: ``(env_id, env_kwargs) -> env``: ``envsuite.make`` by default, or
            ``lambda i, k: envsuite.remote.make(url, i, **k)`` to score behind
            ``envsuite serve``.

    Attributes:
        __name__: ``"envsuite"``: TRL logs the rewards as ``rewards/envsuite/mean``.
        last_infos: The env's ``info`` after each completion of the latest call (its
            ``success``, ``score``, ``parse_error``), for logging.
    """

    __name__ = "envsuite"

    def __init__(self, env_factory: EnvFactory = local_env) -> None:
        self.envs = EnvCache(env_factory)
        self.last_infos: list[dict[str, Any]] = []

    def __call__(
        self,
        prompts: Sequence[Any],
        completions: Sequence[Any],
        *,
        env_id: Sequence[str] | None = None,
        env_kwargs: Sequence[str] | None = None,
        seed: Sequence[int] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        """One reward per completion (see the class docstring).

        Raises:
            EpisodeRowError: the dataset has no ``env_id`` / ``env_kwargs`` / ``seed``
                columns, or a row's values do not name an episode.
        """
        if env_id is None or env_kwargs is None or seed is None:
            raise EpisodeRowError(
                "the dataset has no env_id, env_kwargs and seed columns: build it with "
                "envsuite.trainers.trl_adapter.prompt_dataset"
            )
        rewards: list[float] = []
        self.last_infos = []
        for completion, row_id, row_kwargs, row_seed in zip(
            completions, env_id, env_kwargs, seed, strict=True
        ):
            episode = episode_of(row_id, row_kwargs, row_seed)
            env = self.envs.get(episode)
            env.reset(seed=episode.seed)
            _, reward, _, _, info = env.step(completion_text(completion))
            rewards.append(float(reward))
            self.last_infos.append(dict(info))
        log_extra = kwargs.get("log_extra")
        if callable(log_extra):
            log_extra("envsuite_success", [bool(i.get("success")) for i in self.last_infos])
            log_extra("envsuite_parse_error", [i.get("parse_error") for i in self.last_infos])
        return rewards

    def close(self) -> None:
        """Close the envs (a served env's sessions end)."""
        self.envs.close()
