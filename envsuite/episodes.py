"""One episode loop per API: Gymnasium, PettingZoo Parallel and PettingZoo AEC.

Every caller that plays an episode uses these loops: the runner, the conformance kit,
``envsuite play``, policy-selection replay and leaderboard replay. What differs between the
callers is passed in:

- a *policy* ``(agent, observation, info) -> action`` (``agent`` is None for Gymnasium
  envs) that chooses each action; it may raise :class:`StopEpisode` to end the episode
  early (a human closing stdin, a replay running out of recorded actions);
- an optional *observer* ``(agent, action, observation, reward, terminated, truncated,
  info)`` called after each step, for traces, curves, probabilities, checks or printing
  (see :data:`StepObserver` for what it gets);
- an optional *stop check* ``(steps taken) -> reason or None`` asked before each action,
  for step budgets and wall clocks.

Each loop is a generator underneath (:func:`episode_steps`): it yields every decision and
is sent the action, so :func:`run_episode` (a plain policy) and :func:`arun_episode` (a
coroutine policy, many episodes on one event loop) play the very same loop.

The env kind is the caller's to say (``spec.api``, and whether the Parallel form was
made): :func:`run_episode` takes it as an argument and never probes the env.

Step counts have two words, one meaning each. An env's *step limit* (its spec's
``max_episode_steps``, or an env argument such as SWE's ``step_limit``) is enforced inside
the env, which then reports ``truncated``. A caller's *step budget* (the runner's
``EpisodeJob.step_budget``, set by a task protocol's ``max_steps`` key or ``envsuite eval
--step-budget``) is a stop check here that ends the loop from outside; records name such a
stop ``"step_limit"``, a value kept so that old records keep their meaning.

Replays (leaderboard replay, chat transcripts of a record) feed recorded actions as the
policy; :func:`from_json_action` turns a recorded JSON action back into what the action
space expects.

A :class:`StopEpisode` raised by the policy or the observer ends the loop; any other
exception of theirs passes through unchanged, while an exception from the env's own
``reset``, ``step`` or ``last`` is raised as :class:`EnvCallError` (the original chained),
so a caller can tell the env's failure from its own.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from gymnasium import spaces

#: Which loop drives an env: a Gymnasium env, or a PettingZoo env in one of its two forms.
EnvKind = Literal["gymnasium", "parallel", "aec"]

#: Chooses an action: ``(agent name or None, observation, info) -> action``.
Policy = Callable[[Any, Any, Mapping[str, Any]], Any]

#: A decision the loop asks for: ``(agent name or None, observation, info)``.
Decision = tuple[Any, Any, Mapping[str, Any]]


class JointDecision(tuple[Decision, ...]):
    """The decisions of every live agent of a Parallel step, answered with one dict.

    The loop is sent ``{agent: action}``; :func:`run_episode` asks the policy for each in
    order, :func:`arun_episode` awaits them all at once.
    """


#: The loop as a generator (:func:`episode_steps`): yields decisions, is sent actions.
EpisodeSteps = Generator[Decision | JointDecision, Any, "EpisodeResult"]

#: Chooses an action as a coroutine (:func:`arun_episode`).
AsyncPolicy = Callable[[Any, Any, Mapping[str, Any]], Awaitable[Any]]

#: Sees each step after it happened:
#: ``(agent, action, observation, reward, terminated, truncated, info)``, as the step
#: returned them. Gymnasium: agent None, the action, and the step's five values (the reward
#: as a float). Parallel: agent None and per-agent dicts of actions and of the step's five
#: values. AEC: the agent that acted, its action, observation None (an AEC env gives each
#: agent its observation through ``last()``, which the policy sees), and the per-agent
#: dicts ``env.rewards``, ``env.terminations``, ``env.truncations`` and ``env.infos`` after
#: the step (the env's own dicts: copy what you keep).
StepObserver = Callable[[Any, Any, Any, Any, Any, Any, Any], None]

#: Asked before each action with the number of steps taken: a reason to stop, or None.
StopCheck = Callable[[int], "str | None"]

#: Stop reasons the loops give themselves when the env ends the episode.
TERMINATED = "terminated"
TRUNCATED = "truncated"


class StopEpisode(Exception):
    """Raised by a policy or observer to end the episode now, with ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class EnvCallError(Exception):
    """The env's ``reset``, ``step`` or ``last`` raised; the original is the ``__cause__``.

    Attributes:
        call: ``"env.reset"``, ``"env.step"`` or ``"env.last"``.
    """

    def __init__(self, call: str, error: BaseException) -> None:
        super().__init__(f"{call} raised {type(error).__name__}: {error}")
        self.call = call


