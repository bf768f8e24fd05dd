"""Chat transcripts of episodes: the messages a multi-turn trainer consumes.

A transcript is one agent's view of an episode as OpenAI chat messages:

- ``system``: the env's own prompt text where it declares one (a non-empty string
  attribute ``system_prompt``, or ``guidance``, on the unwrapped env), else the chat
  agent's :data:`~envsuite.agents.chat_agent.SYSTEM_PROMPT`;
- ``user``: one per observation the agent receives, built exactly as the chat agent builds
  its prompts (:func:`~envsuite.agents.image_parts.observation_content`: the text, and a
  last ``Valid actions: ...`` line when the env lists legal actions). The observation after
  the last action is included, so a finished episode's transcript ends with a user message
  holding the env's last words;
- ``assistant``: one per action the agent took, its text as sent (a non-string action as
  compact JSON).

Per-turn rewards are kept beside the messages, never inside them (an OpenAI message has no
reward field): ``rewards[i]`` is the reward that followed the ``i``-th assistant message
(for AEC games, everything the agent received between that action and its next turn). A
reward an agent receives before its first action belongs to no turn of its own and is left
out, so ``sum(rewards)`` can differ from the agent's return by exactly that.

Messages are only ever appended: the transcript after turn ``t`` is a prefix of the one
after turn ``t + 1``, which multi-turn trainers rely on. Nothing is truncated or rewritten
(a chat agent may trim the history it *sends*; the transcript keeps all of it).

Two ways in:

- **live**: feed a :class:`GymnasiumTranscriber`, :class:`ParallelTranscriber` or
  :class:`AECTranscriber` what ``reset`` and ``step`` return (or wrap a Gymnasium env in
  :class:`TranscriptWrapper`);
- **from a record**: :func:`transcripts_from_record` makes the env from the record's
  ``env_id`` and ``env_kwargs``, resets it with the record's seed and steps the recorded
  actions, so the observations come back exactly (envs are deterministic given the seed
  and the actions). Every replayed reward must equal the recorded one. Multi-agent
  episodes give one transcript per agent.

A replay runs in the shared episode loop of the env's kind (:mod:`envsuite.episodes`, the
runner's own): a policy gives the recorded actions and an observer feeds the transcriber.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium

from envsuite.agents.chat_agent import SYSTEM_PROMPT
from envsuite.agents.image_parts import Content, ImageLimits, observation_content
from envsuite.episodes import (
    EnvCallError,
    EnvKind,
    EpisodeResult,
    StopEpisode,
    from_json_action,
    native_kind,
    run_episode,
)
from envsuite.errors import EnvsuiteError
from envsuite.jsonable import canonical_json, to_jsonable
from envsuite.records import EpisodeRecord, step_rewards
from envsuite.registry import EnvSpec, registry

#: Env attributes read, in order, for the system prompt (the first non-empty string wins).
SYSTEM_PROMPT_ATTRIBUTES = ("system_prompt", "guidance")


class TranscriptError(EnvsuiteError, ValueError):
    """A record that cannot be turned into a transcript (no trace, a cut action, ...)."""


@dataclasses.dataclass
class Transcript:
    """One agent's chat transcript of one episode.

    Attributes:
        messages: OpenAI chat messages: system, then user / assistant turns.
        rewards: ``rewards[i]`` follows the ``i``-th assistant message.
        agent: The agent's name (None for single-agent envs).
    """

    messages: list[dict[str, Any]]
    rewards: list[float]
    agent: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``agent``, ``messages`` and ``rewards``."""
        return {"agent": self.agent, "messages": self.messages, "rewards": self.rewards}


def system_prompt_of(env: Any) -> str:
    """The env's own prompt text (see the module docstring), else the chat agent's default."""
    raw = getattr(env, "unwrapped", env)
    for name in SYSTEM_PROMPT_ATTRIBUTES:
        value = getattr(raw, name, None)
        if isinstance(value, str) and value:
            return value
    return SYSTEM_PROMPT


def action_text(action: Any) -> str:
    """An action as an assistant message's text: a string as it is, anything else as JSON."""
    if isinstance(action, str):
        return action
    try:
        return canonical_json(action)
    except (TypeError, ValueError):
        return repr(action)


