"""Episodes as the conformance checks see them, played by the shared loops.

The kit plays its episodes with :mod:`envsuite.episodes` (one loop per API, the runner's
own) and records every step as a :class:`Transition` of an :class:`Episode`, the shape the
checks compare. Which loop drives an env comes from its spec (``spec.api``) and the form
the kit made it in (:func:`form_of`), never from probing the env.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envsuite.episodes import EnvCallError, EpisodeResult, Policy, StepObserver
from envsuite.episodes import run_episode as run_loop
from envsuite.outcomes import episode_success as env_episode_success
from envsuite.registry import Api, EnvSpec
from envsuite.seeding import derive_seed, make_generator

#: Longest episode a conformance rollout runs before giving up on reaching the end.
MAX_ROLLOUT_STEPS = 500


@dataclass
class Transition:
    """What one step returned (for Parallel envs, every field is a per-agent dict).

    For AEC envs, one transition per action of a live agent: every field is a per-agent
    dict over the agents present after the step (``observe(agent)``, ``env.rewards``,
    ``env.terminations``, ``env.truncations``, ``env.infos``); the dead steps PettingZoo
    asks of finished agents (``step(None)``) make no transition.
    """

    observation: Any
    reward: Any
    terminated: Any
    truncated: Any
    info: Any


@dataclass
class Episode:
    """The reset output and every transition of one episode."""

    observation: Any
    info: Any
    transitions: list[Transition] = field(default_factory=list)

    @property
    def final_info(self) -> Any:
        """The last info dict (the reset info when no step was taken)."""
        return self.transitions[-1].info if self.transitions else self.info


def make_for_test(spec: EnvSpec, **kwargs: Any) -> Any:
    """Make ``spec``'s env with its ``test_kwargs``, in its native form (see :func:`form_of`).

    ``parallel=True`` / ``parallel=False`` in ``kwargs`` asks for the other PettingZoo form.
    """
    options = {**spec.test_kwargs, **kwargs}
    if spec.api == "parallel":
        options.setdefault("parallel", True)
    return spec.make(**options)


def form_of(spec: EnvSpec, parallel: bool | None = None) -> Api:
    """The API of the env :func:`make_for_test` builds for ``spec`` (with ``parallel``).

    ``gymnasium`` for single-agent specs; for PettingZoo specs the native form
    (``spec.api``) unless ``parallel`` asks for the other one.
    """
    if not spec.multi_agent:
        return "gymnasium"
    if parallel is None:
        return spec.api
    return "parallel" if parallel else "aec"


class ActionChooser:
    """A seeded source of actions: legal actions when ``info`` lists them, else space samples.

    With ``legal_actions`` in ``info`` it picks one of them nine times in ten and samples
    the action space otherwise, so text envs are exercised on both paths.
    """

    def __init__(self, seed: int) -> None:
        self.rng = make_generator(seed, "conformance-actions")
        self._spaces: dict[int, Any] = {}

    def choose(self, space: Any, info: Mapping[str, Any]) -> Any:
        """A legal action from ``info`` (nine times in ten) or a sample of ``space``."""
        legal = info.get("legal_actions") if isinstance(info, Mapping) else None
        if legal and self.rng.random() < 0.9:
            return legal[int(self.rng.integers(len(legal)))]
        key = id(space)
        if key not in self._spaces:
            own = copy.deepcopy(space)
            own.seed(int(self.rng.integers(2**31)))
            self._spaces[key] = own
        return self._spaces[key].sample()


class _RawRewards:
    """A Gymnasium env as the shared loop sees it, keeping each reward as the env gave it.

    The loop sums ``float(reward)`` and shows observers that float; the kit checks the env's
    own value (a string or None is a reward the kit must refuse, even one ``float`` reads).
    So the loop is shown 0.0 for a reward that is not a real number, and
    :attr:`reward` keeps the value for the :class:`Transition`.
    """

    def __init__(self, env: Any) -> None:
        self.env = env
        self.reward: Any = None

    def reset(self, **kwargs: Any) -> Any:
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.reward = reward
        if isinstance(reward, bool) or not isinstance(reward, int | float | np.number):
            reward = 0.0
        return observation, reward, terminated, truncated, info


class _EpisodeRecorder:
    """Collects an :class:`Episode` from the shared loop: a policy wrapper and an observer.

    Gymnasium and Parallel steps are recorded as the loop passes them on, and the reset
    output is the loop's. An AEC env shows an agent its observation only through
    ``last()``, so for AEC the recorder reads every present agent's ``observe`` and
    ``infos`` itself: at the start (when the policy is first asked, before any action) and
    after each action.
    """

    def __init__(self, form: Api, env: Any, policy: Callable[..., Any]) -> None:
        self.form = form
        self.env = env
        self.raw = _RawRewards(env) if form == "gymnasium" else None
        self.wrapped = policy
        self.start: tuple[Any, Any] | None = None
        self.transitions: list[Transition] = []

    def policy(self, agent: Any, observation: Any, info: Mapping[str, Any]) -> Any:
        """Note the AEC start, then ask the wrapped policy."""
        if self.start is None and self.form == "aec":
            self.start = self._aec_view()
        return self.wrapped(agent, observation, info)

    def observe(
        self,
        agent: Any,
        action: Any,
        observation: Any,
        reward: Any,
        terminated: Any,
        truncated: Any,
        info: Any,
    ) -> None:
        """Record the step as a :class:`Transition` (see :class:`Transition` for AEC)."""
        if self.form == "aec":
            observations, infos = self._aec_view()
            step = Transition(observations, dict(reward), dict(terminated), dict(truncated), infos)
        elif self.raw is not None:
            step = Transition(observation, self.raw.reward, terminated, truncated, info)
        else:
            step = Transition(observation, reward, terminated, truncated, info)
        self.transitions.append(step)

    def _aec_view(self) -> tuple[dict[str, Any], dict[str, Any]]:
        env = self.env
        return (
            {name: env.observe(name) for name in env.agents},
            {name: dict(env.infos[name]) for name in env.agents},
        )

    def episode(self, result: EpisodeResult) -> Episode:
        """The :class:`Episode` (an AEC episode no live agent acted in starts empty)."""
        if self.form == "aec":
            observation, info = self.start or ({}, {})
        else:
            observation, info = result.reset_observation, result.reset_info
        return Episode(observation, info, self.transitions)


def run_episode(
    form: Api,
    env: Any,
    seed: int | None,
    policy: Callable[..., Any],
    max_steps: int = MAX_ROLLOUT_STEPS,
) -> Episode:
    """Run one episode of an env of ``form`` (see :func:`form_of`) in the shared loop.

    Args:
        form: ``"gymnasium"``, ``"parallel"`` or ``"aec"``.
        env: The env, in that form.
        seed: The seed for ``reset``.
        policy: ``(agent, observation, info) -> action`` (agent None for Gymnasium envs),
            as :data:`envsuite.episodes.Policy`.
        max_steps: Most actions taken: env steps (Gymnasium, Parallel) or actions of live
            agents (AEC; finished agents still take their dead steps as they come up).

    Raises:
        Exception: whatever the env raised (see :func:`play`).
    """
    recorder = _EpisodeRecorder(form, env, policy)
    played = env if recorder.raw is None else recorder.raw
    result = play(form, played, seed, recorder.policy, recorder.observe, max_steps)
    return recorder.episode(result)


def play(
    form: Api,
    env: Any,
    seed: int | None,
    policy: Policy,
    observer: StepObserver | None,
    max_steps: int,
) -> EpisodeResult:
    """The shared loop of ``form`` with at most ``max_steps`` actions; env errors unwrapped.

    Raises:
        Exception: whatever the env raised (the checks report the env's own exception, not
            the loop's :class:`~envsuite.episodes.EnvCallError`).
    """

    def stop(steps: int) -> str | None:
        return "max_steps" if steps >= max_steps else None

    try:
        return run_loop(form, env, seed, policy, observer=observer, stop=stop)
    except EnvCallError as exc:
        assert exc.__cause__ is not None  # EnvCallError always chains the env's exception
        raise exc.__cause__ from None


class MixedPolicy:
    """Half oracle, half random: exercises both the valid and the malformed-action paths.

    Text envs without ``legal_actions`` would otherwise only ever see random strings, so
    their valid-action paths would go unchecked. The oracle is asked every step (so its
    own state follows the episode) and its answer is used with probability ``oracle_share``;
    otherwise the :class:`ActionChooser` picks. Specs without an oracle act at random.
    """

    def __init__(self, spec: EnvSpec, env: Any, chooser: ActionChooser, oracle_share: float = 0.5):
        self.env = env
        self.chooser = chooser
        self.oracle_share = oracle_share
        self.multi = spec.multi_agent
        self.oracle = spec.load_oracle()(env) if spec.oracle is not None else None

    def reset(self, seed: int | None) -> None:
        """Reset the oracle(s) with seeds derived from the episode's seed."""
        if self.oracle is None:
            return
        agents = self.oracle.items() if isinstance(self.oracle, Mapping) else [("", self.oracle)]
        for name, agent in agents:
            agent.reset(seed=derive_seed(0 if seed is None else seed, "kit-oracle", name))

    def __call__(self, *args: Any) -> Any:
        """Choose an action for ``(agent, observation, info)``, as the shared loops ask.

        ``agent`` is None for Gymnasium envs, whose own loops may pass just
        ``(observation, info)``.
        """
        agent, observation, info = args if len(args) == 3 else (None, *args)
        if self.multi:
            space = self.env.action_space(agent)
            oracle = self.oracle[agent] if self.oracle is not None else None
        else:
            space = self.env.action_space
            oracle = self.oracle
        random_action = self.chooser.choose(space, info)
        if oracle is None:
            return random_action
        oracle_action = oracle.act(observation, info)
        return oracle_action if self.chooser.rng.random() < self.oracle_share else random_action


def random_policy(spec: EnvSpec, env: Any, chooser: ActionChooser) -> Policy:
    """A policy drawing from ``chooser`` for ``spec``'s env (any form)."""
    if spec.multi_agent:
        return lambda agent, observation, info: chooser.choose(env.action_space(agent), info)
    return lambda agent, observation, info: chooser.choose(env.action_space, info)


def iter_step_values(episode: Episode) -> Iterator[tuple[str | None, Any, Any, Any]]:
    """Yield ``(agent, observation, reward, info)`` per step (agent None when single-agent)."""
    for step in episode.transitions:
        if isinstance(step.reward, dict):
            for agent, reward in step.reward.items():
                yield agent, step.observation.get(agent), reward, step.info.get(agent, {})
        else:
            yield None, step.observation, step.reward, step.info


def episode_success(spec: EnvSpec, env: Any, episode: Episode) -> bool:
    """Whether the episode succeeded, as ``spec``'s env defines success.

    Single-agent: the last ``info["success"]``. Multi-agent: the env's
    ``episode_success(final_infos)`` hook (see :mod:`envsuite.outcomes`) on each agent's
    last info; an env without one, or one that answers None, has not succeeded.
    """
    if not episode.transitions:
        return False
    last = episode.transitions[-1]
    if not spec.multi_agent:
        return bool(last.info.get("success"))
    final_infos: dict[str, Any] = dict(episode.info)
    for step in episode.transitions:
        final_infos.update(step.info)
    return bool(env_episode_success(env, final_infos))
