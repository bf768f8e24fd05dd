"""The served env's oracle, asked over the wire (servers started with ``--allow-oracle``).

The oracle runs on the server, next to the env whose hidden state it reads; the client
sends it each observation and info and gets its action back. A multi-agent env gets one
seat per possible agent, as in-process oracles are mappings of agent to agent.
"""

from __future__ import annotations

from typing import Any

from envsuite.remote import protocol, wire
from envsuite.remote.served_env import ServedEnv


def served_env(env: Any) -> ServedEnv:
    """The remote env under ``env``'s Gymnasium or PettingZoo wrappers.

    Raises:
        TypeError: ``env`` is not a remote env (nor wraps one).
    """
    seen = 0
    while not isinstance(env, ServedEnv) and seen < 32:
        inner = getattr(env, "env", None) or getattr(env, "aec_env", None)
        if inner is None:
            inner = getattr(env, "unwrapped", None)
            if inner is env:
                inner = None
        if inner is None:
            break
        env, seen = inner, seen + 1
    if not isinstance(env, ServedEnv):
        raise TypeError(f"{type(env).__name__} is not an env served by envsuite serve")
    return env


class RemoteOracle:
    """One seat of the server's oracle (``agent`` None for single-agent envs)."""

    def __init__(self, env: ServedEnv, agent: str | None) -> None:
        self.env = env
        self.agent = agent

    def reset(self, seed: int | None = None) -> None:
        """Reset the oracle's seat on the server (it is built on first use)."""
        self.env._request(protocol.ORACLE_RESET, {"agent": self.agent, "seed": seed})

    def act(self, observation: Any, info: Any) -> Any:
        """The oracle's action for ``observation`` and ``info``."""
        data = {
            "agent": self.agent,
            "observation": wire.encode(observation),
            "info": wire.encode(info),
        }
        return wire.decode(self.env._request(protocol.ORACLE_ACT, data)["action"])


def remote_oracle(env: Any) -> Any:
    """The oracle factory of a served env (see :mod:`envsuite.remote.conformance`)."""
    served = served_env(env)
    agents = getattr(served, "possible_agents", None)
    if agents is None:
        return RemoteOracle(served, None)
    return {agent: RemoteOracle(served, agent) for agent in agents}
