"""The ChessEndgame-v0 oracle: a depth-to-mate-optimal player from the exact tables."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.chess_endgame_rules import EndgameBoard, Move
from envsuite.families.text.chess_endgame_tables import move_values


def fastest_mate(board: EndgameBoard) -> Move:
    """A move of the strong side that mates soonest against any defence.

    Among the moves to a lost position (weak to move) it takes one with the smallest depth
    to mate, the first in the engine's move order on a tie (king moves first).

    Raises:
        ValueError: no move wins (the position is a draw).
    """
    best: tuple[int, Move] | None = None
    for move, value in move_values(board):
        if value >= 0 and (best is None or value < best[0]):
            best = (value, move)
    if best is None:
        raise ValueError(f"{board!r} is not won")
    return best[1]


class ChessEndgameOracle:
    """Plays :func:`fastest_mate` in the env's position, as SAN or as a vector action."""

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the oracle reads the position from the env each move."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The fastest mate's move, as SAN (text mode) or a vector action."""
        from envsuite.families.text.chess_endgame import action_of

        env = self.env
        move = fastest_mate(env.board)
        return env.move_text(move) if env.text_mode else action_of(move)


def chess_endgame_oracle(env: Any) -> ChessEndgameOracle:
    """The ChessEndgame-v0 oracle: mates in the depth to mate (``info["optimal_steps"]``)."""
    return ChessEndgameOracle(env)
