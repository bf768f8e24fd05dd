"""The social benchmarks' shared loops: chance draws, scripted replays and bot games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np


def draw(game: Any, rng: np.random.Generator, chance: Any) -> None:
    """Draw ``game``'s pending chance events (phase ``chance``) from ``rng``, as the env does."""
    while game.phase is chance:
        options = game.chance_outcomes()
        game.apply_chance(options[int(rng.integers(len(options)))])


def env_random(env: Any, encoded: list[list[Any]]) -> int:
    """Replay each seed's scripted actions through ``env`` (a ``last()`` after each step).

    Returns the games that ended.
    """
    ended = 0
    for seed, actions in enumerate(encoded):
        env.reset(seed=seed)
        for action in actions:
            env.step(action)
            env.last()
        ended += env.unwrapped.game.over
    return ended


def bot_games(env: Any, bot: type, games: int) -> Iterator[Any]:
    """Play ``games`` games (seeds 0, 1, ...) with a ``bot`` in every seat through ``env``.

    Bot ``i`` is reseeded with ``seed * 100 + i`` each game. Yields each finished game's
    rules engine (read it before asking for the next).
    """
    bots = {agent: bot(env) for agent in env.possible_agents}
    for seed in range(games):
        env.reset(seed=seed)
        for index, one in enumerate(bots.values()):
            one.reset(seed * 100 + index)
        for agent in env.agent_iter(100_000):
            observation, _, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else bots[agent].act(observation, info))
        yield env.unwrapped.game
