"""A Gymnasium env whose episodes run on an envsuite server."""

from __future__ import annotations

from typing import Any

import gymnasium

from envsuite.remote import protocol, wire
from envsuite.remote.actions import encode_action
from envsuite.remote.connection import DEFAULT_TIMEOUT, Connection, SessionLost
from envsuite.remote.served_env import ServedEnv
from envsuite.remote.space_wire import build_space


class RemoteEnv(ServedEnv, gymnasium.Env[Any, Any]):
    """A single-agent env served by ``envsuite serve``, behind the Gymnasium API.

    Description:
        The env ``env_id`` made on the server at ``url`` with ``kwargs``, one WebSocket
        session per instance. Same seed and actions give the observations, rewards and
        infos the in-process env gives, exactly (values travel as exact JSON,
        :mod:`envsuite.remote.wire`).

    Observation:
        The served env's ``observation_space``, rebuilt from the server's description.

    Action:
        The served env's ``action_space``. Any object is accepted: one with no wire form
        reaches the env as an object it cannot read, so the env's own ``parse_error`` and
        penalty apply (:mod:`envsuite.remote.actions`).

    Reward:
        The served env's.

    Termination:
        The served env's (its step limit is applied on the server).

    Arguments:
        url: ``http://host:port`` of the server.
        env_id: The served env's id.
        token: The server's bearer token, if it has one.
        timeout: Seconds to wait for each answer.
        render_mode: ``ansi`` and ``rgb_array`` are rendered on the server; ``human``
            prints the ``ansi`` frame here.
        max_episode_steps: A step limit other than the registered one.
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
        max_episode_steps: int | None = None,
        **kwargs: Any,
    ) -> None:
        options = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
        self._start(url, env_id, token, timeout, render_mode, kwargs, options, form="gymnasium")

    def _adopt(self, described: dict[str, Any]) -> None:
        self.observation_space = build_space(described["observation_space"])
        self.action_space = build_space(described["action_space"])

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode on the server (a new session if the connection was lost)."""
        super().reset(seed=seed)
        data = self._reset_request(seed, options)
        answer = data["observation"]
        self._human_render()
        return wire.decode(answer["observation"]), wire.decode(answer["info"])

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One step on the server.

        Raises:
            SessionLost: the server is gone (stopped, restarted, or reaped the session).
        """
        data = self._request(protocol.STEP, {"action": self._action(encode_action(action))})
        answer = data["observation"]
        self._human_render()
        return (
            wire.decode(answer["observation"]),
            float(data["reward"]),
            bool(answer["terminated"]),
            bool(answer["truncated"]),
            wire.decode(answer["info"]),
        )


__all__ = ["DEFAULT_TIMEOUT", "Connection", "RemoteEnv", "SessionLost"]
