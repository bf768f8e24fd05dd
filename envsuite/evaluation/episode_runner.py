"""Running one episode job into one :class:`EpisodeRecord`.

An episode is played by the loop of the env's API (:mod:`envsuite.episodes`), chosen from
the spec: a Gymnasium env, a ``parallel`` spec in its Parallel form, an ``aec`` spec in
its AEC form. This module adds what a record needs on top of the loop: agents and their
seeds, the job's step and wall-clock budgets, the action trace, curves, metrics and the
per-agent outcomes (:mod:`envsuite.outcomes`).

Failures are sorted into two kinds. What the agent does wrong inside the env's rules (a
malformed action, a wrong answer) is the env's business: it costs reward and shows in the
record as usual. An exception from the env or the agent (a crashed sandbox, an endpoint that
stays down) is an *infra error*: the episode is retried up to ``max_infra_retries`` times
and, if it keeps failing, recorded with ``infra_error`` set so metrics can leave it out.
Such a record keeps what the agents reported over every try (``agent_info``: requests,
retries, latency, ... added up), so the cost of the failure stays visible.

A trace step stores an action of at most :data:`MAX_TRACE_ACTION_BYTES` of JSON (per agent
for multi-agent envs); :mod:`envsuite.evaluation.trace_actions` says how a bigger one is
stored.
"""

from __future__ import annotations

import contextlib
import functools
import time
import typing
from collections.abc import Callable, Mapping
from typing import Any, cast

from envsuite.agent_protocol import Agent, ReportsActionProbability, ReportsEpisodeInfo
from envsuite.agents.loading import load_agent
from envsuite.episodes import (
    EnvCallError,
    EnvKind,
    EpisodeResult,
    Policy,
    StepObserver,
    StopCheck,
    native_kind,
    run_episode,
)
from envsuite.evaluation.jobs import EpisodeJob
from envsuite.evaluation.trace_actions import MAX_TRACE_ACTION_BYTES as MAX_TRACE_ACTION_BYTES
from envsuite.evaluation.trace_actions import TRACE_CUT_HEAD_CHARS as TRACE_CUT_HEAD_CHARS
from envsuite.evaluation.trace_actions import TraceCollector
from envsuite.evaluation.trace_actions import stored_action as _stored_action
from envsuite.jsonable import canonical_json, to_jsonable
from envsuite.outcomes import agent_outcomes, episode_success
from envsuite.records import EpisodeRecord, nonzero_rewards, trusted_record
from envsuite.registry import EnvSpec, registry
from envsuite.seeding import derive_seed
from envsuite.version import __version__

#: A record's ``stop_reason`` when the job's step budget (:attr:`EpisodeJob.step_budget`)
#: ran out; the value predates the name and stays, so old records keep their meaning.
STEP_BUDGET_SPENT = "step_limit"
#: A record's ``stop_reason`` when the job's wall-clock budget ran out.
WALL_TIME_SPENT = "wall_time_limit"


class InfraError(Exception):
    """The env or the agent failed in a way that is not the agent's decision.

    Attributes:
        agent_info: What the agents reported for the failed try (set by the runner).
    """

    agent_info: dict[str, Any] | None = None


#: Agent strings whose agents keep nothing across episodes that ``reset(seed)`` does not set
#: again (the random agent reseeds its own copy of the action space): :class:`EnvCache`
#: builds one per made env and reuses it, which spares a fast env's episode the cost of
#: building it.
REUSABLE_AGENTS = frozenset({"random"})