@dataclass
class EpisodeResult:
    """What an episode produced.

    Attributes:
        episode_return: Sum of rewards: a float (Gymnasium) or agent -> float (every
            possible agent, PettingZoo).
        final_info: The last info (Gymnasium) or agent -> its last info (PettingZoo).
        final_observation: The last observation (Gymnasium) or agent -> its last one.
        length: Steps taken: env steps for Gymnasium and Parallel envs, agent actions for
            AEC envs (the steps PettingZoo's rules give a finished agent, with ``None``,
            are not counted).
        terminated: Whether the env reported a termination (any agent's, PettingZoo).
        truncated: Whether the env reported a truncation (any agent's, PettingZoo); a stop
            by the caller's check is not a truncation by the env.
        stop_reason: :data:`TERMINATED` or :data:`TRUNCATED` when the env ended the
            episode, else the reason the stop check or a :class:`StopEpisode` gave.
        agents: The env's ``possible_agents`` in order (PettingZoo; empty for Gymnasium).
        reset_observation: What ``reset`` returned (Gymnasium, Parallel; None for AEC,
            whose ``reset`` returns nothing).
        reset_info: The info ``reset`` returned (as ``reset_observation``).
    """

    episode_return: Any
    final_info: Any
    final_observation: Any
    length: int
    terminated: bool
    truncated: bool
    stop_reason: str
    agents: list[str] = field(default_factory=list)
    reset_observation: Any = None
    reset_info: Any = None


def run_episode(
    kind: EnvKind,
    env: Any,
    seed: int | None,
    policy: Policy,
    *,
    observer: StepObserver | None = None,
    stop: StopCheck | None = None,
) -> EpisodeResult:
    """Play one episode of ``env`` with the loop of ``kind``.

    Args:
        kind: ``"gymnasium"``, ``"parallel"`` (a PettingZoo ``ParallelEnv``) or ``"aec"``
            (a PettingZoo ``AECEnv``); from the spec, never guessed from the env.
        env: The made env, in the form ``kind`` names.
        seed: The seed for ``env.reset``.
        policy: Chooses each action (see the module docstring).
        observer: Called after each step (see :data:`StepObserver`).
        stop: Asked before each action (see :data:`StopCheck`).

    Raises:
        EnvCallError: the env raised. Exceptions of the policy and observer other than
            :class:`StopEpisode` pass through.
    """
    steps = episode_steps(kind, env, seed, observer=observer, stop=stop)
    try:
        decision = next(steps)
        while True:
            try:
                # The loops yield exact JointDecisions; a type test costs less than isinstance.
                if type(decision) is JointDecision:
                    action = {one[0]: policy(*one) for one in decision}
                else:
                    action = policy(*decision)
            except StopEpisode as signal:
                decision = steps.throw(signal)
            else:
                decision = steps.send(action)
    except StopIteration as done:
        result: EpisodeResult = done.value
        return result


async def arun_episode(
    kind: EnvKind,
    env: Any,
    seed: int | None,
    policy: AsyncPolicy,
    *,
    observer: StepObserver | None = None,
    stop: StopCheck | None = None,
    env_calls_in_thread: bool = False,
) -> EpisodeResult:
    """:func:`run_episode` for a coroutine policy: the same loop, awaiting each action.

    Many episodes can then share one event loop, each waiting for its actions (a model
    behind HTTP) while the others step. The agents of a Parallel step are asked at once
    (their coroutines started in the order of ``env.agents``); an exception from any of
    them is raised once all have answered, the first in that order. With
    ``env_calls_in_thread`` the loop's env calls (and the observer) run in a worker thread
    between two decisions, for envs whose calls block on the network.
    """
    # Imported here: only coroutine policies need it, and the synchronous loop's users (the
    # runner behind ``envsuite eval``) would pay tens of milliseconds to import it.
    import asyncio

    steps = episode_steps(kind, env, seed, observer=observer, stop=stop)

    async def decide(decision: Decision | JointDecision) -> Any:
        if not isinstance(decision, JointDecision):
            return await policy(*decision)
        answers = await asyncio.gather(*(policy(*one) for one in decision), return_exceptions=True)
        for answer in answers:
            if isinstance(answer, BaseException):
                raise answer
        return {one[0]: answer for one, answer in zip(decision, answers, strict=True)}

    def resume(call: Callable[..., Any], *args: Any) -> Decision | JointDecision | EpisodeResult:
        # A StopIteration may not cross a coroutine (PEP 479): the result is returned.
        try:
            return call(*args)
        except StopIteration as done:
            result: EpisodeResult = done.value
            return result

    async def advance(
        call: Callable[..., Any], *args: Any
    ) -> Decision | JointDecision | EpisodeResult:
        if env_calls_in_thread:
            return await asyncio.to_thread(resume, call, *args)
        return resume(call, *args)

    step = await advance(next, steps)
    while not isinstance(step, EpisodeResult):
        try:
            action = await decide(step)
        except StopEpisode as signal:
            step = await advance(steps.throw, signal)
        else:
            step = await advance(steps.send, action)
    return step


