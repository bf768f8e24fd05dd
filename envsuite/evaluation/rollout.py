"""Rollouts for RL trainers: many chat-agent episodes at once, in GRPO groups, resumable.

:func:`rollout` (and its coroutine :func:`arollout`) runs every episode of a task protocol
with an :class:`~envsuite.agents.async_chat_agent.AsyncChatAgent` against an
OpenAI-compatible endpoint (vLLM or SGLang in real use), ``concurrency`` episodes at a
time in one thread: each episode waits for the model with ``await`` and steps its env
in-process between awaits, so hundreds of episodes cost hundreds of env instances and
one HTTP connection pool, not hundreds of threads.

Groups (what GRPO compares): group ``g`` is the ``g``-th seed of the protocol (for an env
target, seed ``seed_start + g``), and its ``G`` members are the protocol's attempts
``0..G-1``. Every member of a group resets its env with the same seed, so they start from
the same observation; they differ only in the model's sampling: member ``m`` sends the
request field ``seed`` derived from (env seed, ``m``), exactly as ``envsuite eval`` seeds
attempt ``m``, at the ``temperature`` given. Each record holds, in
``agent_info["rollout"]``, ``{"group": g, "member": m, "sampling": {"seed": ...,
"temperature": ...}}``; its ``seed`` and ``attempt`` fields are the env seed and ``m``.

What a run directory holds (``--out``):

- ``run.json`` and ``episodes.jsonl``: as ``envsuite eval`` writes them, one
  :class:`~envsuite.records.EpisodeRecord` per episode (agent id ``openai:MODEL``), so
  ``envsuite report`` and the metrics read a rollout as any run;
- ``transcripts.jsonl``: one line per episode (per chat seat of a game, below) for the
  trainer (:mod:`envsuite.evaluation.rollout_transcripts`): the identity of the episode
  (``task_id``, ``env_id``, ``env_kwargs``, ``seed``, ``attempt``, ``group``, ``member``),
  ``sampling``, ``messages`` (the chat transcript of
  :mod:`envsuite.evaluation.transcripts`: system, then user and assistant turns, ending
  with the env's last observation), ``rewards`` (``rewards[i]`` follows the ``i``-th
  assistant message), ``usage`` (per assistant message: ``prompt_tokens``,
  ``completion_tokens``, ``total_tokens``, ``requests``, ``retries``, ``latency_s``, ...),
  ``episode_return``, ``success`` and ``infra_error``.

The system prompt is the env's own (:func:`~envsuite.evaluation.transcripts.system_prompt_of`)
unless ``agent_options`` names one, so the transcript written is exactly the conversation
the model saw, and equals the transcript :func:`transcripts_from_record` rebuilds from the
record. (The sync ``envsuite eval --agent openai:M`` sends the chat agent's generic prompt
instead; records do not hold prompts, so given the same replies the records are the same.)

Each episode's transcript line (a game's lines, in one write) is written and flushed
first, then its record; a run killed
at any point resumes with ``rollout`` on the same directory: recorded episodes are skipped,
a transcript line without a record (the kill fell between the two writes) is dropped when
the directory is opened, and every episode ends up in both files exactly once.

Failures: an endpoint answering 5xx, 429 or timing out is retried by the agent (with
backoff); an endpoint that stays down, or an env that raises, fails the episode's try, which
is retried ``max_infra_retries`` times as the runner does and then recorded with
``infra_error`` set. Other episodes carry on.

Envs come from ``env_factory(env_id, env_kwargs)``: :func:`local_env` (``envsuite.make``)
by default; a remote env fits the same slot (``lambda env_id, kwargs:
envsuite.remote.make(url, env_id, **kwargs)``), and gives the same records and
transcripts as in-process (tested). An env whose calls block on the network should be
stepped with ``env_calls_in_thread=True``, which runs each ``reset`` and ``step`` in a
worker thread so the event loop keeps serving other episodes. What the wire does not carry
(the env's system prompt, the info keys it records as curves and metrics) is read from
the same env made here once per (id, kwargs).
Multi-agent games (PettingZoo AEC and Parallel envs; :mod:`envsuite.evaluation.game_rollout`)
are rolled out with a *lineup* in ``envsuite eval``'s syntax, in which ``model`` stands for
the rolled-out model (``openai:MODEL``): ``lineup=None`` (or ``"model"``) is self-play, the
model in every seat; ``"player_0=model,player_1=oracle"`` puts it in one seat against the
oracle (seats a lineup leaves out play ``random``, as in ``envsuite eval``). The record's
``agent_id`` is the lineup with ``model`` written out, and the record is the one ``envsuite
eval --agent LINEUP`` writes given the same replies. Every chat seat has its own
:class:`AsyncChatAgent` (seat ``i`` seeded as ``envsuite eval`` seeds it, so two chat seats
of one game sample differently) and gets its own line in ``transcripts.jsonl``: the line
adds ``seat`` and ``model``, its ``messages`` and ``rewards`` are what that seat observed
and received (its transcript from :func:`transcripts_from_record`), its ``usage`` that
seat's requests, its ``episode_return`` the seat's return and ``outcome`` the seat's entry
of the record's ``agents`` (return, outcome, role, team); ``success`` is the env-level one.
The record's ``agent_info`` holds each seat's report (as ``envsuite eval``'s) and
``"rollout"``, whose ``sampling`` maps each chat seat to its request seed and temperature.

Seats and groups: the seats do not rotate unless the protocol asks (``seat_rotation``;
``envsuite rollout --rotate``). A group is one seed *and one seating*: with rotation,
seating ``s`` of seed index ``i`` is group ``i * seatings + s`` (the protocol's attempt
``s * G + m`` is member ``m``), so the members of a group always put the model in the same
seats (the same role, where a seat fixes it) and differ only in sampling, which is what
GRPO's advantage compares. A group's summary return is the mean over its chat seats of
each member's return.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from envsuite.agents.async_chat_agent import AsyncChatAgent
from envsuite.agents.lineup import LineupError, SeatRotation, is_lineup, parse_lineup
from envsuite.episodes import EnvCallError, arun_episode
from envsuite.errors import UsageError
from envsuite.evaluation.episode_runner import (
    InfraError,
    _add_counts,
    _infra_record,
    _runner_stop,
    _stopped_by_runner,
    _stored_action,
    job_record,
)
from envsuite.evaluation.game_rollout import CHAT_PREFIX, SeatPlay, chat_seats, play_game
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.evaluation.protocol import TaskProtocol, _possible_agents
from envsuite.evaluation.record_store import RecordStore, run_dir_lock
from envsuite.evaluation.rollout_groups import GroupLayout, GroupSummary, group_summaries
from envsuite.evaluation.rollout_transcripts import (
    TRANSCRIPTS_FILE as TRANSCRIPTS_FILE,
)
from envsuite.evaluation.rollout_transcripts import (
    TranscriptFile,
    seat_line,
    transcript_line,
)
from envsuite.evaluation.rollout_transcripts import (
    read_transcripts as read_transcripts,
)
from envsuite.evaluation.run_directory import open_run
from envsuite.evaluation.transcripts import LiveTranscripts, Transcript, system_prompt_of
from envsuite.jsonable import canonical_json
from envsuite.records import EpisodeRecord
from envsuite.registry import registry
from envsuite.seeding import derive_seed

#: Connections of one HTTP client: a rollout opens ``ceil(concurrency / this)`` clients,
#: since the time httpx's connection pool takes to hand out a connection grows with the
#: number of connections it holds (with one pool of 64 connections, rollouts against a
#: fast loopback endpoint were slower at concurrency 64 than at 4).
CONNECTIONS_PER_CLIENT = 8

#: Makes the env of an episode: ``(env_id, env_kwargs) -> Gymnasium env``.
EnvFactory = Callable[[str, dict[str, Any]], Any]

#: How a rollout's lineup names the rolled-out model's seats.
MODEL_SEAT = "model"


class RolloutError(UsageError):
    """A rollout that cannot run as asked (a bad lineup, a bad concurrency)."""


def local_env(env_id: str, env_kwargs: dict[str, Any]) -> Any:
    """The default :data:`EnvFactory`: ``envsuite.make`` in this process, in native form.

    The native form is the Parallel one for ``parallel`` specs, as the runner makes it.
    A remote factory gives the same form: ``envsuite.remote.make(url, env_id,
    parallel=registry[env_id].api == "parallel", **env_kwargs)``.
    """
    spec = registry[env_id]
    return spec.make(**env_kwargs, **({"parallel": True} if spec.api == "parallel" else {}))


def rollout_agent(protocol: TaskProtocol, model: str, lineup: str | None = None) -> str:
    """The agent string a rollout of ``model`` records (see the module docstring).

    ``openai:MODEL`` for single-agent envs and for self-play; otherwise ``lineup`` with
    each ``model`` seat written ``openai:MODEL``, in the order given.

    Raises:
        RolloutError: an empty model, a lineup for single-agent envs, single- and
            multi-agent envs in one protocol, a malformed lineup, or one without a chat seat.
    """
    if not model:
        raise RolloutError("model must be a non-empty string")
    chat = CHAT_PREFIX + model
    games = [registry[entry.id].multi_agent for entry in protocol.envs]
    if any(games) and not all(games):
        raise RolloutError("a rollout's envs are all single-agent or all multi-agent games")
    if lineup is None or lineup in (MODEL_SEAT, chat):
        return chat
    if not any(games):
        raise RolloutError(f"a lineup ({lineup!r}) seats agents in multi-agent games only")
    if not is_lineup(lineup):
        raise RolloutError(
            f"lineup {lineup!r} is not SEAT=AGENT,... (e.g. player_0=model,player_1=random)"
        )
    try:
        seats = parse_lineup(lineup)
    except LineupError as exc:
        raise RolloutError(str(exc)) from exc
    written = {seat: chat if value == MODEL_SEAT else value for seat, value in seats.items()}
    if not any(value.startswith(CHAT_PREFIX) for value in written.values()):
        raise RolloutError(
            f"lineup {lineup!r} seats no chat model; write {MODEL_SEAT!r} in the model's seats"
        )
    return ",".join(f"{seat}={value}" for seat, value in written.items())


@dataclass
class RolloutResult:
    """What a call to :func:`rollout` left in the run directory.

    Attributes:
        run_dir: The run directory.
        run_id: Its run id.
        records: The protocol's records, each episode once.
        new: Episodes run by this call.
        resumed: Episodes found recorded already.
        transcripts_path: The trainer's ``transcripts.jsonl``.
    """

    run_dir: Path
    run_id: str
    records: list[EpisodeRecord]
    new: int
    resumed: int
    transcripts_path: Path
    groups: list[GroupSummary] = field(default_factory=list)


def rollout_protocol(
    env_id: str,
    env_kwargs: dict[str, Any] | None = None,
    *,
    groups: int,
    group_size: int,
    seed_start: int = 0,
    step_budget: int | None = None,
    seat_rotation: SeatRotation = "none",
) -> TaskProtocol:
    """The protocol of ``groups`` groups of ``group_size`` on ``env_id``.

    Seeds ``seed_start .. seed_start + groups - 1``, ``group_size`` attempts each; with a
    ``seat_rotation`` (games), each seed once per seating, a group per seating.
    """
    return TaskProtocol.model_validate(
        {
            "id": "rollout",
            "envs": [{"id": env_id, "kwargs": env_kwargs or {}}],
            "seeds": {"start": seed_start, "count": groups},
            "attempts": group_size,
            "metrics": ["mean_return"],
            "max_steps": step_budget,
            "seat_rotation": seat_rotation,
        }
    )


def rollout(
    protocol: TaskProtocol,
    model: str,
    run_dir: str | Path,
    *,
    agent_options: dict[str, Any] | None = None,
    lineup: str | None = None,
    concurrency: int = 64,
    env_factory: EnvFactory = local_env,
    env_calls_in_thread: bool = False,
    on_episode: Callable[[EpisodeRecord], None] | None = None,
) -> RolloutResult:
    """Run every episode of ``protocol`` not yet recorded in ``run_dir`` (see the module).

    Args:
        protocol: What to run: its seeds are the groups, its attempts the group members.
        model: The model name sent to the endpoint (agent id ``openai:MODEL``).
        run_dir: The run directory (created, or resumed if it holds this run).
        agent_options: :class:`AsyncChatAgent` arguments (``base_url``, ``api_key``,
            ``temperature``, ``timeout_s``, ``max_retries``, ``max_tokens``, ...).
        lineup: Multi-agent games: who plays each seat, ``model`` for the model's seats
            (``player_0=model,player_1=oracle``); None: the model in every seat.
        concurrency: Episodes in flight at once (and the HTTP connection limit).
        env_factory: Makes each env (:func:`local_env` by default).
        env_calls_in_thread: Run env ``reset`` and ``step`` in worker threads (for envs
            whose calls block on the network).
        on_episode: Called with each new record as it is written (for progress).

    Raises:
        RolloutError: a bad lineup (see :func:`rollout_agent`), or ``concurrency``
            below 1.
        ProtocolError: an env refuses the protocol's kwargs.
        RunDirError: ``run_dir`` holds another run.
        RunInUseError: another process is writing into ``run_dir``.
        RecordFileError: an invalid line in ``episodes.jsonl`` or ``transcripts.jsonl``.
    """
    return asyncio.run(
        arollout(
            protocol,
            model,
            run_dir,
            agent_options=agent_options,
            lineup=lineup,
            concurrency=concurrency,
            env_factory=env_factory,
            env_calls_in_thread=env_calls_in_thread,
            on_episode=on_episode,
        )
    )


async def arollout(
    protocol: TaskProtocol,
    model: str,
    run_dir: str | Path,
    *,
    agent_options: dict[str, Any] | None = None,
    lineup: str | None = None,
    concurrency: int = 64,
    env_factory: EnvFactory = local_env,
    env_calls_in_thread: bool = False,
    on_episode: Callable[[EpisodeRecord], None] | None = None,
) -> RolloutResult:
    """:func:`rollout` as a coroutine, for callers that run their own event loop."""
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise RolloutError(f"concurrency must be an int >= 1, got {concurrency!r}")
    agent = rollout_agent(protocol, model, lineup)
    protocol.check_envs()
    options = dict(agent_options or {})
    with run_dir_lock(run_dir):
        run_id = open_run(run_dir, protocol, agent, options)
        store = RecordStore(run_dir)
        transcripts = TranscriptFile(Path(run_dir) / TRANSCRIPTS_FILE, store.done)
        jobs = protocol.jobs(run_id, agent, options)
        wanted = {job.key for job in jobs}
        todo = [job for job in jobs if job.key not in store.done]
        groups = _group_indices(protocol)
        plays = {
            index: protocol.plays_per_seed(agent, entry) // protocol.attempts
            for index, entry in enumerate(protocol.envs)
        }
        layout = GroupLayout(groups, protocol.attempts, max(plays.values()))
        runner = _Runner(model, options, env_factory, env_calls_in_thread, layout)
        queue: asyncio.Queue[EpisodeJob] = asyncio.Queue()
        for job in todo:
            queue.put_nowait(job)

        async def work(client: httpx.AsyncClient) -> None:
            while not queue.empty():
                job = queue.get_nowait()
                record, lines = await runner.run(job, client)
                transcripts.append(*lines)
                store.append(record)
                if on_episode is not None:
                    on_episode(record)

        workers = min(concurrency, len(todo))
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(_client())
                for _ in range(-(-workers // CONNECTIONS_PER_CLIENT))
            ]
            try:
                await asyncio.gather(
                    *(work(clients[i // CONNECTIONS_PER_CLIENT]) for i in range(workers))
                )
            finally:
                runner.close()
    records = [record for record in store.records if record.key in wanted]
    return RolloutResult(
        Path(run_dir),
        run_id,
        records,
        len(todo),
        len(jobs) - len(todo),
        transcripts.path,
        group_summaries(records, groups),
    )


def _client() -> httpx.AsyncClient:
    limits = httpx.Limits(
        max_connections=CONNECTIONS_PER_CLIENT, max_keepalive_connections=CONNECTIONS_PER_CLIENT
    )
    return httpx.AsyncClient(limits=limits, timeout=None)


def _group_indices(protocol: TaskProtocol) -> dict[int, int]:
    """Env seed -> group index: the seed's position in the protocol's seeds."""
    return {seed: index for index, seed in enumerate(protocol.seed_values())}


class _EnvPool:
    """Made envs, reused across episodes: a free list per (env id, kwargs).

    ``reset(seed=...)`` fully determines an episode, so a reused env changes nothing but
    the cost of making it; at most ``concurrency`` envs per config are ever made.
    """

    def __init__(self, factory: EnvFactory) -> None:
        self.factory = factory
        self.free: dict[str, list[Any]] = {}
        self.made: list[Any] = []

    def take(self, job: EpisodeJob) -> Any:
        free = self.free.setdefault(job.env_id + canonical_json(job.env_kwargs), [])
        if free:
            return free.pop()
        env = self.factory(job.env_id, dict(job.env_kwargs))
        self.made.append(env)
        return env

    def give_back(self, job: EpisodeJob, env: Any) -> None:
        self.free[job.env_id + canonical_json(job.env_kwargs)].append(env)

    def discard(self, env: Any) -> None:
        """Close and forget ``env`` (after an infra error it may be broken)."""
        with contextlib.suppress(Exception):
            env.close()
        self.made = [made for made in self.made if made is not env]

    def close(self) -> None:
        for env in self.made:
            with contextlib.suppress(Exception):
                env.close()
        self.made.clear()
        self.free.clear()


@dataclass(frozen=True)
class _EnvTraits:
    """What the runner reads off an env besides reset and step: its prompt, recorded keys.

    An envsuite env made in this process has them; an env behind ``envsuite serve`` does
    not carry them over the wire, so they are read from the same env made here once (they
    depend only on the env's id and kwargs), and the records and transcripts come out as
    in-process. If it cannot be made here (an extra missing on this machine), the env
    class's declared keys and the chat agent's generic prompt are used.
    """

    system_prompt: str
    record_curves: tuple[str, ...]
    record_metrics: tuple[str, ...]

    @classmethod
    def of(cls, env: Any, env_id: str, env_kwargs: dict[str, Any]) -> _EnvTraits:
        raw = getattr(env, "unwrapped", env)
        if hasattr(raw, "record_curves") and hasattr(raw, "record_metrics"):
            return cls._read(raw)
        try:
            local = registry[env_id].make(**env_kwargs)
        except Exception:  # no local copy: the class's declarations
            try:
                return cls._read(registry[env_id].load())
            except Exception:
                return cls(system_prompt_of(env), (), ())
        try:
            return cls._read(local.unwrapped)
        finally:
            with contextlib.suppress(Exception):
                local.close()

    @classmethod
    def _read(cls, raw: Any) -> _EnvTraits:
        return cls(
            system_prompt_of(raw),
            tuple(getattr(raw, "record_curves", ())),
            tuple(getattr(raw, "record_metrics", ())),
        )


class _Runner:
    """Runs one job into (record, transcript lines), retrying infra errors as the runner does."""

    def __init__(
        self,
        model: str,
        options: dict[str, Any],
        env_factory: EnvFactory,
        in_thread: bool,
        layout: GroupLayout,
    ) -> None:
        self.model = model
        self.options = options
        self.pool = _EnvPool(env_factory)
        self.in_thread = in_thread
        self._traits: dict[str, _EnvTraits] = {}
        self.layout = layout

    def close(self) -> None:
        self.pool.close()

    async def _call(self, what: str, function: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        try:
            if self.in_thread:
                return await asyncio.to_thread(function, *args, **kw)
            return function(*args, **kw)
        except Exception as exc:
            raise InfraError(f"{what} raised {type(exc).__name__}: {exc}") from exc

    def traits(self, job: EpisodeJob, env: Any) -> _EnvTraits:
        """The env's prompt and recorded keys, read once per (env id, kwargs)."""
        key = job.env_id + canonical_json(job.env_kwargs)
        if key not in self._traits:
            self._traits[key] = _EnvTraits.of(env, job.env_id, job.env_kwargs)
        return self._traits[key]

    def _agent(self, job: EpisodeJob, env: Any, client: httpx.AsyncClient) -> AsyncChatAgent:
        options = dict(self.options)
        options.setdefault("system_prompt", self.traits(job, env).system_prompt)
        return AsyncChatAgent(self.model, client=client, **options)

    def _rollout_info(self, job: EpisodeJob, sampling: dict[str, Any] | None) -> dict[str, Any]:
        """``agent_info["rollout"]``: group, member and sampling (per chat seat in a game).

        ``sampling`` None: the sampling the agents would have had (for an infra record).
        """
        if sampling is None:
            temperature = self.options.get("temperature")
            if registry[job.env_id].multi_agent:
                seats = _seats(job)
                sampling = {
                    seat: {"seed": _chat_seed(job, seats.index(seat)), "temperature": temperature}
                    for seat in chat_seats(job.agent, seats)
                }
            else:
                sampling = {"seed": _chat_seed(job, None), "temperature": temperature}
        group, member = self.layout.place(job)
        return {"group": group, "member": member, "sampling": sampling}

    async def run(
        self, job: EpisodeJob, client: httpx.AsyncClient
    ) -> tuple[EpisodeRecord, list[dict[str, Any]]]:
        error = ""
        reported: dict[str, Any] = {}
        started = time.perf_counter()
        tries = job.max_infra_retries + 1
        for _ in range(tries):
            try:
                return await self._run_once(job, client)
            except InfraError as exc:
                error = str(exc)
                _add_counts(reported, exc.agent_info or {})
        error = f"{error} (every one of {tries} tries failed)" if tries > 1 else error
        seconds = time.perf_counter() - started
        reported["rollout"] = self._rollout_info(job, None)
        record = _infra_record(job, registry[job.env_id], error, seconds, reported)
        if not registry[job.env_id].multi_agent:
            return record, [transcript_line(record, [], [], [])]
        return record, [
            seat_line(record, SeatPlay(seat, model, Transcript([], [], seat), [], {}))
            for seat, model in chat_seats(job.agent, _seats(job)).items()
        ]

    async def _run_once(
        self, job: EpisodeJob, client: httpx.AsyncClient
    ) -> tuple[EpisodeRecord, list[dict[str, Any]]]:
        env = await self._call("making the env", self.pool.take, job)
        if registry[job.env_id].multi_agent:
            return await self._run_game(job, env, client)
        try:
            agent = self._agent(job, env, client)
        except Exception as exc:  # the agent's constructor refused its options
            self.pool.give_back(job, env)
            raise InfraError(f"making the agent raised {type(exc).__name__}: {exc}") from exc
        try:
            fields, transcript = await self._play(job, env, agent)
        except InfraError as exc:
            exc.agent_info = agent.episode_info()
            self.pool.discard(env)
            raise
        self.pool.give_back(job, env)
        sampling = {"seed": agent.seed, "temperature": agent.temperature}
        fields["agent_info"] = {
            **agent.episode_info(),
            "rollout": self._rollout_info(job, sampling),
        }
        record = job_record(job, env.unwrapped.spec_hash, **fields)
        return record, [
            transcript_line(record, transcript.messages, transcript.rewards, agent.turn_usage)
        ]

    async def _run_game(
        self, job: EpisodeJob, env: Any, client: httpx.AsyncClient
    ) -> tuple[EpisodeRecord, list[dict[str, Any]]]:
        """A multi-agent game (:mod:`envsuite.evaluation.game_rollout`)."""
        traits = self.traits(job, env)
        try:
            fields, plays = await play_game(
                job,
                registry[job.env_id],
                env,
                client,
                self.options,
                traits.system_prompt,
                self.in_thread,
                (traits.record_curves, traits.record_metrics),
            )
        except InfraError:
            self.pool.discard(env)
            raise
        self.pool.give_back(job, env)
        sampling = {play.seat: play.sampling for play in plays}
        fields["agent_info"]["rollout"] = self._rollout_info(job, sampling)
        record = job_record(job, env.unwrapped.spec_hash, **fields)
        return record, [seat_line(record, play) for play in plays]

    async def _play(self, job: EpisodeJob, env: Any, agent: AsyncChatAgent) -> tuple[Any, Any]:
        """The Gymnasium loop of :mod:`envsuite.episodes`, awaiting the agent between steps."""
        started = time.perf_counter()
        traits = self.traits(job, env)
        curve_keys, metric_keys = traits.record_curves, traits.record_metrics
        agent.reset(seed=derive_seed(job.seed, "agent", job.attempt))
        live = LiveTranscripts(env, "gymnasium", agent.image_limits, agent.system_prompt)
        trace: list[dict[str, Any]] = []
        curves: dict[str, list[float]] = {}

        async def policy(nobody: None, observation: Any, info: Mapping[str, Any]) -> Any:
            live.shown(nobody, observation, info)
            try:
                return await agent.act(observation, info)
            except Exception as exc:
                raise InfraError(f"agent.act raised {type(exc).__name__}: {exc}") from exc

        def observer(nobody: None, action: Any, *returned: Any) -> None:
            live.stepped(nobody, action, *returned)
            if job.record_trace:
                trace.append({"action": _stored_action(action), "reward": returned[1]})
            info = returned[-1]
            for key in curve_keys:
                if key in info and info[key] is not None:
                    curves.setdefault(key, []).append(float(info[key]))

        try:
            result = await arun_episode(
                "gymnasium",
                env,
                job.seed,
                policy,
                observer=observer,
                stop=_runner_stop(job, started),
                env_calls_in_thread=self.in_thread,
            )
        except EnvCallError as exc:
            raise InfraError(str(exc)) from exc
        info = result.final_info
        success, score = info.get("success"), info.get("score")
        fields = {
            "episode_return": result.episode_return,
            "success": None if success is None else bool(success),
            "score": None if score is None else float(score),
            "length": result.length,
            "terminated": result.terminated,
            "truncated": result.truncated or _stopped_by_runner(result.stop_reason),
            "stop_reason": result.stop_reason,
            "wall_time_s": time.perf_counter() - started,
            "metrics": {k: float(info[k]) for k in metric_keys if info.get(k) is not None},
            "curves": curves,
            "trace": trace,
        }
        return fields, live.finish(result)[None]


def _seats(job: EpisodeJob) -> list[str]:
    """The seats of ``job``'s game (from the env made here once per id and kwargs)."""
    return list(_possible_agents(job.env_id, canonical_json(job.env_kwargs)))


def _chat_seed(job: EpisodeJob, seat_index: int | None) -> int:
    """The request seed of a chat agent of ``job`` (in seat ``seat_index`` of a game)."""
    if seat_index is None:
        return derive_seed(derive_seed(job.seed, "agent", job.attempt), "chat-agent")
    return derive_seed(derive_seed(job.seed, "agent", job.attempt, seat_index), "chat-agent")
