"""The Connect Four oracle: perfect play on small boards, an alpha-beta bot on large ones.

On boards of at most :data:`~connect_four_solver.SOLVABLE_CELLS` cells (and
``oracle_depth=None``) each seat plays a value-optimal move from the exact solver: from a
won position it keeps the win, from a drawn one it never loses, and among moves of equal
value it takes the most central one (deterministic, no generator). Otherwise, or when the
env was made with ``oracle_depth=N``, it plays :class:`~connect_four_bot.HeuristicBot` at
depth N (5 when None), whose ties are broken by a generator seeded by ``reset(seed)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.text.connect_four_bot import HeuristicBot
from envsuite.families.text.connect_four_solver import SOLVABLE_CELLS, shared_solver

#: The bot's depth on boards too big to solve when the env names none.
DEFAULT_DEPTH = 5


class ConnectFourOracle:
    """Plays one seat of a :class:`~connect_four.ConnectFourEnv` (see the module).

    It reads the board from ``env.unwrapped.board``, as oracles may, and answers in the
    env's action form (text or a column index).

    Args:
        env: The env it plays in (any wrapper of a ConnectFourEnv).

    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        geometry = self.env.geometry
        depth = self.env.oracle_depth
        self.perfect = depth is None and geometry.cells <= SOLVABLE_CELLS
        self.bot = None if self.perfect else HeuristicBot(geometry, depth or DEFAULT_DEPTH)

    def reset(self, seed: int | None = None) -> None:
        """Seed the bot's tie-breaking (the perfect player needs no generator)."""
        if self.bot is not None:
            self.bot.reset(seed)

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The oracle's column in the current position, in the env's action form."""
        board = self.env.board
        if self.bot is not None:
            col = self.bot.choose(board)
        else:
            col = shared_solver(board.geometry).best_moves(board)[0]
        return self.env.encode_move(col)


def connect_four_oracle(env: Any) -> dict[str, ConnectFourOracle]:
    """Build the ConnectFour-v0 oracle: one player per seat."""
    return {agent: ConnectFourOracle(env) for agent in env.unwrapped.possible_agents}