def episode_steps(
    kind: EnvKind,
    env: Any,
    seed: int | None,
    *,
    observer: StepObserver | None = None,
    stop: StopCheck | None = None,
) -> EpisodeSteps:
    """The loop of ``kind`` as a generator, for callers that choose actions themselves.

    It yields each decision to make, ``(agent, observation, info)`` as a policy is called,
    takes the action through ``send`` (or a :class:`StopEpisode` through ``throw``) and
    returns the :class:`EpisodeResult` (as ``StopIteration.value``).
    :func:`run_episode` and :func:`arun_episode` drive it.

    Raises:
        ValueError: an unknown ``kind``.
    """
    loop = _LOOPS.get(kind)
    if loop is None:
        raise ValueError(f"kind must be one of {sorted(_LOOPS)}, got {kind!r}")
    return loop(env, seed, observer=observer, stop=stop)


def env_kind(api: str, parallel: bool) -> EnvKind:
    """The loop for an env made from a spec of ``api`` (``parallel``: its Parallel form)."""
    if api == "gymnasium":
        return "gymnasium"
    if api not in ("aec", "parallel"):
        raise ValueError(f"unknown api {api!r}")
    return "parallel" if parallel else "aec"


def native_kind(api: str) -> EnvKind:
    """The loop for an env of ``api`` made in its native form (how the runner makes it)."""
    return env_kind(api, parallel=api == "parallel")


def from_json_action(value: Any, space: Any) -> Any:
    """Turn a JSON action back into the type ``space`` expects (unchanged when unsure).

    Bad actions are the env's business (it penalises them), so a value that does not fit the
    space is passed on as it was recorded, exactly as the agent sent it.
    """
    if isinstance(space, spaces.Box | spaces.MultiDiscrete | spaces.MultiBinary):
        try:
            array = np.asarray(value, dtype=space.dtype)
        except (TypeError, ValueError):
            return value
        return array.reshape(space.shape) if array.size == int(np.prod(space.shape)) else array
    if isinstance(space, spaces.Discrete):
        if isinstance(value, int) and not isinstance(value, bool):
            return np.int64(value)
        return value
    if isinstance(space, spaces.Tuple) and isinstance(value, list):
        if len(value) == len(space.spaces):
            return tuple(from_json_action(v, s) for v, s in zip(value, space.spaces, strict=True))
        return value
    if isinstance(space, spaces.Dict) and isinstance(value, dict):
        return {
            k: from_json_action(v, space[k]) if k in space.spaces else v for k, v in value.items()
        }
    return value


def _reset(env: Any, seed: int | None) -> Any:
    try:
        return env.reset(seed=seed)
    except Exception as exc:
        raise EnvCallError("env.reset", exc) from exc


def _gymnasium_steps(
    env: Any,
    seed: int | None,
    *,
    observer: StepObserver | None = None,
    stop: StopCheck | None = None,
) -> EpisodeSteps:
    """The Gymnasium loop: reset, then act and step until terminated or truncated."""
    observation, info = _reset(env, seed)
    reset_observation, reset_info = observation, info
    total, length = 0.0, 0
    terminated = truncated = False
    reason: str | None = None
    try:
        while not (terminated or truncated):
            if stop is not None:
                reason = stop(length)
                if reason is not None:
                    break
            action = yield None, observation, info
            try:
                observation, reward, terminated, truncated, info = env.step(action)
            except Exception as exc:
                raise EnvCallError("env.step", exc) from exc
            if type(reward) is not float:  # converted only when not already exact
                reward = float(reward)
            total += reward
            length += 1
            if observer is not None:
                observer(None, action, observation, reward, terminated, truncated, info)
    except StopEpisode as signal:
        reason = signal.reason
    return EpisodeResult(
        episode_return=total,
        final_info=info,
        final_observation=observation,
        length=length,
        terminated=bool(terminated),
        truncated=bool(truncated),
        stop_reason=reason or (TERMINATED if terminated else TRUNCATED),
        reset_observation=reset_observation,
        reset_info=reset_info,
    )


