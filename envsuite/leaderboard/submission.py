"""A submission's metadata (``submission.yaml``) and its environment lock (``env_lock.json``).

Both are pydantic models; ``leaderboards/submission.schema.json`` is generated from
:class:`SubmissionMeta` (``envsuite leaderboard schema``) for tools outside Python.
"""

from __future__ import annotations

import datetime
import json
import platform
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

SUBMISSION_FILE = "submission.yaml"
EPISODES_FILE = "episodes.jsonl"
ENV_LOCK_FILE = "env_lock.json"
LOGS_DIR = "logs"
SCHEMA_VERSION = 1

#: Distributions whose versions ``env_lock.json`` records when installed.
LOCKED_DISTRIBUTIONS = (
    "envsuite",
    "gymnasium",
    "pettingzoo",
    "numpy",
    "pydantic",
    "python-sat",
    "pybullet",
    "mujoco",
    "docker",
    "python-chess",
    "textworld",
    "pillow",
    "ray",
)


class Compute(BaseModel):
    """What the run used.

    Attributes:
        hardware: CPUs/GPUs, e.g. "2 CPU cores" or "8x A100 80GB".
        wall_time_hours: Wall-clock time of the whole run, if known.
        notes: Anything else (API cost, tokens, ...).
    """

    model_config = ConfigDict(extra="forbid")

    hardware: str = Field(min_length=1, max_length=200)
    wall_time_hours: float | None = Field(default=None, ge=0.0)
    notes: str = Field(default="", max_length=2000)


class Leakage(BaseModel):
    """Disclosure of any contact between the agent and the board's test problems.

    Attributes:
        seen_test_data: Whether the agent, its training or its tuning saw any of the board's
            problems (its seeds, datasets or traces).
        disclosure: In words: what was and was not seen, and how that was checked.
    """

    model_config = ConfigDict(extra="forbid")

    seen_test_data: bool
    disclosure: str = Field(min_length=1, max_length=4000)


class SubmissionMeta(BaseModel):
    """``submission.yaml``: who made the entry, with what, and what they claim.

    Attributes:
        schema_version: Version of this schema.
        name: Display name of the entry.
        agent: The agent string the run used (equal to every record's ``agent_id``).
        authors: People or organisations responsible.
        model: The model behind the agent (an LLM name and version), or null.
        code_url: Where the agent's code is (https), or null.
        compute: What the run used.
        attempts_k: Attempts per problem (the k of pass@k); must equal the board's.
        leakage: Leakage disclosure.
        board: The board's name.
        board_version: The board version.
        date: Submission date (the folder name starts with it).
        envsuite_version: The envsuite release the run used.
        run_id: The run the records come from.
        claimed: Metric -> value the submitter reports. Verification recomputes every one
            from the records and rejects the submission if any differs.
        notes: Free text.
    """

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    name: str = Field(min_length=1, max_length=80)
    agent: str = Field(min_length=1, max_length=500)
    authors: list[str] = Field(min_length=1)
    model: str | None = Field(default=None, max_length=200)
    code_url: str | None = Field(default=None, pattern=r"^https://[^\s]+$", max_length=500)
    compute: Compute
    attempts_k: int = Field(ge=1)
    leakage: Leakage
    board: str
    board_version: int = Field(ge=1)
    date: datetime.date
    envsuite_version: str
    run_id: str
    claimed: dict[str, float] = Field(default_factory=dict)
    notes: str = Field(default="", max_length=4000)

    @field_validator("authors")
    @classmethod
    def _named(cls, value: list[str]) -> list[str]:
        if any(not author.strip() or len(author) > 200 for author in value):
            raise ValueError("every author needs a name of at most 200 characters")
        return value


def submission_json_schema() -> str:
    """The JSON Schema of ``submission.yaml`` (generated from :class:`SubmissionMeta`)."""
    schema = SubmissionMeta.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "envsuite/leaderboard/submission.schema.json"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


class LockedEnv(BaseModel):
    """One env the run made, as ``env_lock.json`` records it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kwargs: dict[str, Any]
    spec_hash: str


class EnvLock(BaseModel):
    """``env_lock.json``: the software the run used (reproducibility metadata).

    Attributes:
        envsuite_version: The envsuite release of the records.
        python: Python version.
        platform: ``platform.platform()`` of the machine that ran it.
        packages: Distribution -> version, for the distributions envsuite runs on.
        envs: Every env the run made, with its spec hash.
    """

    model_config = ConfigDict(extra="forbid")

    envsuite_version: str
    python: str
    platform: str
    packages: dict[str, str]
    envs: list[LockedEnv]


def installed_versions() -> dict[str, str]:
    """Versions of the :data:`LOCKED_DISTRIBUTIONS` that are installed."""
    found = {}
    for name in LOCKED_DISTRIBUTIONS:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            continue
    return found


def current_env_lock(envsuite_version: str, envs: list[LockedEnv]) -> EnvLock:
    """The lock of the machine running now, for records made with ``envsuite_version``."""
    return EnvLock(
        envsuite_version=envsuite_version,
        python=platform.python_version(),
        platform=platform.platform(),
        packages=installed_versions(),
        envs=envs,
    )