class TranscriptRecorder:
    """Builds one agent's :class:`Transcript`, one message at a time (append only).

    Args:
        system_prompt: The system message's text.
        agent: The agent's name (None for single-agent envs).
        limits: Image caps for observations holding images (the chat agent's defaults).
    """

    def __init__(
        self, system_prompt: str, agent: str | None = None, limits: ImageLimits | None = None
    ) -> None:
        self.limits = limits or ImageLimits()
        self._transcript = Transcript([{"role": "system", "content": system_prompt}], [], agent)

    def observe(self, observation: Any, info: Mapping[str, Any]) -> None:
        """Add the user message of an observation."""
        content: Content = observation_content(observation, info, self.limits).content
        self._transcript.messages.append({"role": "user", "content": content})

    def act(self, action: Any) -> None:
        """Add the assistant message of an action (its reward starts at 0)."""
        self._transcript.messages.append({"role": "assistant", "content": action_text(action)})
        self._transcript.rewards.append(0.0)

    def reward(self, value: SupportsFloat) -> None:
        """Add ``value`` to the reward of the latest action (ignored before the first)."""
        if self._transcript.rewards:
            self._transcript.rewards[-1] += float(value)

    @property
    def transcript(self) -> Transcript:
        """A copy of the transcript so far (later turns do not change it)."""
        return copy.deepcopy(self._transcript)


class GymnasiumTranscriber:
    """Live transcripts of a Gymnasium env: call :meth:`reset` and :meth:`step` as you go."""

    def __init__(self, env: Any, limits: ImageLimits | None = None) -> None:
        self.system_prompt = system_prompt_of(env)
        self.limits = limits
        self.recorder = TranscriptRecorder(self.system_prompt, None, limits)

    def reset(self, observation: Any, info: Mapping[str, Any]) -> None:
        """Start a new transcript with what ``env.reset`` returned."""
        self.recorder = TranscriptRecorder(self.system_prompt, None, self.limits)
        self.recorder.observe(observation, info)

    def step(
        self,
        action: Any,
        observation: Any,
        reward: SupportsFloat,
        terminated: bool,
        truncated: bool,
        info: Mapping[str, Any],
    ) -> None:
        """Add the action sent and what ``env.step`` returned."""
        self.recorder.act(action)
        self.recorder.reward(reward)
        self.recorder.observe(observation, info)

    @property
    def transcripts(self) -> dict[str | None, Transcript]:
        """``{None: transcript}`` (the same shape as the multi-agent transcribers')."""
        return {None: self.recorder.transcript}


class ParallelTranscriber:
    """Live transcripts of a PettingZoo Parallel env, one per agent."""

    def __init__(self, env: Any, limits: ImageLimits | None = None) -> None:
        self.system_prompt = system_prompt_of(env)
        self.limits = limits
        self.agents = list(env.possible_agents)
        self.recorders: dict[str, TranscriptRecorder] = {}

    def reset(self, observations: Mapping[str, Any], infos: Mapping[str, Any]) -> None:
        """Start new transcripts with what ``env.reset`` returned."""
        self.recorders = {
            agent: TranscriptRecorder(self.system_prompt, agent, self.limits)
            for agent in self.agents
        }
        self._observe(observations, infos)

    def step(
        self,
        actions: Mapping[str, Any],
        observations: Mapping[str, Any],
        rewards: Mapping[str, SupportsFloat],
        terminations: Mapping[str, bool],
        truncations: Mapping[str, bool],
        infos: Mapping[str, Any],
    ) -> None:
        """Add the joint action sent and what ``env.step`` returned."""
        for agent, action in actions.items():
            self.recorders[agent].act(action)
        for agent, reward in rewards.items():
            self.recorders[agent].reward(reward)
        self._observe(observations, infos)

    def _observe(self, observations: Mapping[str, Any], infos: Mapping[str, Any]) -> None:
        for agent, observation in observations.items():
            self.recorders[agent].observe(observation, infos.get(agent, {}))

    @property
    def transcripts(self) -> dict[str | None, Transcript]:
        """Each agent's transcript so far, in ``possible_agents`` order."""
        return {agent: self.recorders[agent].transcript for agent in self.recorders}