def _parallel_steps(
    env: Any,
    seed: int | None,
    *,
    observer: StepObserver | None = None,
    stop: StopCheck | None = None,
) -> EpisodeSteps:
    """The PettingZoo Parallel loop: every live agent acts each step, until none is left."""
    observations, infos = _reset(env, seed)
    reset_observations, reset_infos = observations, infos
    agents = list(env.possible_agents)
    totals = dict.fromkeys(agents, 0.0)
    final_infos: dict[str, Any] = dict(infos)
    final_observations: dict[str, Any] = dict(observations)
    length = 0
    terminated = truncated = False
    reason: str | None = None
    try:
        while env.agents:
            if stop is not None:
                reason = stop(length)
                if reason is not None:
                    break
            joint = ((name, observations[name], infos.get(name, {})) for name in env.agents)
            actions = yield JointDecision(joint)
            try:
                observations, rewards, terminations, truncations, infos = env.step(actions)
            except Exception as exc:
                raise EnvCallError("env.step", exc) from exc
            length += 1
            for name, reward in rewards.items():
                totals[name] += float(reward)
            final_infos.update(infos)
            final_observations.update(observations)
            terminated = terminated or any(terminations.values())
            truncated = truncated or any(truncations.values())
            if observer is not None:
                observer(None, actions, observations, rewards, terminations, truncations, infos)
    except StopEpisode as signal:
        reason = signal.reason
    return EpisodeResult(
        episode_return=totals,
        final_info=final_infos,
        final_observation=final_observations,
        length=length,
        terminated=terminated,
        truncated=truncated,
        stop_reason=reason or (TERMINATED if terminated else TRUNCATED),
        agents=agents,
        reset_observation=reset_observations,
        reset_info=reset_infos,
    )


def _aec_steps(
    env: Any,
    seed: int | None,
    *,
    observer: StepObserver | None = None,
    stop: StopCheck | None = None,
) -> EpisodeSteps:
    """The PettingZoo AEC loop: ``agent_iter``, ``last``, ``step``, one agent at a time.

    Following PettingZoo's rules, an agent whose ``last()`` says terminated or truncated is
    stepped with ``None`` (its "dead step"), which is neither shown to the policy nor
    counted in the length; a dead step that leaves the agent in ``env.agents`` breaks those
    rules and is raised as an :class:`EnvCallError` (the loop would otherwise never end).
    Rewards are read from ``env.rewards`` after each agent's action (PettingZoo clears them
    on every step), so each agent's return is the sum of what every action, its own or
    another's, gave it.
    """
    _reset(env, seed)
    agents = list(env.possible_agents)
    totals = dict.fromkeys(agents, 0.0)
    final_infos: dict[str, Any] = {}
    final_observations: dict[str, Any] = {}
    length = 0
    terminated = truncated = False
    reason: str | None = None
    try:
        for agent in env.agent_iter():
            try:
                observation, _, done, cut, info = env.last()
            except Exception as exc:
                raise EnvCallError("env.last", exc) from exc
            final_infos[agent] = info
            final_observations[agent] = observation
            if done or cut:
                terminated = terminated or bool(done)
                truncated = truncated or bool(cut)
                try:
                    env.step(None)
                except Exception as exc:
                    raise EnvCallError("env.step", exc) from exc
                if agent in env.agents:  # else agent_iter would offer it again, forever
                    left = RuntimeError(f"the dead step (step(None)) left {agent!r} in env.agents")
                    raise EnvCallError("env.step", left) from left
                continue
            if stop is not None:
                reason = stop(length)
                if reason is not None:
                    break
            action = yield agent, observation, info
            try:
                env.step(action)
            except Exception as exc:
                raise EnvCallError("env.step", exc) from exc
            length += 1
            rewards = env.rewards
            for name, reward in rewards.items():
                totals[name] += float(reward)
            final_infos.update(env.infos)
            if observer is not None:
                observer(agent, action, None, rewards, env.terminations, env.truncations, env.infos)
    except StopEpisode as signal:
        reason = signal.reason
    return EpisodeResult(
        episode_return=totals,
        final_info=final_infos,
        final_observation=final_observations,
        length=length,
        terminated=terminated,
        truncated=truncated,
        stop_reason=reason or (TERMINATED if terminated else TRUNCATED),
        agents=agents,
    )


_LOOPS: dict[str, Callable[..., EpisodeSteps]] = {
    "gymnasium": _gymnasium_steps,
    "parallel": _parallel_steps,
    "aec": _aec_steps,
}


#: The Gymnasium loop, ``(env, seed, policy, *, observer, stop)``: reset, then act and step
#: until terminated or truncated.
run_gymnasium_episode = functools.partial(run_episode, "gymnasium")
#: The PettingZoo Parallel loop: every live agent acts each step, until none is left.
run_parallel_episode = functools.partial(run_episode, "parallel")
#: The PettingZoo AEC loop, one agent at a time (the rules are :func:`_aec_steps`').
run_aec_episode = functools.partial(run_episode, "aec")
