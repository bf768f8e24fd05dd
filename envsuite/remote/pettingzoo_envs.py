"""PettingZoo envs (AEC and Parallel) whose games run on an envsuite server.

A session holds one game. The AEC env mirrors the server's bookkeeping after every step
(``agents``, ``agent_selection``, ``rewards``, ``_cumulative_rewards``,
``terminations``, ``truncations``, ``infos`` and every live agent's observation), so
``last()``, ``observe`` and ``agent_iter`` work as in-process without further requests.
``step(action, agent=name)`` names who acts, as envsuite's AEC base allows. The Parallel
env sends every live agent's action in one step.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv

from envsuite.remote import protocol, wire
from envsuite.remote.actions import encode_action, encode_joint_action
from envsuite.remote.connection import DEFAULT_TIMEOUT
from envsuite.remote.served_env import ServedEnv
from envsuite.remote.space_wire import build_space


class _ServedGame(ServedEnv):
    def _adopt(self, described: dict[str, Any]) -> None:
        self.possible_agents = list(described["possible_agents"])
        self._observation_spaces = {
            a: build_space(d) for a, d in described["observation_spaces"].items()
        }
        self._action_spaces = {a: build_space(d) for a, d in described["action_spaces"].items()}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``."""
        return self._action_spaces[agent]


class RemoteAECEnv(_ServedGame, AECEnv):
    """A turn-based (AEC) env served by ``envsuite serve``, behind PettingZoo's AEC API.

    Description:
        The game ``env_id`` made on the server at ``url``, one WebSocket session per
        instance; same seed and actions give what the in-process env gives, exactly.

    Observation:
        Each agent's observation space of the served env, rebuilt from the server's
        description.

    Action:
        Each agent's action space of the served env. Any object is accepted: one with no
        wire form reaches the env as an object it cannot read (its own ``parse_error``
        and penalty apply).

    Reward:
        The served env's.

    Termination:
        The served env's.

    Arguments:
        url: ``http://host:port`` of the server.
        env_id: The served env's id.
        token: The server's bearer token, if it has one.
        timeout: Seconds to wait for each answer.
        render_mode: ``ansi`` and ``rgb_array`` are rendered on the server; ``human``
            prints the ``ansi`` frame here.
        kwargs: The env's keyword arguments (within what the server allows).

    Version history:
        v0: Initial release.
    """

    def __init__(
        self,
        url: str,
        env_id: str,
        *,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__()
        self._observations: dict[str, Any] = {}
        self._start(url, env_id, token, timeout, render_mode, kwargs, {}, form="aec")

    def _apply(self, payload: dict[str, Any]) -> None:
        self.agents = list(payload["agents"])
        self.agent_selection = payload["agent_selection"]
        self.rewards = wire.decode(payload["rewards"])
        self._cumulative_rewards = wire.decode(payload["cumulative_rewards"])
        self.terminations = dict(payload["terminations"])
        self.truncations = dict(payload["truncations"])
        self.infos = wire.decode(payload["infos"])
        self._observations = wire.decode(payload["observations"])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game on the server (a new session if the connection was lost)."""
        self._apply(self._reset_request(seed, options)["observation"])
        self._human_render()

    def step(self, action: Any, agent: str | None = None) -> None:
        """Play ``action`` for the agent to move (or for ``agent``, if named)."""
        data: dict[str, Any] = {"action": self._action(encode_action(action))}
        if agent is not None:
            data["agent"] = agent
        self._apply(self._request(protocol.STEP, data)["observation"])
        self._human_render()

    def observe(self, agent: str) -> Any:
        """What ``agent`` sees now (None for an agent no longer in the game)."""
        return self._observations.get(agent)


class RemoteParallelEnv(_ServedGame, ParallelEnv):
    """A simultaneous-move env served by ``envsuite serve``, behind PettingZoo's Parallel API.

    Description:
        The game ``env_id`` made on the server at ``url``, one WebSocket session per
        instance; same seed and actions give what the in-process env gives, exactly.

    Observation:
        Each agent's observation space of the served env, rebuilt from the server's
        description.

    Action:
        Each agent's action space of the served env. Any object is accepted: one with no
        wire form reaches the env as an object it cannot read (its own ``parse_error``
        and penalty apply).

    Reward:
        The served env's.

    Termination:
        The served env's.

    Arguments:
        url: ``http://host:port`` of the server.
        env_id: The served env's id.
        token: The server's bearer token, if it has one.
        timeout: Seconds to wait for each answer.
        render_mode: ``ansi`` and ``rgb_array`` are rendered on the server; ``human``
            prints the ``ansi`` frame here.
        kwargs: The env's keyword arguments (within what the server allows).

    Version history:
        v0: Initial release.
    """

    def __init__(
        self,
        url: str,
        env_id: str,
        *,
        token: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        self._start(url, env_id, token, timeout, render_mode, kwargs, {}, form="parallel")

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game on the server (a new session if the connection was lost)."""
        payload = self._reset_request(seed, options)["observation"]
        self.agents = list(payload["agents"])
        self._human_render()
        return wire.decode(payload["observations"]), wire.decode(payload["infos"])

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Play every live agent's action at once."""
        data = {"actions": self._action(encode_joint_action(actions, self.agents))}
        payload = self._request(protocol.STEP, data)["observation"]
        self.agents = list(payload["agents"])
        self._human_render()
        return (
            wire.decode(payload["observations"]),
            wire.decode(payload["rewards"]),
            dict(payload["terminations"]),
            dict(payload["truncations"]),
            wire.decode(payload["infos"]),
        )
