"""The episode record: the one schema the runner writes and metrics and leaderboards read.

One :class:`EpisodeRecord` per episode, one JSON object per line in a ``.jsonl`` file.
Metrics are computed from records only, so a record carries everything they need: the
outcome (return, success, score, length), identity (env id, spec hash, seed, attempt) and
the action trace with per-step rewards, which leaderboards replay.

The lines are strict JSON: a non-finite number (an env's NaN reward, an infinite metric)
is written as the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` and read back as the
float where the schema has a number (in free-form fields such as ``agent_info`` it stays a
string).
"""

from __future__ import annotations

import functools
import json
import math
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import repeat
from operator import getitem
from pathlib import Path
from typing import Any, Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, field_validator
from pydantic.fields import FieldInfo

from envsuite.errors import RecordFileError as RecordFileError
from envsuite.jsonable import canonical_json, to_jsonable
from envsuite.safe_load import DataFileError, decode_utf8

SCHEMA_VERSION = 1

#: A reward: a float for single-agent envs, agent name -> float for multi-agent envs.
Reward = float | dict[str, float]

#: One agent's own outcome: of a game (win, loss, draw) or of a goal (success, failure).
Outcome = Literal["win", "loss", "draw", "success", "failure"]


class AgentOutcome(BaseModel):
    """What one agent of a multi-agent episode got (see :mod:`envsuite.outcomes`).

    Attributes:
        episode_return: The agent's sum of rewards.
        outcome: Its own outcome, where the env reports one.
        role: Its role (e.g. ``"werewolf"``, ``"first"``), where the game has roles.
        team: Its team, where the game has teams.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, ser_json_inf_nan="strings")

    episode_return: float
    outcome: Outcome | None = None
    role: str | None = None
    team: str | None = None


class Step(BaseModel):
    """One step of an action trace.

    Attributes:
        action: The action sent, in JSON form (per agent for multi-agent envs); convert
            numpy values with :func:`envsuite.jsonable.to_jsonable` first.
        reward: The reward(s) received; for a multi-agent env a dict holding the agents
            whose reward was not 0 (an agent left out got 0: most steps of a many-seat
            game reward nobody; records written before this rule list every agent, and
            :func:`step_rewards` reads both alike).
        probability: The probability with which the agent chose this action, when the agent
            reports it (``last_action_probability()``); off-policy estimators need it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, ser_json_inf_nan="strings")

    # JsonValue is checked in pydantic's core: a per-step Python validator would cost more
    # than a fast env's step.
    action: JsonValue
    reward: Reward
    probability: float | dict[str, float] | None = None


_new_object = object.__new__
_set_attribute = object.__setattr__
#: The fields set of every trusted step, one set shared by all: a step is frozen, so
#: nothing adds to it (``model_copy`` copies it first), and one object fewer per step
#: spares the garbage collector, which otherwise walks it in every collection of a run.
_ALL_STEP_FIELDS = {"action", "reward", "probability"}


def trusted_step(action: Any, reward: float, probability: float | None) -> Step:
    """A :class:`Step` of values already valid, built without validating them again.

    For the runner's hot loop: validating a step costs a few microseconds, more than a fast
    env's step. The caller guarantees what validation would check: ``action`` is a JSON
    value (as :func:`~envsuite.jsonable.to_jsonable` makes, string keys), ``reward`` a
    ``float``, ``probability`` a ``float`` or None. The step is then the one
    ``Step(action=..., reward=..., probability=...)`` makes, and serialises to the same bytes.
    """
    step = _new_object(Step)
    _set_attribute(
        step, "__dict__", {"action": action, "reward": reward, "probability": probability}
    )
    _set_attribute(step, "__pydantic_fields_set__", _ALL_STEP_FIELDS)
    _set_attribute(step, "__pydantic_extra__", None)
    _set_attribute(step, "__pydantic_private__", None)
    return step


