"""Perfect play for Connect Four on small boards: a win/draw/loss solver, and a check on it.

:class:`Solver` is negamax with alpha-beta pruning over the values -1 (the player to move
loses), 0 (draw) and +1 (the player to move wins), with a transposition table keyed on the
position (:meth:`ConnectFourBoard.key`) that stores each value with its bound (exact,
lower or upper). Moves are searched centre first, and an immediate win is taken before
any search. The table persists across calls, so a solver that follows one game solves the
start once and the later positions almost for free.

:func:`exhaustive_value` is plain minimax over every continuation (memoised, no pruning,
no move ordering): slow, obviously correct, and what the tests compare the solver with.

How far this reaches in pure Python: a 4 x 5 board solves from empty in about a second,
5 x 5 in 10-20 s, 5 x 6 in about two minutes; the standard 6 x 7 board does not (the
first player wins it, Allis 1988 and Allen 1988; :mod:`connect_four_bot` plays it).
"""

from __future__ import annotations

import functools

from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry, has_line

WIN, DRAW, LOSS = 1, 0, -1
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Boards up to this many cells are solved perfectly by the oracle and the env (4 x 5 = 20:
#: about a second from empty; 5 x 5 takes 10-20 s, 5 x 6 about two minutes).
SOLVABLE_CELLS = 20


def centre_order(cols: int) -> list[int]:
    """The columns from the centre outward, left before right on ties."""
    return sorted(range(cols), key=lambda col: (abs(2 * col - (cols - 1)), col))


class Solver:
    """Exact win/draw/loss values and value-optimal moves for one board geometry.

    Args:
        geometry: The board geometry; positions given later must have it.

    """

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.order = centre_order(geometry.cols)
        self.table: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0

    def value(self, board: ConnectFourBoard) -> int:
        """The value of ``board`` for the player to move under perfect play."""
        if board.winner is not None:
            return WIN if board.winner == board.to_move else LOSS
        if board.full:
            return DRAW
        work = board.clone()
        return self._negamax(work, LOSS, WIN)

    def move_values(self, board: ConnectFourBoard) -> dict[int, int]:
        """Each legal column's value for the player to move (the value after it, negated)."""
        values: dict[int, int] = {}
        work = board.clone()
        for col in board.legal_moves():
            work.play_unchecked(col)
            if work.winner is not None:
                values[col] = WIN
            elif work.full:
                values[col] = DRAW
            else:
                values[col] = -self._negamax(work, LOSS, WIN)
            work.undo()
        return values

    def best_moves(self, board: ConnectFourBoard) -> list[int]:
        """The legal columns of the best value, in centre-first order."""
        values = self.move_values(board)
        best = max(values.values())
        return [col for col in self.order if values.get(col) == best]

    def _negamax(self, board: ConnectFourBoard, alpha: int, beta: int) -> int:
        """The value of ``board`` (not over) for the mover, within ``[alpha, beta]``."""
        self.nodes += 1
        geometry = self.geometry
        rows = geometry.rows
        heights = board.heights
        legal = [col for col in self.order if heights[col] < rows]
        # An immediate win ends the search.
        mine = board.discs[board.to_move]
        height = geometry.height
        for col in legal:
            if has_line(mine | (1 << (col * height + heights[col])), geometry):
                return WIN
        if len(board.moves) + 1 >= geometry.cells:
            return DRAW  # one cell left, and it does not win
        key = board.key()
        entry = self.table.get(key)
        original_alpha = alpha
        if entry is not None:
            stored, bound = entry
            if bound == _EXACT:
                return stored
            if bound == _LOWER:
                alpha = max(alpha, stored)
            else:
                beta = min(beta, stored)
            if alpha >= beta:
                return stored
        best = LOSS - 1
        for col in legal:
            board.play_unchecked(col)
            score = -self._negamax(board, -beta, -alpha)
            board.undo()
            if score > best:
                best = score
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        if best <= original_alpha:
            bound = _UPPER
        elif best >= beta:
            bound = _LOWER
        else:
            bound = _EXACT
        self.table[key] = (best, bound)
        return best


def exhaustive_value(board: ConnectFourBoard) -> int:
    """The value of ``board`` for the player to move, by full minimax (memoised).

    Every continuation is searched, in column order, with no pruning: the reference the
    solver is tested against.
    """
    memo: dict[tuple[int, int], int] = {}
    work = board.clone()

    def search() -> int:
        if work.winner is not None:
            return WIN if work.winner == work.to_move else LOSS
        if work.full:
            return DRAW
        key = work.key()
        if key in memo:
            return memo[key]
        best = LOSS
        for col in work.legal_moves():
            work.play_unchecked(col)
            best = max(best, -search())
            work.undo()
        memo[key] = best
        return best

    return search()


@functools.lru_cache(maxsize=8)
def shared_solver(geometry: Geometry) -> Solver:
    """One solver per geometry, whose table the env and its oracles share (small boards)."""
    return Solver(geometry)


@functools.lru_cache(maxsize=4096)
def opening_value(geometry: Geometry, moves: tuple[int, ...]) -> int:
    """The perfect-play value, for the player to move, of the position after ``moves``."""
    board = ConnectFourBoard(geometry)
    for col in moves:
        board.play(col)
    return shared_solver(geometry).value(board)
