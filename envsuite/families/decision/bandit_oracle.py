"""The ``Bandit-v0`` oracle (the agents themselves are in :mod:`.bandit_policies`)."""

from __future__ import annotations

from typing import Any

from envsuite.families.decision.bandit_policies import UCB1Agent


def bandit_oracle(env: Any) -> UCB1Agent:
    """The Bandit-v0 oracle: UCB1 scaled to the env's reward range or noise."""
    raw = env.unwrapped
    names = raw.names if raw.observation_mode == "text" else None
    scale = 1.0 if raw.arm_type == "bernoulli" else raw.reward_std
    return UCB1Agent(raw.num_arms, names, scale)
