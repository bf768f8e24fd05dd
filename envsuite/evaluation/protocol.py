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

A protocol for a game between agents can rotate the seats, so that every agent plays
every seat (``seat_rotation``: ``none``, ``cyclic`` or ``all``; the schedules are those
of :mod:`envsuite.agents.lineup`). Each seed is then played once per seating (times
``attempts``); seating s, repeat a is recorded as ``attempt = s * attempts + a`` with the
seating's lineup (``player_0=random,player_1=oracle``) as its ``agent_id``, so every
episode keeps a key of its own (task, env, kwargs, seed, attempt) and a resumed run skips
exactly the seatings already played. pass@k is refused with rotation: the plays of a seed
are then different matchups, not repeated attempts.

A protocol of multi-agent games can name a *panel* of reference opponents (``opponents``,
e.g. ``[random, oracle]``): the agent given to ``envsuite eval`` then plays every seed
against each opponent from every seat (:func:`~envsuite.agents.lineup.panel_seatings`),
the opponent filling the other seats; in a game of n seats, opponent j, seat s, repeat a
is ``attempt = (n j + s) * attempts + a``, recorded with the lineup
``player_0=AGENT,player_1=panel:OPPONENT`` (or its mirror; with n > 2 the opponent in
every seat but s) as its ``agent_id``. This is how a game leaderboard plays every
submission against the same opponents.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    SerializerFunctionWrapHandler,
    Tag,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from envsuite.agents.lineup import (
    PANEL_SEATS,
    LineupError,
    SeatRotation,
    is_lineup,
    is_panel_agent,
    panel_seatings,
    seatings,
)
from envsuite.errors import UnknownEnvError, UsageError, closest_names
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.jsonable import canonical_json, to_jsonable
from envsuite.registry import registry
from envsuite.safe_load import DataFileError, read_yaml

#: The metrics a protocol may ask for by name, besides ``pass@K`` and ``pass^K``.
NAMED_METRICS = (
    "success_rate",
    "mean_return",
    "mean_score",
    "iqm_score",
    "optimality_gap",
    "regret",
    "ratings",
    "win_rate",
    "bradley_terry",
    "elo",
)
#: Metric names a protocol may ask for; ``pass@K`` and ``pass^K`` take any K >= 1.
METRIC_PATTERN = re.compile(rf"^({'|'.join(NAMED_METRICS)}|pass@[1-9][0-9]*|pass\^[1-9][0-9]*)$")
SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
#: Most episodes (envs x seeds x attempts) one protocol may ask for: each is a job in
#: memory before the run starts (about a kilobyte), and a record on disk after.
MAX_EPISODES = 1_000_000
#: Seeds are unsigned 64-bit numbers, as numpy's generators and most JSON readers take them.
MAX_SEED = 2**64 - 1


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

    start: int = Field(default=0, ge=0, le=MAX_SEED)
    count: int = Field(ge=1, le=MAX_EPISODES)

    @model_validator(mode="after")
    def _last_seed_fits(self) -> SeedRange:
        if self.start + self.count - 1 > MAX_SEED:
            raise ValueError("the last seed, start + count - 1, must be at most 2**64 - 1")
        return self

    def values(self) -> list[int]:
        """The seeds."""
        return list(range(self.start, self.start + self.count))


def _seeds_kind(value: Any) -> str:
    return "list" if isinstance(value, list | tuple) else "range"


