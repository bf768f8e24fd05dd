"""The ``Maze-v0`` oracle: follow breadth-first distances to the goal (always a shortest path)."""

from __future__ import annotations

from typing import Any

import numpy as np

from envsuite.families.text.maze_rules import (
    DIRECTIONS,
    MazeLayout,
    distances_to,
    downhill_direction,
)


class MazeOracle:
    """Walks downhill on the BFS distance map of the env's current maze (hidden state).

    It reads the maze and the walker's position from ``env.unwrapped``, so it plays a
    shortest path whatever the observation shows (a partial view too), and answers with a
    direction's name in text mode and its index in vector mode.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self._layout: MazeLayout | None = None
        self._distance = np.zeros((1, 1), dtype=np.int32)

    def reset(self, seed: int | None = None) -> None:
        """Forget the last maze (the oracle draws nothing)."""
        self._layout = None

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The first move of a shortest path from where the walker stands."""
        raw = self.env
        if raw.layout is not self._layout:
            self._layout = raw.layout
            self._distance = distances_to(raw.layout.walls, raw.layout.goal)
        direction = downhill_direction(self._distance, raw.game.position)
        return direction if raw.observation_mode == "vector" else DIRECTIONS[direction]


def maze_oracle(env: Any) -> MazeOracle:
    """The Maze-v0 oracle (see :class:`MazeOracle`)."""
    return MazeOracle(env)