class AECTranscriber:
    """Live transcripts of a PettingZoo AEC env, one per agent.

    In the ``agent_iter`` loop, call :meth:`observe` with what ``env.last()`` returned for
    each agent's turn (its dead step included, which shows its final observation), and
    :meth:`act` after stepping an action with ``env.rewards`` (every agent's reward for it).
    """

    def __init__(self, env: Any, limits: ImageLimits | None = None) -> None:
        self.system_prompt = system_prompt_of(env)
        self.limits = limits
        self.agents = list(env.possible_agents)
        self.recorders: dict[str, TranscriptRecorder] = {}

    def reset(self) -> None:
        """Start new transcripts (after ``env.reset``)."""
        self.recorders = {
            agent: TranscriptRecorder(self.system_prompt, agent, self.limits)
            for agent in self.agents
        }

    def observe(self, agent: str, observation: Any, info: Mapping[str, Any]) -> None:
        """Add the observation ``agent`` sees at its turn."""
        self.recorders[agent].observe(observation, info)

    def act(self, agent: str, action: Any, rewards: Mapping[str, SupportsFloat]) -> None:
        """Add ``agent``'s action and every agent's reward for it."""
        self.recorders[agent].act(action)
        for name, reward in rewards.items():
            if name in self.recorders:
                self.recorders[name].reward(reward)

    @property
    def transcripts(self) -> dict[str | None, Transcript]:
        """Each agent's transcript so far, in ``possible_agents`` order."""
        return {agent: self.recorders[agent].transcript for agent in self.recorders}


class TranscriptWrapper(gymnasium.Wrapper[Any, Any, Any, Any]):
    """A Gymnasium wrapper keeping the chat transcript of the current episode.

    Example:
        >>> env = TranscriptWrapper(envsuite.make("envsuite/Bandit-v0"))  # doctest: +SKIP
        >>> env.reset(seed=0); env.step("red"); env.transcript.messages  # doctest: +SKIP
    """

    def __init__(self, env: gymnasium.Env[Any, Any], limits: ImageLimits | None = None) -> None:
        super().__init__(env)
        self.transcriber = GymnasiumTranscriber(env, limits)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        """Reset the env and start a new transcript."""
        observation, info = self.env.reset(**kwargs)
        self.transcriber.reset(observation, info)
        return observation, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env and add the turn to the transcript."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.transcriber.step(action, observation, reward, terminated, truncated, info)
        return observation, reward, terminated, truncated, info

    @property
    def transcript(self) -> Transcript:
        """The transcript of the current episode so far."""
        return self.transcriber.transcripts[None]


# --- From a record -------------------------------------------------------------------------


def _check_replayable(record: EpisodeRecord, api: str) -> None:
    """Refuse a record whose episode cannot be replayed, saying why."""
    where = f"{record.env_id} seed {record.seed}"
    if record.infra_error is not None:
        raise TranscriptError(
            f"{where}: the episode failed ({record.infra_error}); nothing to show"
        )
    if len(record.trace) != record.length:
        raise TranscriptError(
            f"{where}: the record holds {len(record.trace)} trace steps for {record.length} "
            "steps (was the run made without traces?)"
        )
    for number, step in enumerate(record.trace, start=1):
        if api != "gymnasium" and not isinstance(step.action, dict):
            raise TranscriptError(f"{where}: step {number} holds no per-agent actions")
        actions: list[Any] = [step.action]
        if api != "gymnasium" and isinstance(step.action, dict):
            actions = list(step.action.values())
        for action in actions:
            if isinstance(action, dict) and "trace_cut" in action:
                raise TranscriptError(
                    f"{where}: step {number}'s action was cut from the trace (too big to "
                    "store), so the episode cannot be replayed"
                )
            if isinstance(action, dict) and "unserialisable" in action:
                raise TranscriptError(
                    f"{where}: step {number}'s action had no JSON form, so it cannot be replayed"
                )


def _rewards_differ(where: str, number: int, recorded: Any, replayed: Any) -> TranscriptError:
    return TranscriptError(
        f"{where}: step {number} replays with reward {replayed!r}, recorded {recorded!r} "
        "(a nondeterministic env or an altered record)"
    )


def make_env(spec: EnvSpec, env_kwargs: Mapping[str, Any]) -> Any:
    """The env a record was run in (multi-agent envs in their native form)."""
    options: dict[str, Any] = {"parallel": True} if spec.api == "parallel" else {}
    return spec.make(**env_kwargs, **options)