class EnvCache:
    """Made envs kept across episodes of one worker, keyed by (id, kwargs).

    ``reset(seed=...)`` fully determines an episode, so reusing an env changes nothing but
    the cost of making it; the same holds for the agents of :data:`REUSABLE_AGENTS`, kept
    with their env (:meth:`agents`).
    """

    def __init__(self) -> None:
        self._envs: dict[str, tuple[EnvSpec, Any]] = {}
        self._agents: dict[str, Any] = {}

    @staticmethod
    def kind(spec: EnvSpec) -> EnvKind:
        """The form :meth:`get` makes an env of ``spec`` in: its native API's."""
        return native_kind(spec.api)

    def get(self, job: EpisodeJob) -> tuple[EnvSpec, Any]:
        """The env for ``job``, made on first use in its native form (:meth:`kind`)."""
        key = job.env_id + canonical_json(job.env_kwargs)
        if key not in self._envs:
            spec = registry[job.env_id]
            options = {"parallel": True} if self.kind(spec) == "parallel" else {}
            self._envs[key] = (spec, spec.make(**job.env_kwargs, **options))
        return self._envs[key]

    def agents(self, job: EpisodeJob, spec: EnvSpec, env: Any) -> Any:
        """The agent(s) of ``job`` for ``env``, the env :meth:`get` made for it.

        Built by :func:`~envsuite.agents.loading.load_agent` for each episode, or once per
        env for :data:`REUSABLE_AGENTS`.
        """
        if job.agent not in REUSABLE_AGENTS:
            return load_agent(job.agent, spec, env, job.agent_options)
        key = job.env_id + canonical_json(job.env_kwargs)
        agents = self._agents.get(key)
        if agents is None:
            agents = self._agents[key] = load_agent(job.agent, spec, env, job.agent_options)
        return agents

    def discard(self, job: EpisodeJob) -> None:
        """Close and forget the env of ``job`` (after an infra error it may be broken)."""
        self._agents.pop(job.env_id + canonical_json(job.env_kwargs), None)
        entry = self._envs.pop(job.env_id + canonical_json(job.env_kwargs), None)
        if entry is not None:
            # A broken env may fail to close too; it is dropped either way.
            with contextlib.suppress(Exception):
                entry[1].close()

    def close(self) -> None:
        """Close every env."""
        for _, env in self._envs.values():
            with contextlib.suppress(Exception):
                env.close()
        self._envs.clear()
        self._agents.clear()


def run_job(job: EpisodeJob, cache: EnvCache | None = None) -> EpisodeRecord:
    """Run ``job``, retrying infra errors, and return its record."""
    own_cache = cache is None
    cache = cache or EnvCache()
    error = ""
    reported: dict[str, Any] = {}
    started = time.perf_counter()
    tries = job.max_infra_retries + 1
    try:
        for _ in range(tries):
            try:
                return _run_once(job, cache)
            except InfraError as exc:
                error = str(exc)
                _add_counts(reported, exc.agent_info or {})
                cache.discard(job)
        error = f"{error} (every one of {tries} tries failed)" if tries > 1 else error
        seconds = time.perf_counter() - started
        return _infra_record(job, registry[job.env_id], error, seconds, reported)
    finally:
        if own_cache:
            cache.close()