#: Action types whose equal values are written alike, and never equal one of another type.
_SHAREABLE_ACTIONS = frozenset({str, int, type(None)})
#: Most steps :func:`shared_steps` keeps for later traces (see :func:`_interned_step`).
MAX_INTERNED_STEPS = 4096
#: Longest ``str`` action (in characters) of a step kept for later traces.
MAX_INTERNED_ACTION_CHARS = 256
#: (reward, action) -> a step kept for every later trace, and the JSON of each such step by
#: its ``id``: the steps are never dropped, so their ids stay theirs.
_interned: dict[tuple[float, Any], Step] = {}
_interned_json: dict[int, str] = {}


def _interned_step(reward: float, action: Any) -> Step:
    """The trusted step of ``(action, reward)``, one object for the whole process.

    A run's traces repeat the same few steps episode after episode (a bandit's buttons and
    rewards): a step kept from an earlier trace spares building it, and writing a record
    takes its JSON, made once, instead of serialising it again. Steps are frozen, so sharing
    one among records changes nothing but ``is``. A step is kept when its reward is a
    ``float`` equal to itself (never NaN, whose every object is a new key) and its action
    short, and while fewer than :data:`MAX_INTERNED_STEPS` are kept; any other is built on
    its own.
    """
    if (
        type(reward) is not float
        or reward != reward
        or (type(action) is str and len(action) > MAX_INTERNED_ACTION_CHARS)
    ):
        return trusted_step(action, reward, None)
    key = (reward, action)
    step = _interned.get(key)
    if step is None:
        step = trusted_step(action, reward, None)
        if len(_interned) < MAX_INTERNED_STEPS:
            _interned[key] = step
            _interned_json[id(step)] = step.model_dump_json()
    return step


#: The bytes of -0.0 as a native C double.
_NEGATIVE_ZERO_BYTES = struct.pack("d", -0.0)


def _has_negative_zero(rewards: Sequence[float]) -> bool:
    """Whether a reward is ``-0.0``: searched in the rewards' bytes, not one by one.

    The bytes are packed by :mod:`struct`, which reads each float's value directly
    (``array("d", ...)`` parses each one as a call's argument, several times the cost).
    """
    try:
        data = struct.pack(f"{len(rewards)}d", *rewards)
    except (TypeError, OverflowError, struct.error):  # not all floats: ask each zero its sign
        return -1.0 in map(math.copysign, repeat(1.0), filter((0.0).__eq__, rewards))
    start = data.find(_NEGATIVE_ZERO_BYTES)
    while start != -1:
        if start % len(_NEGATIVE_ZERO_BYTES) == 0:  # a whole number, not the end of one
            return True
        start = data.find(_NEGATIVE_ZERO_BYTES, start + 1)
    return False


def shared_steps(
    actions: Sequence[Any],
    rewards: Sequence[float],
    *,
    action_types: AbstractSet[type] | None = None,
) -> list[Step]:
    """The trusted steps (no probability) of a trace, each distinct step one shared object.

    ``[trusted_step(a, r, None) for a, r in zip(actions, rewards)]`` in value, equality and
    the JSON written (the same guarantees bind the caller). A trace repeats few distinct
    steps (a 5-armed bandit has 10: five buttons, rewards 0 and 1), while building a step
    costs about a microsecond, more than a fast env's step, and each step built is one more
    object for the garbage collector to walk while the run keeps its records. Steps are
    frozen, so sharing one object among equal steps (of this trace, and of earlier traces:
    see :func:`_interned_step`) changes nothing but ``is``.

    Steps are shared when every action is a ``str``, an ``int`` or None and no reward is
    ``-0.0`` (equal to ``0.0``, yet written differently); otherwise each is built on its own.

    Args:
        actions: The actions, in JSON form.
        rewards: The rewards (``float``).
        action_types: The set of the actions' exact types, when the caller has it already
            (it spares a pass over the actions); None: found here.

    Raises:
        ValueError: ``actions`` and ``rewards`` differ in length.
    """
    if len(actions) != len(rewards):
        raise ValueError(f"{len(actions)} actions but {len(rewards)} rewards")
    if action_types is None:
        action_types = set(map(type, actions))
    if _has_negative_zero(rewards) or not action_types <= _SHAREABLE_ACTIONS:
        return [trusted_step(a, r, None) for a, r in zip(actions, rewards, strict=True)]
    # Looked up in C rather than step by step in Python; a row and a step are made (in
    # Python) at their first lookup only. Equal float rewards are written alike (-0.0 is
    # excluded above), as equal actions are.
    return list(map(getitem, map(_StepRows().__getitem__, rewards), actions))