def transcripts_from_record(
    record: EpisodeRecord, env: Any = None, limits: ImageLimits | None = None
) -> list[Transcript]:
    """The chat transcripts of a recorded episode (one per agent for multi-agent envs).

    Args:
        record: The episode's record (it needs its action trace).
        env: The env to replay in (made from the record when None; reused envs save time).
        limits: Image caps for observations holding images.

    Raises:
        TranscriptError: the record has no full trace, failed, or does not replay (an
            exception of the env while replaying is chained to it).
        UnknownEnvError: its env id is not registered.
    """
    spec = registry[record.env_id]
    _check_replayable(record, spec.api)
    own = env is None
    env = make_env(spec, record.env_kwargs) if own else env
    feed = _TraceFeed(record, env, native_kind(spec.api), limits)
    try:
        result = run_episode(
            feed.kind, env, record.seed, feed.policy, observer=feed.observer, stop=feed.stop
        )
        found = feed.finish(result)
    except EnvCallError as exc:  # the env failed while replaying: say so, keep the cause
        cause = exc.__cause__
        raise TranscriptError(
            f"{record.env_id} seed {record.seed}: the env raised {type(cause).__name__} while "
            f"replaying the record: {cause}"
        ) from cause
    finally:
        if own:
            env.close()
    return list(found.values())


class LiveTranscripts:
    """Every agent's transcript of an episode played in a shared loop, fed as it goes.

    Call :meth:`shown` with each decision the loop asks for (what the policy sees),
    :meth:`stepped` from the loop's observer, and :meth:`finish` with its result.

    What the transcriber is told: Gymnasium and Parallel, the reset output when the policy
    is first asked (before the first step) and what each step returned; AEC, each agent's
    observation at its turn (what ``last()`` showed the policy) and every agent's reward
    for each action. The observation an AEC agent is shown at its dead step is added by
    :meth:`finish`, for every agent that left the game.

    Args:
        env: The env the loop plays.
        kind: The loop's kind.
        limits: Image caps for observations holding images.
        system_prompt: The system message (default: the env's own, :func:`system_prompt_of`).
    """

    def __init__(
        self,
        env: Any,
        kind: EnvKind,
        limits: ImageLimits | None = None,
        system_prompt: str | None = None,
    ) -> None:
        self.env = env
        self.kind = kind
        self.steps = 0
        self.transcriber: Any
        if kind == "gymnasium":
            self.transcriber = GymnasiumTranscriber(env, limits)
        elif kind == "parallel":
            self.transcriber = ParallelTranscriber(env, limits)
        else:
            self.transcriber = AECTranscriber(env, limits)
        if system_prompt is not None:
            self.transcriber.system_prompt = system_prompt
        if kind == "gymnasium":
            self.transcriber.recorder = TranscriptRecorder(
                self.transcriber.system_prompt, None, limits
            )
        elif kind == "parallel":
            self.transcriber.reset({}, {})
        else:
            self.transcriber.reset()

    def shown(self, agent: Any, observation: Any, info: Mapping[str, Any]) -> None:
        """Note what ``agent`` is shown at a decision, before it acts."""
        if self.kind == "aec":
            self.transcriber.observe(agent, observation, info)
        elif self.steps == 0 and self.kind == "gymnasium":
            self.transcriber.reset(observation, info)
        elif self.steps == 0:
            self.transcriber.recorders[agent].observe(observation, info)

    def stepped(self, agent: Any, action: Any, *returned: Any) -> None:
        """Add a step, as the loop's observer gets it.

        ``returned`` is the rest of a :data:`~envsuite.episodes.StepObserver` call:
        (observation, reward, terminated, truncated, info).
        """
        self.steps += 1
        if self.kind == "aec":
            self.transcriber.act(agent, action, returned[1])
        else:
            self.transcriber.step(action, *returned)

    def finish(self, result: EpisodeResult) -> dict[str | None, Transcript]:
        """Every agent's transcript, once the loop ended with ``result``."""
        if self.steps == 0 and self.kind != "aec":  # no step: the policy may not have been asked
            if self.kind == "gymnasium":
                self.transcriber.reset(result.reset_observation, result.reset_info)
            else:
                self.transcriber.reset(result.reset_observation or {}, result.reset_info or {})
        if self.kind == "aec":
            for agent in result.agents:
                if agent not in self.env.agents and agent in result.final_observation:
                    self.transcriber.observe(
                        agent, result.final_observation[agent], result.final_info[agent]
                    )
        transcripts: dict[str | None, Transcript] = self.transcriber.transcripts
        return transcripts


