"""Golden transcripts: one sha256 for everything an env does in a fixed-seed episode.

A test commits, per (env id, kwargs, seed, action script), the digest
:func:`transcript_digest` gives; any change to what the env shows or pays then fails the
test until the env's version is bumped and the digest renewed. The digest covers the reset
observation and info and, for every action of the script, the action and the full
``(observation, reward, terminated, truncated, info)`` it got, in canonical JSON (numpy
arrays by dtype, shape and bytes, so no precision is lost). Stepping stops early when an
episode ends, so a script may hold more actions than the episode takes. A turn-based
(PettingZoo AEC) env's script is played by whichever agent is to move; its rows hold every
agent's view after each action. A simultaneous-move (Parallel) spec is played in the AEC
form ``envsuite.make`` gives it, or, with ``parallel=True`` in the kwargs, by one joint
action (a dict by agent) per step until every agent is done.

Example::

    from envsuite.testing.golden import transcript_digest
    digest = transcript_digest("envsuite/Wordle-v0", {}, seed=0, actions=["crane", "xx"])
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from envsuite.jsonable import canonical_json


def transcript_rows(
    env_id: str, kwargs: Mapping[str, Any], seed: int, actions: Sequence[Any]
) -> list[str]:
    """The canonical JSON row of the reset and of each step, in order (for debugging)."""
    import envsuite

    env = envsuite.make(env_id, **dict(kwargs))
    api = envsuite.spec(env_id).api
    if api == "aec" or (api == "parallel" and not kwargs.get("parallel", False)):
        return _aec_rows(env, seed, actions)  # a Parallel spec is made in its AEC form
    try:
        observation, info = env.reset(seed=seed)
        rows = [canonical_json(["reset", _plain(observation), _plain(info)])]
        for action in actions:
            observation, reward, terminated, truncated, info = env.step(action)
            step = [action, observation, reward, terminated, truncated, info]
            rows.append(canonical_json(_plain(step)))
            if _episode_over(terminated, truncated):
                break
    finally:
        env.close()
    return rows


def _episode_over(terminated: Any, truncated: Any) -> bool:
    """Whether an episode has ended: for a Parallel env (flags per agent), every agent's."""
    if isinstance(terminated, Mapping):
        return all(terminated[agent] or truncated.get(agent, False) for agent in terminated)
    return bool(terminated or truncated)


def _aec_rows(env: Any, seed: int, actions: Sequence[Any]) -> list[str]:
    """A turn-based (AEC) env's rows: each action goes to the agent to move.

    A row holds the acting agent, its action and, for every agent, its observation,
    reward, termination, truncation and info; stepping stops once every agent is done.
    """
    try:
        env.reset(seed=seed)
        rows = [canonical_json(["reset", env.agent_selection, _plain(_aec_view(env))])]
        for action in actions:
            agent = env.agent_selection
            env.step(action)
            rows.append(canonical_json(_plain([agent, action, _aec_view(env)])))
            if all(env.terminations[a] or env.truncations[a] for a in env.agents):
                break
    finally:
        env.close()
    return rows


def _aec_view(env: Any) -> dict[str, Any]:
    return {
        agent: [
            env.observe(agent),
            env.rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        ]
        for agent in env.agents
    }


def transcript_digest(
    env_id: str, kwargs: Mapping[str, Any], seed: int, actions: Sequence[Any]
) -> str:
    """sha256 (hex) of :func:`transcript_rows`, one row per line."""
    rows = transcript_rows(env_id, kwargs, seed, actions)
    return hashlib.sha256("\n".join(rows).encode("utf-8")).hexdigest()


def _plain(value: Any) -> Any:
    """``value`` with numpy arrays written exactly (dtype, shape, bytes) for hashing."""
    if isinstance(value, np.ndarray):
        return {"dtype": str(value.dtype), "shape": list(value.shape), "hex": value.tobytes().hex()}
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
