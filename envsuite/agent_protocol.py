"""The minimal contract between environments and the policies that act in them.

It sits in the core (not in :mod:`envsuite.agents`) because every family's oracle is an
agent, and families may only depend on the core.

:class:`Agent` is all an agent must be. Three optional capabilities, each its own
runtime-checkable protocol, say what else the runner and policy selection use when an
agent has it (``isinstance(agent, ReportsEpisodeInfo)``); an agent that has one says so by
naming the protocol among its bases, which also lets the type checker hold its signature
to the protocol's:

- :class:`ReportsEpisodeInfo`: ``episode_info()``, stored in the episode record's
  ``agent_info`` (token counts, cost, retries of a chat agent);
- :class:`ReportsActionProbability`: ``last_action_probability()``, stored in each trace
  step as the behaviour probability off-policy estimators need;
- :class:`ReportsActionProbabilities`: ``action_probabilities(observation, info)``,
  π(· | history) of a candidate policy in policy selection (see
  :mod:`envsuite.evaluation.policy_selection.policy` for the exact contract).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """A policy: reset at the start of each episode, then asked for one action per step.

    Agents learn from what the environment shows them: the observation and the ``info``
    dict (envs that need the agent to see its last reward, such as bandits, put it in
    the observation).
    """

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode; ``seed`` seeds the agent's own randomness, if it has any."""
        ...

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """Return the action for ``observation`` (``info`` is the env's latest info dict)."""
        ...


@runtime_checkable
class ReportsEpisodeInfo(Protocol):
    """An agent that reports facts about its last episode (read once the episode ends)."""

    def episode_info(self) -> Mapping[str, Any]:
        """JSON-able facts about the episode just played (e.g. tokens used, retries).

        The runner calls it after the episode ends, also after an infra error, and stores
        the result in the record's ``agent_info``; it must not raise.
        """
        ...


@runtime_checkable
class ReportsActionProbability(Protocol):
    """A behaviour agent: says how likely the action it last returned was."""

    def last_action_probability(self) -> float | None:
        """The probability with which :meth:`Agent.act` drew its last action.

        None when the agent cannot say. The runner stores it in each trace step
        (:attr:`envsuite.records.Step.probability`).
        """
        ...


@runtime_checkable
class ReportsActionProbabilities(Protocol):
    """A stochastic policy: gives π(· | history) without drawing an action."""

    def action_probabilities(
        self, observation: Any, info: Mapping[str, Any]
    ) -> Mapping[Any, float]:
        """π(· | history): each action (as ``act`` returns it) and its probability.

        Actions left out have probability 0. Advances the agent's state exactly as
        ``act(observation, info)`` would, except that nothing is drawn.
        """
        ...


#: An oracle entry point builds the reference policy for a made env. Single-agent envs get
#: one :class:`Agent`; multi-agent envs get a mapping from agent name to :class:`Agent`.
OracleFactory = Callable[[Any], Agent | Mapping[str, Agent]]
