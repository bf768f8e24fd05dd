"""Task protocols: what to run, with which seeds, attempts and metrics (``tasks/*.yaml``).

Example::

    id: decision-regret
    version: 1
    description: Regret of bandit and online-learning agents.
    envs:
      - id: envsuite/Bandit-v0
        kwargs: {num_arms: 5, difficulty: easy}
    seeds: {start: 0, count: 20}
    attempts: 1
    metrics: [success_rate, mean_return, regret]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from envsuite.errors import UnknownEnvError, UsageError
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.jsonable import to_jsonable
from envsuite.registry import registry

#: Metric names a protocol may ask for; ``pass@K`` and ``pass^K`` take any K >= 1.
METRIC_PATTERN = re.compile(
    r"^(success_rate|mean_return|mean_score|iqm_score|optimality_gap|regret|ratings"
    r"|pass@[1-9][0-9]*|pass\^[1-9][0-9]*)$"
)
SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class ProtocolError(UsageError):
    """A task protocol file that cannot be used, with the reason."""


class EnvEntry(BaseModel):
    """One env of a protocol: its id and keyword arguments."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kwargs: dict[str, Any] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _registered(cls, value: str) -> str:
        try:
            registry[value]
        except UnknownEnvError as exc:
            raise ValueError(str(exc)) from exc
        return value

    @field_validator("kwargs", mode="before")
    @classmethod
    def _jsonable(cls, value: Any) -> Any:
        return to_jsonable(value or {})


class SeedRange(BaseModel):
    """``count`` consecutive env seeds from ``start`` (each seed is one problem instance)."""

    model_config = ConfigDict(extra="forbid")

    start: int = Field(default=0, ge=0)
    count: int = Field(ge=1)

    def values(self) -> list[int]:
        """The seeds."""
        return list(range(self.start, self.start + self.count))


class TaskProtocol(BaseModel):
    """An evaluation protocol.

    Attributes:
        id: Slug naming the task (also the leaderboard's name).
        version: Protocol version; bump it when anything that changes results changes.
        description: One paragraph for humans.
        envs: The envs to run, each with its kwargs.
        split: Which split of the envs' data the protocol uses (documentation; envs that
            read datasets take it as a kwarg).
        seeds: A seed range or an explicit list; every env runs every seed.
        attempts: Attempts per (env, seed), for pass@k (k <= attempts).
        max_steps: Runner step limit per episode (None: the env's own limits).
        wall_time_s: Runner wall-clock limit per episode (None: none).
        metrics: Metric names (see :data:`METRIC_PATTERN`).
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    version: int = Field(default=1, ge=1)
    description: str = ""
    envs: list[EnvEntry] = Field(min_length=1)
    split: str = "test"
    seeds: SeedRange | list[int]
    attempts: int = Field(default=1, ge=1)
    max_steps: int | None = Field(default=None, ge=1)
    wall_time_s: float | None = Field(default=None, gt=0)
    metrics: list[str] = Field(default_factory=lambda: ["success_rate", "mean_return"])

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not SLUG.match(value):
            raise ValueError("id must be a lowercase slug (letters, digits, '.', '_', '-')")
        return value

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, value: SeedRange | list[int]) -> SeedRange | list[int]:
        distinct = isinstance(value, SeedRange) or len(set(value)) == len(value)
        if not distinct or (isinstance(value, list) and (not value or min(value) < 0)):
            raise ValueError("seeds must be distinct non-negative ints")
        return value

    @field_validator("metrics")
    @classmethod
    def _metrics(cls, value: list[str]) -> list[str]:
        unknown = [m for m in value if not METRIC_PATTERN.match(m)]
        if unknown:
            raise ValueError(f"unknown metrics {unknown}; known: {METRIC_PATTERN.pattern}")
        return value

    def seed_values(self) -> list[int]:
        """The seeds, as a list."""
        return self.seeds.values() if isinstance(self.seeds, SeedRange) else list(self.seeds)

    def pass_ks(self) -> list[int]:
        """The k of every ``pass@k`` metric asked for."""
        return sorted(int(m.split("@")[1]) for m in self.metrics if m.startswith("pass@"))

    def jobs(
        self, run_id: str, agent: str, agent_options: dict[str, Any] | None = None
    ) -> list[EpisodeJob]:
        """Every episode of the protocol: envs x seeds x attempts."""
        return [
            EpisodeJob(
                run_id=run_id,
                task_id=self.id,
                env_id=entry.id,
                env_kwargs=entry.kwargs,
                seed=seed,
                attempt=attempt,
                agent=agent,
                agent_options=agent_options or {},
                max_steps=self.max_steps,
                wall_time_s=self.wall_time_s,
            )
            for entry in self.envs
            for seed in self.seed_values()
            for attempt in range(self.attempts)
        ]

    @classmethod
    def load(cls, path: str | Path) -> TaskProtocol:
        """Read and validate a protocol file.

        Raises:
            ProtocolError: the file is missing, is not YAML, or does not fit the schema.
        """
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ProtocolError(f"cannot read task protocol {path}: {exc.strerror}") from exc
        except yaml.YAMLError as exc:
            raise ProtocolError(f"{path} is not valid YAML: {exc}") from exc
        if not isinstance(data, dict):
            raise ProtocolError(f"{path} must hold a mapping, not {type(data).__name__}")
        try:
            protocol = cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
            )
            raise ProtocolError(f"{path} is not a valid task protocol: {problems}") from exc
        too_big = [k for k in protocol.pass_ks() if k > protocol.attempts]
        if too_big:
            raise ProtocolError(f"{path}: pass@{too_big[0]} needs attempts >= {too_big[0]}")
        return protocol


def adhoc_protocol(
    env_id: str, env_kwargs: dict[str, Any], episodes: int, attempts: int, seed_start: int = 0
) -> TaskProtocol:
    """The protocol behind ``envsuite eval ENV_ID --episodes N``: seeds start..start+N-1.

    With several attempts it also asks for pass@1 and pass@attempts.
    """
    registry[env_id]  # an unknown id raises UnknownEnvError with its suggestion
    passes = sorted({f"pass@{k}" for k in (1, attempts)}) if attempts > 1 else []
    return TaskProtocol(
        id="adhoc",
        envs=[EnvEntry(id=env_id, kwargs=env_kwargs)],
        seeds=SeedRange(start=seed_start, count=episodes),
        attempts=attempts,
        metrics=["success_rate", "mean_return", *passes],
    )
