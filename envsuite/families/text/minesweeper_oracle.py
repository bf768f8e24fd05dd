"""The ``Minesweeper-v0`` oracle: reveal only what the visible numbers prove safe."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.minesweeper_rules import MinesweeperGame
from envsuite.families.text.minesweeper_solver import LogicSolver, bits, sync


class MinesweeperOracle:
    """A logical player: it sees what the player sees and never guesses.

    It plays the rounds of :func:`~.minesweeper_solver.solves_without_guessing`, the check
    that certified the board: deduce from the revealed numbers, note the proven mines,
    reveal every proven-safe cell one per turn, deduce again. Its views are the certifier's,
    so it clears every board the generator makes (the tests prove it on many seeds). It
    reads the revealed cells from ``env.unwrapped`` (never the mines), answers
    ``reveal ROW COL`` in text mode and the cell's index in vector mode, and places no
    flags: they are not needed to win.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self._game: MinesweeperGame | None = None
        self._solver: LogicSolver | None = None
        self._queue: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        """Forget the last game."""
        self._game = None

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """Reveal the next proven-safe cell (the lowest hidden cell if none is proven)."""
        raw = self.env
        game = raw.game
        if self._solver is None or game is not self._game:
            board = game.board
            self._game, self._queue = game, []
            self._solver = LogicSolver(board.rows, board.cols, len(board.mines))
        solver = self._solver
        sync(solver, game)
        self._queue = [cell for cell in self._queue if not game.revealed[cell]]
        while not self._queue:
            safe, mines = solver.deduce()
            solver.mark_mines(mines)
            self._queue = bits(safe)[::-1]
            if not safe and not mines:
                break
        if self._queue:
            cell = self._queue.pop()
        else:  # only on a board that needs a guess, which the generator never makes
            cell = next(c for c in range(raw.cells) if not game.revealed[c] and not game.flagged[c])
        if raw.observation_mode == "vector":
            return cell
        return f"reveal {cell // raw.cols + 1} {cell % raw.cols + 1}"


def minesweeper_oracle(env: Any) -> MinesweeperOracle:
    """The Minesweeper-v0 oracle (see :class:`MinesweeperOracle`)."""
    return MinesweeperOracle(env)