#: A seed range or an explicit list; errors come from the one the value looks like.
Seeds = Annotated[
    Annotated[SeedRange, Tag("range")] | Annotated[list[int], Tag("list")],
    Discriminator(_seeds_kind),
]


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
        max_steps: The runner's step budget per episode (each job's ``step_budget``;
            None: none); the env's own step limit is its spec's ``max_episode_steps``.
        wall_time_s: Runner wall-clock limit per episode (None: none).
        metrics: Metric names (see :data:`METRIC_PATTERN`). ``win_rate``,
            ``bradley_terry`` and ``elo`` are for games whose agents record win / loss /
            draw: win rates and ratings of the agents within a run's records (see
            :mod:`envsuite.evaluation.metrics.game_outcomes` and ``game_ratings``);
            ``ratings`` is a leaderboard's Bradley–Terry rating of its entries.
        seat_rotation: ``none`` (default), ``cyclic`` or ``all``: play every seed once per
            seating of the agent string's lineup (see the module doc).
        opponents: A panel of reference opponents (agent strings) for multi-agent games:
            the agent plays every seed against each, from every seat (see the module
            doc); needs ``seat_rotation`` ``all``. Empty (default): no panel.
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    version: int = Field(default=1, ge=1)
    description: str = ""
    envs: list[EnvEntry] = Field(min_length=1)
    split: str = "test"
    seeds: Seeds
    attempts: int = Field(default=1, ge=1)
    max_steps: int | None = Field(default=None, ge=1)
    wall_time_s: float | None = Field(default=None, gt=0)
    metrics: list[str] = Field(default_factory=lambda: ["success_rate", "mean_return"])
    seat_rotation: SeatRotation = "none"
    opponents: list[str] = Field(default_factory=list)

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
        if isinstance(value, list) and max(value) > MAX_SEED:
            raise ValueError("seeds must be at most 2**64 - 1")
        return value

    @field_validator("metrics")
    @classmethod
    def _metrics(cls, value: list[str]) -> list[str]:
        unknown = [m for m in value if not METRIC_PATTERN.match(m)]
        if unknown:
            close = closest_names(unknown, NAMED_METRICS)
            hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
            known = ", ".join(NAMED_METRICS)
            raise ValueError(
                f"unknown metrics {unknown}{hint}; known: {known}, pass@K and pass^K (K >= 1)"
            )
        return value

    @model_validator(mode="after")
    def _no_pass_at_k_across_seatings(self) -> TaskProtocol:
        passes = [m for m in self.metrics if m.startswith(("pass@", "pass^"))]
        if passes and self.seat_rotation != "none":
            raise ValueError(
                f"{passes[0]} cannot be computed with seat_rotation {self.seat_rotation!r}: "
                "the plays of a seed are different seatings, not repeated attempts"
            )
        return self

    @field_validator("opponents")
    @classmethod
    def _opponents(cls, value: list[str]) -> list[str]:
        for opponent in value:
            if not opponent.strip() or opponent != opponent.strip():
                raise ValueError(f"opponent {opponent!r} is not an agent string")
            if is_lineup(opponent) or is_panel_agent(opponent):
                raise ValueError(f"opponent {opponent!r} must name one agent, not a lineup")
        if len(set(value)) != len(value):
            raise ValueError("opponents must be distinct")
        return value

    @model_validator(mode="after")
    def _panel_plays_both_seats(self) -> TaskProtocol:
        if self.opponents and self.seat_rotation != "all":
            raise ValueError(
                "a protocol with opponents plays each from every seat: set seat_rotation: all"
            )
        return self

    @model_serializer(mode="wrap")
    def _omit_default_rotation(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # run.json and board protocol files written before rotation (or panels) existed hold
        # no seat_rotation (or opponents); leaving the defaults out keeps them equal.
        data: dict[str, Any] = handler(self)
        if self.seat_rotation == "none":
            data.pop("seat_rotation", None)
        if not self.opponents:
            data.pop("opponents", None)
        return data

    @model_validator(mode="after")
    def _not_too_many_episodes(self) -> TaskProtocol:
        total = self.episode_count()
        if total > MAX_EPISODES:
            raise ValueError(
                f"the protocol asks for {total:,} episodes (envs x seeds x attempts), over the "
                f"limit of {MAX_EPISODES:,} for one run; split it into several protocols"
            )
        return self

    def episode_count(self) -> int:
        """Episodes the protocol asks for: envs x seeds x attempts (without listing them)."""
        seeds = self.seeds.count if isinstance(self.seeds, SeedRange) else len(self.seeds)
        return len(self.envs) * seeds * self.attempts

    def check_envs(self) -> None:
        """Make every env the protocol names with its kwargs once, before any episode runs.

        An env refuses a bad argument value in its constructor; found here, that is the
        protocol's problem to fix, where found by a worker it would be one infra error per
        episode. Entries without kwargs use the registered defaults and are not made.

        Raises:
            ProtocolError: an env refuses its kwargs (``ValueError`` or ``TypeError``,
                which includes unknown keyword arguments).
            MissingExtraError: an env needs an extra that is not installed.
        """
        checked: set[tuple[str, str]] = set()
        for index, entry in enumerate(self.envs):
            key = (entry.id, canonical_json(entry.kwargs))
            if not entry.kwargs or key in checked:
                continue
            checked.add(key)
            try:
                env = registry[entry.id].make(**entry.kwargs)
            except (ValueError, TypeError) as exc:
                raise ProtocolError(
                    f"task {self.id!r}: envs.{index} ({entry.id} with {key[1]}): {exc}"
                ) from exc
            env.close()

    def seatings(self, agent: str) -> list[str]:
        """The agent string of each seating of ``agent`` under :attr:`seat_rotation`.

        Raises:
            ProtocolError: a malformed lineup, or too many seatings.
        """
        try:
            return seatings(agent, self.seat_rotation)
        except LineupError as exc:
            raise ProtocolError(f"task {self.id!r}: {exc}") from exc

    def plays_per_seed(self, agent: str, entry: EnvEntry | None = None) -> int:
        """Episodes per (env, seed) for ``agent``: seatings (or panel plays) x attempts.

        With a panel the plays depend on the env's seats (one per seat and opponent):
        ``entry`` names the env (default: the first).
        """
        if self.opponents:
            seats = len(self.entry_seats(self.envs[0] if entry is None else entry))
            return max(seats, PANEL_SEATS) * len(self.opponents) * self.attempts
        return len(self.seatings(agent)) * self.attempts

    def entry_seats(self, entry: EnvEntry) -> list[str]:
        """The seats (``possible_agents``) of an env entry, from the env made with its kwargs.

        Raises:
            ProtocolError: the env is not a multi-agent env.
        """
        spec = registry[entry.id]
        if not spec.multi_agent:
            raise ProtocolError(
                f"task {self.id!r}: {entry.id} is single-agent; a panel plays multi-agent games"
            )
        return list(_possible_agents(entry.id, canonical_json(entry.kwargs)))

    def lineups(self, agent: str, entry: EnvEntry) -> list[str]:
        """The agent string of each play of a seed of ``entry``: seatings, or panel plays.

        Raises:
            ProtocolError: a malformed lineup, too many seatings, or (with a panel) an agent
                string that is not one agent, or an env that is not a two-player game.
        """
        if not self.opponents:
            return self.seatings(agent)
        try:
            return panel_seatings(agent, self.opponents, self.entry_seats(entry))
        except LineupError as exc:
            raise ProtocolError(f"task {self.id!r}: {entry.id}: {exc}") from exc

    def seed_values(self) -> list[int]:
        """The seeds, as a list."""
        return self.seeds.values() if isinstance(self.seeds, SeedRange) else list(self.seeds)

    def pass_ks(self) -> list[int]:
        """The k of every ``pass@k`` metric asked for."""
        return sorted(int(m.split("@")[1]) for m in self.metrics if m.startswith("pass@"))

    def jobs(
        self, run_id: str, agent: str, agent_options: dict[str, Any] | None = None
    ) -> list[EpisodeJob]:
        """Every episode of the protocol: envs x seeds x seatings x attempts.

        Without seat rotation every job plays ``agent`` and ``attempt`` counts the attempts;
        with it, seating s's repeat a is attempt ``s * attempts + a`` and plays the seating's
        lineup; with a panel, s counts the panel's plays (see the module doc).

        Raises:
            ProtocolError: a malformed lineup, too many seatings, or more than
                :data:`MAX_EPISODES` episodes in all.
        """
        plays = max(self.plays_per_seed(agent, entry) for entry in self.envs) // self.attempts
        total = self.episode_count() * plays
        if total > MAX_EPISODES:
            raise ProtocolError(
                f"task {self.id!r} with {plays} seatings asks for {total:,} episodes, "
                f"over the limit of {MAX_EPISODES:,} for one run"
            )
        lineups = {index: self.lineups(agent, entry) for index, entry in enumerate(self.envs)}
        return [
            EpisodeJob(
                run_id=run_id,
                task_id=self.id,
                env_id=entry.id,
                env_kwargs=entry.kwargs,
                seed=seed,
                attempt=seating * self.attempts + attempt,
                agent=lineup,
                agent_options=agent_options or {},
                step_budget=self.max_steps,
                wall_time_s=self.wall_time_s,
            )
            for index, entry in enumerate(self.envs)
            for seed in self.seed_values()
            for seating, lineup in enumerate(lineups[index])
            for attempt in range(self.attempts)
        ]

    @classmethod
    def load(cls, path: str | Path) -> TaskProtocol:
        """Read and validate a protocol file.

        Raises:
            ProtocolError: the file is missing, is not YAML, or does not fit the schema.
        """
        try:
            data = read_yaml(path)
        except OSError as exc:
            raise ProtocolError(f"cannot read task protocol {path}: {exc.strerror}") from exc
        except DataFileError as exc:
            raise ProtocolError(str(exc)) from exc
        if not isinstance(data, dict):
            type_name = "nothing" if data is None else type(data).__name__
            raise ProtocolError(f"{path} must hold a mapping, not {type_name}")
        try:
            protocol = cls.model_validate(data)
        except ValidationError as exc:
            raise ProtocolError(f"{path} is not a valid task protocol: {_problems(exc)}") from exc
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
    try:
        return TaskProtocol.model_validate(
            {
                "id": "adhoc",
                "envs": [{"id": env_id, "kwargs": env_kwargs}],
                "seeds": {"start": seed_start, "count": episodes},
                "attempts": attempts,
                "metrics": ["success_rate", "mean_return", *passes],
            }
        )
    except ValidationError as exc:
        raise ProtocolError(f"cannot run {env_id}: {_problems(exc, ADHOC_OPTIONS)}") from exc


#: The fields of an ad-hoc protocol, by the ``envsuite eval`` option that sets them.
ADHOC_OPTIONS = {
    "seeds.count": "--episodes",
    "seeds.start": "--seed-start",
    "seeds": "--seed-start/--episodes",
    "attempts": "--attempts",
    "envs.0.kwargs": "--set",
}


def _problems(exc: ValidationError, names: dict[str, str] | None = None) -> str:
    """Pydantic's errors on one line: ``field: message; ...`` (fields renamed by ``names``)."""
    shown = []
    for error in exc.errors():
        # The seeds union names its branch in the location ("seeds.range.count"): drop it.
        where = ".".join(str(p) for p in error["loc"] if p not in ("range", "list"))
        where = (names or {}).get(where, where)
        message = error["msg"].removeprefix("Value error, ")
        shown.append(f"{where}: {message}" if where else message)
    return "; ".join(dict.fromkeys(shown))


@functools.lru_cache(maxsize=64)
def _possible_agents(env_id: str, kwargs_json: str) -> tuple[str, ...]:
    """The ``possible_agents`` of an env made with its kwargs (made once per entry)."""
    env = registry[env_id].make(**json.loads(kwargs_json))
    try:
        return tuple(env.possible_agents)
    finally:
        env.close()
