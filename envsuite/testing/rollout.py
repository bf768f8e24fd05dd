"""Small episode loops the conformance checks share (single-agent, Parallel and AEC).

Which loop drives an env comes from its spec (``spec.api``) and the form the kit made it
in (:func:`form_of`), never from probing the env.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

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


def single_agent_episode(
    env: Any,
    seed: int | None,
    policy: Callable[[Any, Mapping[str, Any]], Any],
    max_steps: int = MAX_ROLLOUT_STEPS,
) -> Episode:
    """Run one episode of a Gymnasium env with ``policy(observation, info) -> action``."""
    observation, info = env.reset(seed=seed)
    episode = Episode(observation, info)
    for _ in range(max_steps):
        action = policy(observation, info)
        observation, reward, terminated, truncated, info = env.step(action)
        episode.transitions.append(Transition(observation, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    return episode


def parallel_episode(
    env: Any,
    seed: int | None,
    policy: Callable[[str, Any, Mapping[str, Any]], Any],
    max_steps: int = MAX_ROLLOUT_STEPS,
) -> Episode:
    """Run one episode of a PettingZoo Parallel env with ``policy(agent, obs, info)``."""
    observations, infos = env.reset(seed=seed)
    episode = Episode(observations, infos)
    for _ in range(max_steps):
        if not env.agents:
            break
        actions = {
            agent: policy(agent, observations[agent], infos.get(agent, {})) for agent in env.agents
        }
        observations, rewards, terminations, truncations, infos = env.step(actions)
        episode.transitions.append(
            Transition(observations, rewards, terminations, truncations, infos)
        )
    return episode


def aec_episode(
    env: Any,
    seed: int | None,
    policy: Callable[[str, Any, Mapping[str, Any]], Any],
    max_steps: int = MAX_ROLLOUT_STEPS,
) -> Episode:
    """Run one episode of a PettingZoo AEC env with ``policy(agent, obs, info)``.

    ``max_steps`` bounds the actions of live agents; finished agents are stepped with
    None (PettingZoo's dead step) as they come up, until none is left.
    """
    env.reset(seed=seed)
    episode = Episode(
        {agent: env.observe(agent) for agent in env.agents},
        {agent: dict(env.infos[agent]) for agent in env.agents},
    )
    steps = 0
    for agent in env.agent_iter(max_steps + len(env.possible_agents) + 1):
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if steps >= max_steps:
            break
        env.step(policy(agent, observation, info))
        steps += 1
        episode.transitions.append(
            Transition(
                {name: env.observe(name) for name in env.agents},
                dict(env.rewards),
                dict(env.terminations),
                dict(env.truncations),
                {name: dict(env.infos[name]) for name in env.agents},
            )
        )
    return episode


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
        """``(observation, info)`` for single-agent envs, ``(agent, observation, info)`` else."""
        if self.multi:
            agent, observation, info = args
            space = self.env.action_space(agent)
            oracle = self.oracle[agent] if self.oracle is not None else None
        else:
            observation, info = args
            space = self.env.action_space
            oracle = self.oracle
        random_action = self.chooser.choose(space, info)
        if oracle is None:
            return random_action
        oracle_action = oracle.act(observation, info)
        return oracle_action if self.chooser.rng.random() < self.oracle_share else random_action


def random_policy(spec: EnvSpec, env: Any, chooser: ActionChooser) -> Callable[..., Any]:
    """A policy drawing from ``chooser`` for ``spec``'s env (any form)."""
    if spec.multi_agent:
        return lambda agent, observation, info: chooser.choose(env.action_space(agent), info)
    return lambda observation, info: chooser.choose(env.action_space, info)


#: The episode loop of each form.
LOOPS: dict[str, Callable[..., Episode]] = {
    "gymnasium": single_agent_episode,
    "parallel": parallel_episode,
    "aec": aec_episode,
}


def run_episode(
    form: Api, env: Any, seed: int | None, policy: Callable[..., Any], max_steps: int
) -> Episode:
    """Run one episode of an env of ``form`` (see :func:`form_of`)."""
    return LOOPS[form](env, seed, policy, max_steps)


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
