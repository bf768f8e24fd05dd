"""The ``ContextualBandit-v0`` oracle (LinUCB itself is in :mod:`.linucb`)."""

from __future__ import annotations

from typing import Any

from envsuite.families.decision.linucb import LinUCBAgent


def linucb_oracle(env: Any) -> LinUCBAgent:
    """Build the ContextualBandit-v0 oracle: LinUCB with α = 1 and λ = 1.

    α = 1 was the best or close to it of {0.1, 0.25, 0.5, 1, 2} for noise_std from 0.1 to
    1 (the env's θ_a are unit vectors, so the ridge prior, not the noise, sets the scale).
    """
    raw = env.unwrapped
    names = raw.names if raw.observation_mode == "text" else None
    return LinUCBAgent(raw.num_arms, raw.context_dim, names, alpha=1.0, ridge=1.0)
