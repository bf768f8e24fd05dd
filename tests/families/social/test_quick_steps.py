"""The social envs' shortcuts for the common step give exactly what the general path gives.

A step whose action is legal for the player to move skips the AEC base's general
bookkeeping (``_quick_step``; Werewolf and Mafia have their own, leaner one), and
observations are built from caches.
Each case plays the same seeded games twice, once with the shortcut and once with it
turned off (``_quick = False``), the players mixing listed actions, free speech, refused
commands, off-turn actions and dead steps, and compares after every step everything an
agent can read: every agent's observation, rewards, cumulative rewards, terminations,
truncations, infos, the agent to move and the live agents.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envsuite

CASES = [
    ("envsuite/Werewolf-v0", {"num_players": 7}),
    ("envsuite/Werewolf-v0", {"num_players": 8, "speaking_order": "bidding"}),
    ("envsuite/Werewolf-v0", {"num_players": 6, "reveal_roles_on_death": True}),
    ("envsuite/Mafia-v0", {"num_players": 7}),
    ("envsuite/Avalon-v0", {"num_players": 7}),
    ("envsuite/AmongUs-v0", {"num_players": 5}),
]


def plain(value: Any) -> Any:
    """``value`` with arrays as (dtype, shape, bytes) and containers as lists, to compare."""
    if isinstance(value, np.ndarray):
        return ("array", str(value.dtype), value.shape, value.tobytes())
    if isinstance(value, dict):
        return [(key, type(item).__name__, plain(item)) for key, item in value.items()]
    if isinstance(value, list | tuple):
        return [type(value).__name__, *(plain(item) for item in value)]
    return (type(value).__name__, value)


def snapshot(env: Any) -> Any:
    return plain(
        {
            "agent_selection": env.agent_selection,
            "agents": list(env.agents),
            "rewards": dict(env.rewards),
            "cumulative": dict(env._cumulative_rewards),
            "terminations": dict(env.terminations),
            "truncations": dict(env.truncations),
            "infos": dict(env.infos),
            "last": env.last() if env.agents else None,
            "observations": {agent: env.observe(agent) for agent in env.agents},
        }
    )


def choose(env: Any, rng: np.random.Generator) -> tuple[Any, str | None]:
    """A mostly legal action of the agent to move, sometimes a refused or off-turn one."""
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return (None if rng.random() < 0.9 else "vote Alice"), None
    info = env.infos[agent]
    roll = rng.random()
    if roll < 0.05:
        return "gibberish", None
    if roll < 0.08:
        other = env.agents[int(rng.integers(len(env.agents)))]
        return ("pass" if "legal_actions" in info else 0), other
    if roll < 0.1:
        return ("vote Nobody" if "legal_actions" in info else 10_000), None
    if "legal_actions" in info:
        if roll < 0.25 and env.unwrapped.game.phase.value == "discussion":
            return f"say: I suspect {['Alice', 'Bob'][int(rng.integers(2))]}.", None
        legal = info["legal_actions"]
        return legal[int(rng.integers(len(legal)))], None
    choices = np.flatnonzero(info["action_mask"])
    return int(choices[int(rng.integers(len(choices)))]), None


@pytest.mark.parametrize("mode", ["text", "vector"])
@pytest.mark.parametrize(("env_id", "kwargs"), CASES)
def test_the_shortcut_leaves_every_step_as_the_general_path_does(env_id, kwargs, mode):
    quick = envsuite.make(env_id, observation_mode=mode, **kwargs)
    general = envsuite.make(env_id, observation_mode=mode, **kwargs)
    assert quick.unwrapped._quick
    general.unwrapped._quick = False
    rng = np.random.default_rng(7)
    for seed in range(4):
        quick.reset(seed=seed)
        general.reset(seed=seed)
        assert snapshot(quick) == snapshot(general)
        for _ in range(3000):
            if not quick.agents:
                break
            action, agent = choose(quick, rng)
            quick.step(action, agent)
            general.step(action, agent)
            assert snapshot(quick) == snapshot(general)
        assert not quick.agents and not general.agents
