"""The ``Sokoban-v0`` oracle: it plays the level's move-optimal solution."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from envsuite.families.text.sokoban_rules import DIRECTIONS, LETTERS
from envsuite.families.text.sokoban_solver import solve_moves


class SokobanOracle:
    """Plays the certified move-optimal solution of the level.

    From the start it takes ``optimal_steps`` moves (efficiency 1.0). Dropped into a
    position it did not reach itself, it solves that position afresh (move-optimal from
    there).
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self.plan: list[int] = []
        self.expect: tuple[Any, ...] = ()

    def reset(self, seed: int | None = None) -> None:
        """Forget the plan."""
        self.plan, self.expect = [], ()

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next move of the plan (replanned when the position is not the expected one)."""
        env = self.env
        board, certified = env.board, env.certified
        if self._position() != self.expect or not self.plan:
            if board.moves == 0:
                letters = certified.solution
            else:
                here = replace(
                    certified.level, boxes=tuple(sorted(board.boxes)), player=board.player
                )
                # a lost position (no solution): any legal move will do
                letters = solve_moves(here) or LETTERS[board.legal()[0]]
            self.plan = [LETTERS.index(ch) for ch in letters]
        move = self.plan.pop(0)
        self.expect = self._after(move)
        return DIRECTIONS[move] if env.text_mode else move

    def _position(self) -> tuple[Any, ...]:
        board = self.env.board
        return (self.env.certified.solution, frozenset(board.boxes), board.player, board.moves)

    def _after(self, move: int) -> tuple[Any, ...]:
        """The position the move leads to."""
        board, level = self.env.board, self.env.certified.level
        step = level.step(move)
        player = board.player + step
        boxes = set(board.boxes)
        if player in boxes:
            boxes.remove(player)
            boxes.add(player + step)
        return (self.env.certified.solution, frozenset(boxes), player, board.moves + 1)


def sokoban_oracle(env: Any) -> SokobanOracle:
    """The Sokoban-v0 oracle (see :class:`SokobanOracle`)."""
    return SokobanOracle(env)
