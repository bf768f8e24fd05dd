"""The ``Sudoku-v0`` oracle: it plays the puzzle's unique solution, read from the env."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.sudoku_bank import encode


class SudokuOracle:
    """Erases any wrong digit of the player's, then writes the solution's digits in order.

    From a fresh puzzle it fills each empty cell once (``optimal_steps`` moves, efficiency
    1.0); in single-turn mode it answers the solved grid.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: every move is read from the env's state."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next placement (an erasure first, if a digit is wrong), or the solved grid."""
        env = self.env
        board, solution, n = env.board, env.solution, env.size
        if env.mode == "single":
            return encode(solution)
        wrong = [i for i, d in enumerate(board.grid) if d and d != solution[i]]
        cell = wrong[0] if wrong else board.grid.index(0)
        value = 0 if wrong else solution[cell]
        if env.text_mode:
            return f"r{cell // n + 1}c{cell % n + 1}={value}"
        return cell * (n + 1) + value


def sudoku_oracle(env: Any) -> SudokuOracle:
    """The Sudoku-v0 oracle (see :class:`SudokuOracle`)."""
    return SudokuOracle(env)
