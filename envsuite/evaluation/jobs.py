"""An episode job: everything a worker needs to run one episode, and nothing it must share."""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from envsuite.jsonable import to_jsonable
from envsuite.records import episode_key


class EpisodeJob(BaseModel):
    """One episode to run: env, seed, attempt, agent, and the runner's limits.

    Attributes:
        run_id: The run the episode belongs to.
        task_id: The task protocol ("" for ad-hoc runs).
        env_id: The env to make.
        env_kwargs: Keyword arguments for ``envsuite.make``.
        seed: Seed for ``env.reset``; the same seed gives the same problem instance.
        attempt: Attempt index; attempts differ only in the agent's seed.
        agent: An agent string (``random``, ``oracle``, ``openai:MODEL``, ``module:Class``).
        agent_options: Keyword arguments for the agent (e.g. the chat agent's base_url).
        step_budget: The runner's step budget: the episode is stopped (``stop_reason``
            ``"step_limit"``) after this many steps (agent actions for AEC envs) if the env
            has not ended it. Not the env's own step limit (``max_episode_steps``), which
            truncates the episode inside the env. None: no budget. Also accepted as
            ``max_steps``, the task protocol's key.
        wall_time_s: The runner's wall-clock budget per episode, checked between steps.
        max_infra_retries: How many times an infra error is retried before it is recorded.
        record_trace: Whether to keep the action trace in the record.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    task_id: str = ""
    env_id: str
    env_kwargs: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0)
    attempt: int = Field(default=0, ge=0)
    agent: str
    agent_options: dict[str, Any] = Field(default_factory=dict)
    step_budget: int | None = Field(
        default=None, ge=1, validation_alias=AliasChoices("step_budget", "max_steps")
    )
    wall_time_s: float | None = Field(default=None, gt=0)
    max_infra_retries: int = Field(default=2, ge=0)
    record_trace: bool = True

    @field_validator("env_kwargs", mode="before")
    @classmethod
    def _jsonable_kwargs(cls, value: Any) -> Any:
        return to_jsonable(value)

    @property
    def key(self) -> tuple[str, str, str, int, int]:
        """The key of the record this job produces."""
        return episode_key(self.task_id, self.env_id, self.env_kwargs, self.seed, self.attempt)