class _StepRows(dict[float, "_StepRow"]):
    """Reward -> its row of steps (:class:`_StepRow`), made at the reward's first lookup.

    Keyed by reward, then by action: no key tuple per step, so no garbage-collected object.
    """

    __slots__ = ()

    def __missing__(self, reward: float) -> _StepRow:
        row = self[reward] = _StepRow(reward)
        return row


class _StepRow(dict[Any, Step]):
    """Action -> the step of that action and the row's reward, made at its first lookup.

    Args:
        reward: The reward of every step of the row.
    """

    __slots__ = ("reward",)

    def __init__(self, reward: float) -> None:
        super().__init__()
        self.reward = reward

    def __missing__(self, action: Any) -> Step:
        step = self[action] = _interned_step(self.reward, action)
        return step


class EpisodeRecord(BaseModel):
    """Everything recorded about one episode.

    Attributes:
        schema_version: Version of this schema (bumped on incompatible change).
        run_id: The run that produced the record.
        task_id: The task protocol the episode belongs to ("" for ad-hoc runs).
        env_id: ``envsuite/<Name>-v<N>``.
        env_kwargs: Keyword arguments the env was made with (beyond the spec's defaults).
        spec_hash: The made env's spec hash.
        envsuite_version: Version of envsuite that ran the episode.
        agent_id: Name of the agent (for multi-agent envs, the agents joined by ``+``).
        seed: The seed passed to ``reset``.
        attempt: Attempt index for pass@k-style repeated attempts (0-based).
        episode_return: Sum of rewards; per agent for multi-agent envs.
        success: Env-level success (None where undefined): ``info["success"]`` at the end
            for single-agent envs; for multi-agent envs, what the env's ``episode_success``
            hook says (each env documents its rule).
        score: ``info["score"]`` at the end, in [0, 1] where the env defines one.
        length: Number of steps taken (for AEC envs: agent actions, one trace step each).
        terminated: Whether the episode ended in a terminal state.
        truncated: Whether it was cut short: by the env (its step limit) or by the
            runner's step or wall-clock budget.
        stop_reason: Why the episode ended: ``terminated``, ``truncated`` (by the env),
            ``step_limit`` / ``wall_time_limit`` (the runner's step budget or wall-clock
            budget ran out; not the env's own step limit, which gives ``truncated``) or
            ``infra_error``.
        wall_time_s: Seconds the episode took (reporting only; never affects results).
        infra_error: Infrastructure failure (env crash, sandbox loss), kept apart from
            agent failure; None when the episode ran normally.
        metrics: Final per-episode numbers envs report in ``info`` (e.g. ``regret``).
        curves: Per-step series envs report in ``info`` (e.g. ``regret`` for regret curves).
        agent_info: What the agent reported (token usage, latency, ...).
        trace: The action trace, one :class:`Step` per step (for AEC envs, one per agent
            action: ``{agent: action}`` and every agent's reward from that action).
        agents: Per agent of a multi-agent episode: return, own outcome, role and team
            (empty for single-agent envs and for records written before this field).
    """

    model_config = ConfigDict(extra="forbid", ser_json_inf_nan="strings")

    schema_version: int = SCHEMA_VERSION
    run_id: str
    task_id: str = ""
    env_id: str
    env_kwargs: dict[str, Any] = Field(default_factory=dict)
    spec_hash: str
    envsuite_version: str
    agent_id: str
    seed: int
    attempt: int = Field(default=0, ge=0)
    episode_return: Reward
    success: bool | None = None
    score: float | None = None
    length: int = Field(ge=0)
    terminated: bool
    truncated: bool
    stop_reason: Literal[
        "terminated", "truncated", "step_limit", "wall_time_limit", "infra_error"
    ] = "terminated"
    wall_time_s: float = Field(ge=0.0)
    infra_error: str | None = None
    metrics: dict[str, float] = Field(default_factory=dict)
    curves: dict[str, list[float]] = Field(default_factory=dict)
    agent_info: dict[str, Any] = Field(default_factory=dict)
    trace: list[Step] = Field(default_factory=list)
    agents: dict[str, AgentOutcome] = Field(default_factory=dict)

    @field_validator("env_kwargs", "agent_info", mode="before")
    @classmethod
    def _jsonable_mapping(cls, value: Any) -> Any:
        return to_jsonable(value)

    @property
    def key(self) -> tuple[str, str, str, int, int]:
        """Identity of the episode within a run: (task, env, kwargs as JSON, seed, attempt)."""
        return episode_key(self.task_id, self.env_id, self.env_kwargs, self.seed, self.attempt)

    def to_json_line(self) -> str:
        """One line of JSON (no trailing newline): the bytes of ``model_dump_json()``.

        A trace of a few shared steps (:func:`shared_steps`: a 300-step Bandit trace holds
        10 distinct ones) is written by joining each distinct step's JSON, made once,
        instead of serialising all of its steps one by one.
        """
        trace = self.trace
        steps: str | None
        try:
            # Every step one kept for later traces (the runner's usual trace): its JSON is
            # known by its id, which stays its own since kept steps are never dropped.
            steps = ",".join(map(_interned_json.__getitem__, map(id, trace)))
        except KeyError:
            steps = self._shared_steps_json()
        if steps is None:
            return self.model_dump_json()
        head = self.model_dump_json(exclude=_TRACE_AND_AFTER)
        if not _AFTER_TRACE:
            return f'{head[:-1]},"trace":[{steps}]}}'
        if _AGENTS_LAST and not self.agents and type(self.agents) is dict:
            return f'{head[:-1]},"trace":[{steps}],"agents":{{}}}}'  # a single-agent record
        tail = self.model_dump_json(include=_AFTER_TRACE)
        return f'{head[:-1]},"trace":[{steps}],{tail[1:]}'

    def _shared_steps_json(self) -> str | None:
        """The trace's steps in JSON, joined, each distinct step serialised once.

        None when the trace has too few repeats for that to pay (it is then written with
        the rest of the record).
        """
        trace = self.trace
        ids = list(map(id, trace))  # the trace holds the steps: their ids stay theirs
        distinct = dict(zip(ids, trace, strict=True))
        if len(distinct) * _SHARED_TRACE_RATIO > len(trace):
            return None
        known = _interned_json.get
        made = {key: known(key) or step.model_dump_json() for key, step in distinct.items()}
        return ",".join(map(made.__getitem__, ids))

    @classmethod
    def from_json_line(cls, line: str) -> EpisodeRecord:
        """Parse one line written by :meth:`to_json_line`."""
        return cls.model_validate_json(line)


