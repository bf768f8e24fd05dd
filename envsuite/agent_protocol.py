"""The minimal contract between environments and the policies that act in them.

It sits in the core (not in :mod:`envsuite.agents`) because every family's oracle is an
agent, and families may only depend on the core.
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


#: An oracle entry point builds the reference policy for a made env. Single-agent envs get
#: one :class:`Agent`; multi-agent envs get a mapping from agent name to :class:`Agent`.
OracleFactory = Callable[[Any], Agent | Mapping[str, Agent]]