class _TraceFeed:
    """Plays a record's trace in the shared loop, feeding :class:`LiveTranscripts`.

    Its :meth:`policy` gives the recorded actions (turned back from JSON for the action
    space) and its :meth:`observer` checks each replayed reward against the recorded one.
    One trace step is one loop step: an env step (Gymnasium, Parallel) or one agent's
    action (AEC), as the runner records them.
    """

    def __init__(
        self, record: EpisodeRecord, env: Any, kind: EnvKind, limits: ImageLimits | None
    ) -> None:
        self.where = f"{record.env_id} seed {record.seed}"
        self.trace = record.trace
        self.env = env
        self.kind = kind
        self.index = 0  # the trace step being played
        self.live = LiveTranscripts(env, kind, limits)

    def stop(self, steps: int) -> str | None:
        """Gymnasium and Parallel: stop once the trace is played (AEC: see :meth:`policy`)."""
        return "end of trace" if self.kind != "aec" and steps >= len(self.trace) else None

    def policy(self, agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        """Note what the agent is shown, then give its recorded action."""
        self.live.shown(agent, observation, info)
        if self.kind == "aec" and self.index >= len(self.trace):
            raise StopEpisode("end of trace")  # its observation is in, as at a live turn
        recorded = self.trace[self.index].action
        if agent is None:
            return from_json_action(recorded, self.env.action_space)
        if not isinstance(recorded, dict) or agent not in recorded:
            raise TranscriptError(
                f"{self.where}: step {self.index + 1} holds no action for {agent}"
            )
        return from_json_action(recorded[agent], self.env.action_space(agent))

    def observer(
        self,
        agent: Any,
        action: Any,
        observation: Any,
        reward: Any,
        terminated: Any,
        truncated: Any,
        info: Any,
    ) -> None:
        """Check the step's rewards against the record and add the step to the transcripts."""
        recorded = self.trace[self.index].reward
        self.index += 1
        if self.kind == "gymnasium":
            if reward != recorded:
                raise _rewards_differ(self.where, self.index, recorded, reward)
        else:
            replayed = {name: float(value) for name, value in reward.items()}
            if isinstance(recorded, dict) and step_rewards(replayed) != step_rewards(recorded):
                raise _rewards_differ(self.where, self.index, recorded, replayed)
        self.live.stepped(agent, action, observation, reward, terminated, truncated, info)

    def finish(self, result: EpisodeResult) -> dict[str | None, Transcript]:
        """The transcripts, once the loop ended; a trace longer than the episode is refused."""
        if self.index < len(self.trace):
            raise TranscriptError(
                f"{self.where}: the env ends at step {self.index}, before the trace"
            )
        return self.live.finish(result)


def transcript_rows(
    records: Sequence[EpisodeRecord],
    limits: ImageLimits | None = None,
    on_error: Callable[[EpisodeRecord, TranscriptError], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """One JSON-ready row per transcript of ``records``, with the episode's identity.

    Each row holds ``run_id``, ``task_id``, ``env_id``, ``env_kwargs``, ``seed``,
    ``attempt``, ``agent_id``, then the transcript's ``agent``, ``messages`` and
    ``rewards``. A record that cannot be replayed raises, or goes to ``on_error`` when given.
    """
    envs: dict[str, Any] = {}
    try:
        for record in records:
            key = record.env_id + canonical_json(record.env_kwargs)
            try:
                if key not in envs:
                    envs[key] = make_env(registry[record.env_id], record.env_kwargs)
                found = transcripts_from_record(record, envs[key], limits)
            except TranscriptError as exc:
                if on_error is None:
                    raise
                on_error(record, exc)
                continue
            identity = {
                "run_id": record.run_id,
                "task_id": record.task_id,
                "env_id": record.env_id,
                "env_kwargs": to_jsonable(record.env_kwargs),
                "seed": record.seed,
                "attempt": record.attempt,
                "agent_id": record.agent_id,
            }
            for transcript in found:
                yield {**identity, **transcript.to_json()}
    finally:
        for env in envs.values():
            env.close()