#: The values a record's ``stop_reason`` may take.
STOP_REASONS = frozenset(get_args(EpisodeRecord.model_fields["stop_reason"].annotation))


def _default_maker(field: FieldInfo) -> Callable[[], Any]:
    """A call that makes ``field``'s default, as ``get_default(call_default_factory=True)``.

    A factory that takes no validated data is the call itself: ``get_default`` asks
    :mod:`inspect` for the factory's signature each time, which cost more than the rest of
    :func:`trusted_record`. A default of an immutable scalar type, which ``get_default``
    returns as it is (uncopied), is returned by a call in C.
    """
    factory = field.default_factory
    if factory is not None and not field.default_factory_takes_validated_data:
        return cast(Callable[[], Any], factory)
    if factory is None and type(field.default) in _UNCOPIED_DEFAULTS:
        return repeat(field.default).__next__
    return functools.partial(field.get_default, call_default_factory=True)


#: Default types ``get_default`` returns uncopied (a subset of pydantic's immutable types).
_UNCOPIED_DEFAULTS = frozenset({int, float, bool, str, type(None)})


#: The record's fields in schema order, each with the call that makes its default (None:
#: required).
_RECORD_DEFAULTS: tuple[tuple[str, Callable[[], Any] | None], ...] = tuple(
    (name, None if field.is_required() else _default_maker(field))
    for name, field in EpisodeRecord.model_fields.items()
)


