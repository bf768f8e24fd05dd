"""Many concurrent remote episodes and their in-process twins (the load test and benchmark)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import numpy as np

import envsuite
from envsuite.remote.async_session import AsyncSession
from envsuite.seeding import derive_seed

#: What each concurrent session plays: a short text bandit.
ENV_ID = "envsuite/Bandit-v0"
KWARGS = {"horizon": 20}
ARMS = ("blue", "green", "red", "yellow", "purple")


def actions_for(episode: int) -> list[Any]:
    """The actions of episode ``episode``: arm names, and a malformed answer now and then."""
    rng = np.random.default_rng(derive_seed(episode, "serve-load-actions"))
    return [
        "press it!" if rng.random() < 0.1 else ARMS[int(rng.integers(len(ARMS)))]
        for _ in range(KWARGS["horizon"])
    ]


def in_process(episode: int) -> list[Any]:
    """Everything the in-process env returns in episode ``episode``."""
    env = envsuite.make(ENV_ID, **KWARGS)
    record: list[Any] = [env.reset(seed=episode)]
    for action in actions_for(episode):
        record.append(env.step(action))
    env.close()
    return record


async def remote(url: str, episode: int, latencies: list[float]) -> list[Any]:
    """Everything the served env returns in episode ``episode``; step latencies appended."""
    async with AsyncSession(url, ENV_ID, timeout=120, **KWARGS) as session:
        record: list[Any] = [await session.reset(seed=episode)]
        for action in actions_for(episode):
            started = time.perf_counter()
            record.append(await session.step(action))
            latencies.append(time.perf_counter() - started)
    return record


async def run_concurrently(url: str, episodes: int, latencies: list[float]) -> list[Any]:
    """``episodes`` sessions at once, each opened before any plays (all concurrent)."""
    return list(await asyncio.gather(*(remote(url, i, latencies) for i in range(episodes))))