def _guard(what: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, with any exception turned into an :class:`InfraError`."""
    try:
        return call(*args, **kwargs)
    except Exception as exc:
        raise InfraError(f"{what} raised {type(exc).__name__}: {exc}") from exc


def _add_counts(total: dict[str, Any], report: Mapping[str, Any]) -> None:
    """Add ``report``'s numbers into ``total`` (nested per agent); other values: the last."""
    for key, value in report.items():
        if isinstance(value, Mapping):
            inner = total.get(key)
            if not isinstance(inner, dict):
                inner = total[key] = {}
            _add_counts(inner, value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            before = total.get(key, 0)
            total[key] = (before if isinstance(before, int | float) else 0) + value
        else:
            total[key] = value


def job_record(job: EpisodeJob, spec_hash: str, **fields: Any) -> EpisodeRecord:
    """The record of ``job``'s episode: the job's identity plus the episode's ``fields``."""
    return EpisodeRecord(
        run_id=job.run_id,
        task_id=job.task_id,
        env_id=job.env_id,
        env_kwargs=job.env_kwargs,
        spec_hash=spec_hash,
        envsuite_version=__version__,
        agent_id=job.agent,
        seed=job.seed,
        attempt=job.attempt,
        **fields,
    )


def _infra_record(
    job: EpisodeJob, spec: EnvSpec, error: str, seconds: float, agent_info: dict[str, Any]
) -> EpisodeRecord:
    zero: float | dict[str, float] = 0.0
    return job_record(
        job,
        spec.hash_for(job.env_kwargs),
        episode_return=zero,
        success=None,
        length=0,
        terminated=False,
        truncated=False,
        stop_reason="infra_error",
        wall_time_s=seconds,
        infra_error=error,
        agent_info=agent_info,
    )


@functools.cache
def _protocol_members(protocol: type) -> tuple[tuple[str, bool], ...]:
    """A runtime protocol's members, each with whether the protocol's is callable."""
    names = getattr(protocol, "__protocol_attrs__", None)
    if names is None:  # Python < 3.12 keeps them in a private helper
        names = typing._get_protocol_attrs(protocol)  # type: ignore[attr-defined]
    return tuple((name, callable(getattr(protocol, name, None))) for name in sorted(names))


def _provides(agent: Any, protocol: type) -> bool:
    """``isinstance(agent, protocol)`` for a runtime protocol, without its cost per call.

    The check is the one ``typing`` makes (every member present, callable members not
    None), with the members listed once per protocol instead of at every call, which took
    tens of microseconds per check and several checks per episode.
    """
    for name, is_method in _protocol_members(protocol):
        if not hasattr(agent, name):
            return protocol in type(agent).__mro__
        if is_method and getattr(agent, name) is None:
            return protocol in type(agent).__mro__
    return True


def _probability_of(agent: Agent) -> Callable[[], float | None]:
    """Reads the probability the agent gave its last action (None if it reports none)."""
    if not _provides(agent, ReportsActionProbability):
        return _no_probability
    report = cast(ReportsActionProbability, agent).last_action_probability

    def probability() -> float | None:
        value = report()
        return None if value is None else float(value)

    return probability


def _no_probability() -> None:
    return None


def _run_once(job: EpisodeJob, cache: EnvCache) -> EpisodeRecord:
    spec, env = _guard("making the env", cache.get, job)
    agents = cache.agents(job, spec, env)
    started = time.perf_counter()
    try:
        if spec.multi_agent:
            assert isinstance(agents, Mapping)
            outcome = run_multi_agent_episode(EnvCache.kind(spec), job, env, agents, started)
        else:
            assert _provides(agents, Agent)
            outcome = run_single_agent_episode(job, env, cast(Agent, agents), started)
    except InfraError as exc:
        exc.agent_info = _failed_try_info(agents)
        raise
    seconds = time.perf_counter() - started
    if spec.multi_agent:
        return job_record(job, env.unwrapped.spec_hash, wall_time_s=seconds, **outcome)
    return _trusted_job_record(job, env.unwrapped.spec_hash, seconds, outcome)


def _trusted_job_record(
    job: EpisodeJob, spec_hash: str, seconds: float, outcome: dict[str, Any]
) -> EpisodeRecord:
    """:func:`job_record` of a single-agent episode, built without validating it again.

    The values come from the job (validated) and from :func:`run_single_agent_episode`,
    which gives each field the type validation would (see
    :func:`~envsuite.records.trusted_record`); ``env_kwargs`` and ``agent_info`` are made
    JSON here, as the record's validator would.
    """
    return trusted_record(
        {
            "run_id": job.run_id,
            "task_id": job.task_id,
            "env_id": job.env_id,
            "env_kwargs": to_jsonable(job.env_kwargs),
            "spec_hash": spec_hash,
            "envsuite_version": __version__,
            "agent_id": job.agent,
            "seed": job.seed,
            "attempt": job.attempt,
            **outcome,
            "agent_info": to_jsonable(outcome["agent_info"]),
            "wall_time_s": seconds,
        }
    )


def _runner_stop(job: EpisodeJob, started: float) -> StopCheck | None:
    """The stop check for the job's step budget and wall clock (None when it has neither)."""
    budget, seconds = job.step_budget, job.wall_time_s
    if budget is None and seconds is None:
        return None

    def stop(steps: int) -> str | None:
        if budget is not None and steps >= budget:
            return STEP_BUDGET_SPENT
        if seconds is not None and time.perf_counter() - started > seconds:
            return WALL_TIME_SPENT
        return None

    return stop


def _failed_try_info(agents: Any) -> dict[str, Any]:
    """What the agents of a failed try reported (nothing from an agent whose report fails)."""
    named = agents if isinstance(agents, Mapping) else {"agent": agents}
    try:
        info = _agent_info(named)
    except Exception:  # a broken agent's report must not hide the infra error itself
        return {}
    return info if isinstance(agents, Mapping) else info.get("agent", {})


def _agent_info(agents: Mapping[str, Agent]) -> dict[str, Any]:
    info: dict[str, Any] = {}
    for name, agent in agents.items():
        if _provides(agent, ReportsEpisodeInfo):
            info[name] = cast(ReportsEpisodeInfo, agent).episode_info()
    return info


def _acting_policy(agents: Mapping[str, Agent]) -> Policy:
    """The loop's policy: each agent's ``act``, any exception an :class:`InfraError`.

    For a single agent (named ``agent``) the name the loop passes (None) is not looked up.
    """
    if len(agents) == 1 and "agent" in agents:
        act = agents["agent"].act

        def single(_: Any, observation: Any, info: Any) -> Any:
            try:
                return act(observation, info)
            except Exception as exc:
                raise InfraError(f"agent.act raised {type(exc).__name__}: {exc}") from exc

        return single
    acts = {name: agent.act for name, agent in agents.items()}

    def each(name: str, observation: Any, info: Any) -> Any:
        try:
            return acts[name](observation, info)
        except Exception as exc:
            raise InfraError(f"{name}.act raised {type(exc).__name__}: {exc}") from exc

    return each


def _play(
    kind: EnvKind,
    env: Any,
    job: EpisodeJob,
    policy: Policy,
    observer: StepObserver,
    started: float,
) -> EpisodeResult:
    """Run the loop of ``kind``, the env's exceptions raised as :class:`InfraError`."""
    try:
        return run_episode(
            kind, env, job.seed, policy, observer=observer, stop=_runner_stop(job, started)
        )
    except EnvCallError as exc:
        raise InfraError(str(exc)) from exc


def _stopped_by_runner(reason: str) -> bool:
    return reason in (STEP_BUDGET_SPENT, WALL_TIME_SPENT)


def run_single_agent_episode(
    job: EpisodeJob, env: Any, agent: Agent, started: float
) -> dict[str, Any]:
    """Play one episode of a Gymnasium env; return the record fields it produced.

    Exceptions from the env or the agent are raised as :class:`InfraError`. ``started``
    (``time.perf_counter()``) is when the job's wall-clock limit started counting.
    """
    raw = env.unwrapped
    curve_keys: tuple[str, ...] = tuple(getattr(raw, "record_curves", ()))
    metric_keys: tuple[str, ...] = tuple(getattr(raw, "record_metrics", ()))
    _guard("agent.reset", agent.reset, seed=derive_seed(job.seed, "agent", job.attempt))
    policy = _acting_policy({"agent": agent})
    probability = _probability_of(agent)
    reported = None if probability is _no_probability else probability
    collector = TraceCollector(job.record_trace, reported, curve_keys)
    result = _play("gymnasium", env, job, policy, collector.observer(), started)
    info = result.final_info
    metrics = {key: float(info[key]) for key in metric_keys if info.get(key) is not None}
    success = info.get("success")
    score = info.get("score")
    report = _agent_info({"agent": agent}).get("agent", {})
    return {
        "episode_return": result.episode_return,
        "success": None if success is None else bool(success),
        "score": None if score is None else float(score),
        "length": result.length,
        "terminated": result.terminated,
        "truncated": result.truncated or _stopped_by_runner(result.stop_reason),
        "stop_reason": result.stop_reason,
        "metrics": metrics,
        "curves": collector.curves,
        "agent_info": report,
        "trace": collector.steps(),
    }


def run_parallel_episode(
    job: EpisodeJob, env: Any, agents: Mapping[str, Agent], started: float
) -> dict[str, Any]:
    """Play one episode of a PettingZoo Parallel env; return the record fields it produced.

    As :func:`run_single_agent_episode`, with per-agent returns, metrics, curves and
    outcomes (``agents``); the env-level ``success`` is the env's ``episode_success``.
    """
    return run_multi_agent_episode("parallel", job, env, agents, started)


def run_aec_episode(
    job: EpisodeJob, env: Any, agents: Mapping[str, Agent], started: float
) -> dict[str, Any]:
    """Play one episode of a PettingZoo AEC env; return the record fields it produced.

    As :func:`run_parallel_episode`; a trace step is one agent's action
    (``{"action": {agent: action}, "reward": {every agent: reward}}``) and the length
    counts agent actions.
    """
    return run_multi_agent_episode("aec", job, env, agents, started)


def run_multi_agent_episode(
    kind: EnvKind, job: EpisodeJob, env: Any, agents: Mapping[str, Agent], started: float
) -> dict[str, Any]:
    """Play one episode of a PettingZoo env in the form ``kind`` names (see above)."""
    episode = MultiAgentEpisode(job, env, agents)
    result = _play(kind, env, job, _acting_policy(agents), episode.observer, started)
    return episode.fields(result)


class MultiAgentEpisode:
    """The record of one PettingZoo episode, whatever drives its loop.

    Made before the loop (it resets each agent with its seat's seed, in seat order), it
    gives the loop its :meth:`observer` (trace, curves) and turns the loop's result into
    the record's fields (:meth:`fields`). The runner drives the loop with plain agents;
    a rollout (:mod:`envsuite.evaluation.rollout`) awaits chat agents in it, and both
    records come out the same.

    Args:
        job: The episode's job.
        env: The made env (its raw env names the curves and metrics to record).
        agents: Seat -> agent, in the order their seeds are derived (``possible_agents``).
        record_keys: The info keys recorded as (curves, metrics); None: the raw env's
            ``record_curves`` and ``record_metrics``.

    Raises:
        InfraError: an agent's ``reset`` raised.
    """

    def __init__(
        self,
        job: EpisodeJob,
        env: Any,
        agents: Mapping[str, Agent],
        record_keys: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    ) -> None:
        raw = env.unwrapped
        self.env = env
        self.agents = agents
        if record_keys is None:
            record_keys = (
                tuple(getattr(raw, "record_curves", ())),
                tuple(getattr(raw, "record_metrics", ())),
            )
        self.curve_keys, self.metric_keys = record_keys
        for index, (name, agent) in enumerate(agents.items()):
            seed = derive_seed(job.seed, "agent", job.attempt, index)
            _guard(f"{name}.reset", agent.reset, seed=seed)
        self.probabilities = {name: _probability_of(agent) for name, agent in agents.items()}
        self.trace: list[dict[str, Any]] = []
        self.curves: dict[str, list[float]] = {}
        self.record_trace = job.record_trace

    def observer(
        self,
        actor: str | None,
        action: Any,
        observations: Any,
        rewards: Any,
        terminations: Any,
        truncations: Any,
        infos: Any,
    ) -> None:
        """The loop's :data:`~envsuite.episodes.StepObserver`: trace step and curves."""
        actions = action if actor is None else {actor: action}
        if self.record_trace:
            probabilities = self.probabilities
            reported = {name: p for name in actions if (p := probabilities[name]()) is not None}
            self.trace.append(
                {
                    "action": {name: _stored_action(one) for name, one in actions.items()},
                    "reward": nonzero_rewards(rewards),
                    "probability": reported or None,
                }
            )
        for name, agent_info in infos.items():
            for key in self.curve_keys:
                if key in agent_info and agent_info[key] is not None:
                    self.curves.setdefault(f"{name}/{key}", []).append(float(agent_info[key]))

    def fields(self, result: EpisodeResult) -> dict[str, Any]:
        """The record's fields for the finished loop's ``result``."""
        final_infos: dict[str, Any] = result.final_info
        metrics: dict[str, float] = {}
        for name, agent_info in final_infos.items():
            for key in self.metric_keys:
                if agent_info.get(key) is not None:
                    metrics[f"{name}/{key}"] = float(agent_info[key])
            if agent_info.get("success") is not None:
                metrics[f"{name}/success"] = float(bool(agent_info["success"]))
        returns: dict[str, float] = result.episode_return
        return {
            "episode_return": returns,
            "success": episode_success(self.env, final_infos),
            "score": None,
            "length": result.length,
            "terminated": result.terminated,
            "truncated": result.truncated or _stopped_by_runner(result.stop_reason),
            "stop_reason": result.stop_reason,
            "metrics": metrics,
            "curves": self.curves,
            "agent_info": _agent_info(self.agents),
            "trace": self.trace,
            "agents": agent_outcomes(result.agents, returns, final_infos),
        }