def trusted_record(fields: dict[str, Any]) -> EpisodeRecord:
    """An :class:`EpisodeRecord` of values already valid, built without validating them.

    For the runner's records of single-agent episodes: validating a 300-step record costs
    more than a fast env's whole episode. The caller guarantees what validation would
    check and convert: ``env_kwargs`` and ``agent_info`` are what
    :func:`~envsuite.jsonable.to_jsonable` returns, ``trace`` holds :class:`Step` objects
    (:func:`trusted_step`, :func:`shared_steps`), ``metrics`` and ``curves`` hold ``float``
    values under ``str`` keys, and no ``agents`` are given. The scalar fields are checked
    here (their exact types, ``stop_reason``'s values, the bounds): a record that fails a
    check is validated instead, so it raises as :class:`EpisodeRecord` would. The record is
    then the one ``EpisodeRecord(**fields)`` makes: equal, and written to the same bytes.

    Records read back from a file are always validated (:meth:`EpisodeRecord.from_json_line`).
    """
    if not _trusted_scalars(fields):
        return EpisodeRecord(**fields)
    values: dict[str, Any] = {}
    for name, default in _RECORD_DEFAULTS:
        if name in fields:
            values[name] = fields[name]
        elif default is None:
            return EpisodeRecord(**fields)  # a required field is missing: let validation say so
        else:
            values[name] = default()
    record = _new_object(EpisodeRecord)
    _set_attribute(record, "__dict__", values)
    _set_attribute(record, "__pydantic_fields_set__", set(fields))
    _set_attribute(record, "__pydantic_extra__", None)
    _set_attribute(record, "__pydantic_private__", None)
    return record


#: Fields :func:`trusted_record` checks to be of exactly one type; each maps to its types.
_TRUSTED_TYPES: dict[str, tuple[type, ...]] = {
    "schema_version": (int,),
    "run_id": (str,),
    "task_id": (str,),
    "env_id": (str,),
    "env_kwargs": (dict,),
    "spec_hash": (str,),
    "envsuite_version": (str,),
    "agent_id": (str,),
    "seed": (int,),
    "attempt": (int,),
    "episode_return": (float,),
    "success": (bool, type(None)),
    "score": (float, type(None)),
    "length": (int,),
    "terminated": (bool,),
    "truncated": (bool,),
    "stop_reason": (str,),
    "wall_time_s": (float,),
    "infra_error": (str, type(None)),
    "metrics": (dict,),
    "curves": (dict,),
    "agent_info": (dict,),
    "trace": (list,),
}


def _trusted_scalars(fields: dict[str, Any]) -> bool:
    """Whether ``fields`` pass the checks :func:`trusted_record` makes (see there)."""
    types = _TRUSTED_TYPES
    for name, value in fields.items():
        kinds = types.get(name)
        if kinds is None or type(value) not in kinds:
            return False  # an unknown field, ``agents``, or another type: validate
    return (
        fields.get("stop_reason", "terminated") in STOP_REASONS
        and fields.get("attempt", 0) >= 0
        and fields.get("length", 0) >= 0
        and fields.get("wall_time_s", 0.0) >= 0.0
    )


#: A trace is written step by step unless it has this many steps per distinct step.
_SHARED_TRACE_RATIO = 4
#: The record's fields after ``trace`` (sets, as pydantic's ``include`` takes; never changed).
_AFTER_TRACE: set[str] = set(
    list(EpisodeRecord.model_fields)[list(EpisodeRecord.model_fields).index("trace") + 1 :]
)
_TRACE_AND_AFTER: set[str] = _AFTER_TRACE | {"trace"}
#: Whether ``agents`` is the only field after ``trace`` (its empty mapping is then spelled
#: in place rather than serialised).
_AGENTS_LAST = sorted(_AFTER_TRACE) == ["agents"]


def episode_key(
    task_id: str, env_id: str, env_kwargs: dict[str, Any], seed: int, attempt: int
) -> tuple[str, str, str, int, int]:
    """The identity of an episode within a run (see :attr:`EpisodeRecord.key`)."""
    return (task_id, env_id, canonical_json(env_kwargs), seed, attempt)


