"""The ``Experts-v0`` oracle (Hedge itself is in :mod:`.hedge`)."""

from __future__ import annotations

from typing import Any

from envsuite.families.decision.hedge import HedgeAgent


def hedge_oracle(env: Any) -> HedgeAgent:
    """Build the Experts-v0 oracle: Hedge with η = √(8 ln N / T) for the env's N and T."""
    raw = env.unwrapped
    names = raw.names if raw.observation_mode == "text" else None
    return HedgeAgent(raw.num_actions, raw.horizon, names)
