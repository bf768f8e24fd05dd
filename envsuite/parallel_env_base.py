"""Base class giving PettingZoo Parallel envs the action-handling contract of ``env_base``.

A concrete env fills in its hooks (template method, as in :mod:`envsuite.env_base`; they
are abstract, and the rule on malformed actions and parser bugs is the one described
there):

- ``new_episode(seed, options)`` builds every agent's first observation and info after
  seeding (``seed`` is the seed ``reset`` got, or None);
- ``parse_action(agent, action)`` turns what one agent sent into the env's own action type,
  raising :class:`~envsuite.env_base.InvalidAction` when it cannot;
- ``apply_actions(parsed, errors)`` advances the env by one joint step, applying the env's
  documented penalty to every agent named in ``errors``.

The base class owns ``reset`` and ``step`` (no env overrides them). Within an episode:

- a malformed action for one agent never raises: that agent's ``info["parse_error"]``
  holds the reason and the env applies its penalty to that agent only;
- a live agent missing from the ``actions`` dict (or ``actions`` not being a dict at all)
  counts as a malformed action for that agent (:data:`MISSING_ACTION`);
- actions for names that are not live agents (unknown names, agents already done) are
  ignored;
- every info of every agent holds ``parse_error`` (``None`` when the action was fine).

Once every agent is done (or before the first ``reset``), ``step`` changes nothing: each
agent of ``possible_agents`` named in ``actions`` gets its last observation (None before
any reset), reward 0, ``terminated=True`` and a ``parse_error``
(:data:`~envsuite.env_base.EPISODE_OVER`, or :data:`NOT_STARTED`); other names get nothing.

Rendering works as in :mod:`envsuite.env_base`: a text env writes ``render_text()`` and
gets ``"ansi"``, ``"rgb_array"`` and ``"human"`` (:mod:`envsuite.rendering`).
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import ParallelEnv

from envsuite.action_errors import describe_parse_failure, is_interrupt
from envsuite.env_attributes import EnvAttributes
from envsuite.env_base import EPISODE_OVER
from envsuite.plain_actions import named_in, read_joint_action
from envsuite.rendering import TextRendering

if TYPE_CHECKING:
    from envsuite.registry import EnvSpec

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
ParsedT = TypeVar("ParsedT")

#: ``parse_error`` of a live agent that was given no action.
MISSING_ACTION = "no action was given for this agent"
#: ``parse_error`` of a step taken before the first ``reset``.
NOT_STARTED = "the episode has not started; call reset() before step()"

StepResult = tuple[
    dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
]


class EnvsuiteParallelEnv(
    EnvAttributes,
    TextRendering,
    ParallelEnv[str, ObsType, ActType],
    Generic[ObsType, ActType, ParsedT],
    metaclass=abc.ABCMeta,
):
    """A PettingZoo ``ParallelEnv`` whose ``step`` tolerates any actions, per agent.

    Subclasses set ``possible_agents``, ``observation_spaces`` and ``action_spaces`` (one
    space object per agent, returned as is by :meth:`observation_space` and
    :meth:`action_space`) and implement :meth:`new_episode`, :meth:`parse_action` and
    :meth:`apply_actions`. Randomness must come from ``self.np_random``, which
    :meth:`reset` seeds from ``seed`` and keeps running when ``seed`` is None.

    Attributes:
        spec: The :class:`~envsuite.registry.EnvSpec` the env was made from (set by
            ``envsuite.make``; ``None`` for an env built from its class).
        spec_hash: The spec hash (set by ``envsuite.make``; ``None`` otherwise).
        render_mode: The render mode the env was made with, or None.
        np_random: The env's generator.
        np_random_seed: The seed of the current generator (drawn from OS entropy when the
            first reset got no seed; ``None`` before any reset).

    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "envsuite_parallel_env"}
    spec: EnvSpec | None = None
    spec_hash: str | None = None
    render_mode: str | None = None

    possible_agents: list[str]
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]

    def __init__(self) -> None:
        self.agents: list[str] = []
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self._last_observations: dict[str, Any] = {}

    # -- hooks -------------------------------------------------------------------------
    @abc.abstractmethod
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[dict[str, ObsType], dict[str, dict[str, Any]]]:
        """Start an episode; return every agent's first observation and info.

        Args:
            seed: The seed ``reset`` was given (``self.np_random`` is already seeded from
                it), or None when the generator keeps running.
            options: The ``options`` ``reset`` was given.
        """
        raise NotImplementedError

    @abc.abstractmethod
    def parse_action(self, agent: str, action: Any) -> ParsedT:
        """Convert ``agent``'s action to the env's action type, or raise InvalidAction."""
        raise NotImplementedError

    @abc.abstractmethod
    def apply_actions(self, parsed: Mapping[str, ParsedT], errors: Mapping[str, str]) -> StepResult:
        """Advance the env one joint step.

        Args:
            parsed: The well-formed action of each live agent that sent one.
            errors: For each live agent whose action was malformed or missing, the reason;
                the env applies its documented penalty to these agents.

        Returns:
            Observations, rewards, terminations, truncations and infos, each keyed by every
            agent that was live before the step.

        """
        raise NotImplementedError

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """The env-level success of the episode that just ended, as this env defines it.

        The runner records it as the episode's ``success``. ``final_infos`` holds each
        agent's last info. The default is None (no env-level success: a game with winners
        reports each agent's own outcome instead, see :mod:`envsuite.outcomes`); an env
        that defines one overrides this and documents the rule in its docstring.
        """
        return None

    # -- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Return the observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Return the action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    # -- the loop ----------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsType], dict[str, dict[str, Any]]]:
        """Seed ``self.np_random`` (when ``seed`` is given, or on first use); start an episode."""
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.agents = list(self.possible_agents)
        observations, infos = self.new_episode(seed, options)
        self._last_observations = dict(observations)
        if self.render_mode == "human":
            self.render()
        return observations, infos

    def step(self, actions: Any) -> StepResult:
        """Step every live agent; malformed or missing actions cost that agent its penalty.

        Nothing ``actions`` holds can make this raise: a mapping whose methods raise, an
        action object whose methods raise, a list that holds itself are each that agent's
        malformed action (see :mod:`envsuite.plain_actions`).
        """
        if not self.agents:
            return self._answer_after_end(actions)
        given, errors = read_joint_action(actions, self.agents, MISSING_ACTION)
        parsed: dict[str, ParsedT] = {}
        for agent, action in given.items():
            try:
                parsed[agent] = self.parse_action(agent, action)
            except BaseException as exc:  # any failure to understand an action is that agent's
                if is_interrupt(exc):
                    raise
                errors[agent] = describe_parse_failure(exc, self)
        observations, rewards, terminations, truncations, infos = self.apply_actions(parsed, errors)
        for agent in self.agents:
            infos.setdefault(agent, {})["parse_error"] = errors.get(agent)
        rewards = {agent: float(value) for agent, value in rewards.items()}
        terminations = {agent: bool(value) for agent, value in terminations.items()}
        truncations = {agent: bool(value) for agent, value in truncations.items()}
        self._last_observations.update(observations)
        self.agents = [
            agent
            for agent in self.agents
            if not (terminations.get(agent, False) or truncations.get(agent, False))
        ]
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _answer_after_end(self, actions: Any) -> StepResult:
        named = named_in(actions, self.possible_agents)
        message = NOT_STARTED if self.np_random is None else EPISODE_OVER
        return (
            {agent: self._last_observations.get(agent) for agent in named},
            dict.fromkeys(named, 0.0),
            dict.fromkeys(named, True),
            dict.fromkeys(named, False),
            {agent: {"parse_error": message} for agent in named},
        )