def read_records(path: str | Path, *, skip_partial_last_line: bool = True) -> list[EpisodeRecord]:
    """Read every record from a JSONL file.

    A run killed mid-write can leave a partial last line (no trailing newline); it is
    skipped when ``skip_partial_last_line`` is set, since the episode will be run again.

    Raises:
        RecordFileError: a complete line that is not UTF-8 or not a valid record (with its
            line number).
    """
    return list(iter_records(path, skip_partial_last_line=skip_partial_last_line))


def iter_records(
    path: str | Path, *, skip_partial_last_line: bool = True
) -> Iterator[EpisodeRecord]:
    """Yield the records of a JSONL file one at a time (see :func:`read_records`)."""
    for _, record in iter_numbered_records(path, skip_partial_last_line=skip_partial_last_line):
        yield record


def iter_numbered_records(
    path: str | Path, *, skip_partial_last_line: bool = True
) -> Iterator[tuple[int, EpisodeRecord]]:
    """Yield ``(line number, record)`` for every record of a JSONL file (1-based lines)."""
    with open(path, "rb") as handle:
        data = handle.read()
    if skip_partial_last_line:
        data = data[: data.rfind(b"\n") + 1]
    try:
        text = decode_utf8(data, path)
    except DataFileError as exc:
        raise RecordFileError(str(exc)) from exc
    lines = text.split("\n")
    partial = lines.pop()  # text after the last newline: "" for a complete file
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        yield number, _parse_line(line, path, number)
    if partial.strip():
        yield len(lines) + 1, _parse_line(partial, path, len(lines) + 1)


def read_unique_records(
    path: str | Path, *, skip_partial_last_line: bool = True
) -> tuple[list[EpisodeRecord], list[int]]:
    """Read a JSONL file's records, each episode (:attr:`EpisodeRecord.key`) once.

    A line identical to an earlier record repeats it and is skipped; two different
    records of one episode contradict each other, and only a person can tell which is
    right.

    Returns:
        The records in file order, and the numbers (1-based) of the repeated lines skipped.

    Raises:
        RecordFileError: a line that is not a valid record, or two different records of
            one episode (naming both lines).
    """
    first: dict[tuple[str, str, str, int, int], tuple[int, EpisodeRecord]] = {}
    records: list[EpisodeRecord] = []
    repeats: list[int] = []
    for number, record in iter_numbered_records(
        path, skip_partial_last_line=skip_partial_last_line
    ):
        seen = first.get(record.key)
        if seen is None:
            first[record.key] = (number, record)
            records.append(record)
        elif seen[1] == record:
            repeats.append(number)
        else:
            task, env_id, kwargs, seed, attempt = record.key
            raise RecordFileError(
                f"{path}: lines {seen[0]} and {number} both record {env_id} {kwargs} seed "
                f"{seed} attempt {attempt}{f' of task {task}' if task else ''}, with different "
                "results; delete the line you do not trust"
            )
    return records, repeats


def _parse_line(line: str, path: str | Path, number: int) -> EpisodeRecord:
    try:
        return EpisodeRecord.from_json_line(line)
    except ValidationError as exc:
        # One line per problem, without pydantic's echo of the (possibly huge) input.
        errors = exc.errors()
        problems = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'line'}: {error['msg']}"
            for error in errors[:3]
        )
        more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
        raise RecordFileError(
            f"{path}:{number}: not a valid episode record: {problems}{more}"
        ) from exc


def write_records(path: str | Path, records: Iterable[EpisodeRecord]) -> None:
    """Write records to a JSONL file, replacing it."""
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(record.to_json_line() + "\n")


def json_schema() -> str:
    """The JSON Schema of :class:`EpisodeRecord`, for tools outside Python."""
    return json.dumps(EpisodeRecord.model_json_schema(), indent=2, sort_keys=True)


def nonzero_rewards(rewards: Mapping[str, Any]) -> dict[str, float]:
    """A multi-agent step's rewards as a trace stores them: the entries that are not 0."""
    return {name: float(value) for name, value in rewards.items() if value != 0}


def step_rewards(reward: Reward) -> Reward:
    """A trace step's reward in one form, to compare steps whichever rule wrote them.

    A multi-agent dict loses its zero entries (:func:`nonzero_rewards`); a single-agent
    reward is returned as it is.
    """
    return nonzero_rewards(reward) if isinstance(reward, dict) else reward
