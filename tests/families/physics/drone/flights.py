"""Shared helpers of the drone tests: skip without PyBullet, fly the oracle."""

from __future__ import annotations

import os
from typing import Any

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

from envsuite.families.physics.drone.oracle import drone_oracle, swarm_oracle


def fly_oracle(env: Any, seed: int, max_steps: int = 5000) -> tuple[dict[str, Any], int]:
    """Fly one episode of a single-drone env with its oracle: (final info, steps)."""
    oracle = drone_oracle(env)
    oracle.reset(seed)
    observation, info = env.reset(seed=seed)
    for step in range(1, max_steps + 1):
        observation, _, terminated, truncated, info = env.step(oracle.act(observation, info))
        if terminated or truncated:
            return info, step
    raise AssertionError("the episode did not end")


def fly_swarm_oracle(env: Any, seed: int) -> dict[str, dict[str, Any]]:
    """Fly one swarm episode with the oracle; return each agent's final info."""
    oracles = swarm_oracle(env)
    for oracle in oracles.values():
        oracle.reset(seed)
    observations, infos = env.reset(seed=seed)
    finals: dict[str, dict[str, Any]] = {}
    while env.agents:
        actions = {a: oracles[a].act(observations[a], infos[a]) for a in env.agents}
        observations, _, terminations, truncations, infos = env.step(actions)
        for agent in terminations:
            if terminations[agent] or truncations[agent]:
                finals[agent] = infos[agent]
    return finals
