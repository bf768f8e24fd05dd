"""A depth-limited alpha-beta bot for Connect Four boards too big to solve (6 x 7).

The bot searches ``depth`` plies with negamax and alpha-beta pruning (centre-first move
order) and scores the leaves with a heuristic from the mover's point of view:

- a finished game: ``WIN_SCORE`` minus the plies it took for a win (so faster wins score
  higher), the negation for a loss, 0 for a draw;
- otherwise, over every window of ``connect`` cells in a line: a window holding only the
  mover's discs scores ``THREAT_WEIGHTS[k]`` for ``k`` discs (``connect - 1`` discs and an
  empty cell is a threat), the opponent's the negation; plus ``CENTRE_WEIGHT`` per disc
  in the centre column (both centre columns on even widths), the opponent's negated.

With at most ``ENDGAME_CELLS`` empty cells left the bot plays the exact solver's values
instead (win / draw / loss), so it never loses a won or drawn endgame to zugzwang.

Among root moves of equal score the bot picks with its own generator, seeded by
``reset(seed)``, so it is deterministic given its seed (seed None means 0) and still
varies between seeded games. Depth 1 sees only its own next move; each extra ply looks
one move further. Measured score rates (win 1, draw 1/2; seats alternate; four random
opening moves; ``tests/families/text/test_connect_four_bot.py``): every depth scores 1.00
against random moves; depth 2 vs 1: 0.78, 3 vs 1: 0.69, 5 vs 3: 0.69, 5 vs 4: 0.71. Odd
depths are the strong ones: depth 4 scored only 0.41 against depth 2 (the heuristic
favours the player who moves at the leaves), so prefer 3 or 5.
"""

from __future__ import annotations

import numpy as np

from envsuite.families.text.connect_four_rules import ConnectFourBoard, Geometry, has_line
from envsuite.families.text.connect_four_solver import Solver, centre_order

#: The score of a win now (a win ``n`` plies deeper scores ``WIN_SCORE - n``).
WIN_SCORE = 1_000_000
#: A window with 1, 2, ... of one player's discs and the rest empty (index = discs),
#: below ``connect - 1`` discs; windows longer than 4 reuse the last weight.
THREAT_WEIGHTS = (0, 1, 4)
#: Each cell that would complete a player's line (a threat), counted once however many
#: lines it completes; ``GOOD_PARITY`` times as much on the rows that favour its owner.
THREAT_WEIGHT = 16
GOOD_PARITY = 3
CENTRE_WEIGHT = 3
#: Empty cells at which the bot solves the rest of the game exactly (well under a second).
ENDGAME_CELLS = 14
#: The deepest search the bot accepts (deeper is very slow in pure Python).
MAX_DEPTH = 8


def windows(geometry: Geometry) -> list[int]:
    """Every line of ``connect`` cells on the board, as a bitmask."""
    found = []
    steps = ((1, 0), (0, 1), (1, 1), (-1, 1))  # (row step, column step)
    for row in range(geometry.rows):
        for col in range(geometry.cols):
            for d_row, d_col in steps:
                end_row = row + d_row * (geometry.connect - 1)
                end_col = col + d_col * (geometry.connect - 1)
                if not (0 <= end_row < geometry.rows and 0 <= end_col < geometry.cols):
                    continue
                mask = 0
                for k in range(geometry.connect):
                    mask |= geometry.bit(row + d_row * k, col + d_col * k)
                found.append(mask)
    return found


class HeuristicBot:
    """Alpha-beta to a fixed depth with the documented heuristic (see the module).

    Args:
        geometry: The board geometry.
        depth: Plies searched (1 to :data:`MAX_DEPTH`).

    """

    def __init__(self, geometry: Geometry, depth: int = 5) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be an int in [1, {MAX_DEPTH}], got {depth!r}")
        self.geometry = geometry
        self.depth = depth
        self.order = centre_order(geometry.cols)
        self.windows = windows(geometry)
        weights = list(THREAT_WEIGHTS) + [THREAT_WEIGHTS[-1]] * geometry.connect
        self.weights = weights[: geometry.connect]
        centre = {geometry.cols // 2, (geometry.cols - 1) // 2}
        self.centre_mask = 0
        for col in centre:
            for row in range(geometry.rows):
                self.centre_mask |= geometry.bit(row, col)
        odd = 0  # rows 1, 3, 5, ... counted from the bottom (0-based rows 0, 2, 4, ...)
        for row in range(0, geometry.rows, 2):
            for col in range(geometry.cols):
                odd |= geometry.bit(row, col)
        even = 0
        for row in range(1, geometry.rows, 2):
            for col in range(geometry.cols):
                even |= geometry.bit(row, col)
        #: The rows where each player's threats are worth the most (odd ones for the first
        #: player, even ones for the second: zugzwang leaves them to be filled last).
        self.good_rows = (odd, even)
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int | None = None) -> None:
        """Seed the tie-breaking generator (None means 0)."""
        self.rng = np.random.default_rng(0 if seed is None else seed)

    def root_scores(self, board: ConnectFourBoard) -> dict[int, int]:
        """Each legal column's score for the player to move."""
        work = board.clone()
        scores: dict[int, int] = {}
        alpha = -WIN_SCORE - 1
        for col in [c for c in self.order if work.can_play(c)]:
            work.play_unchecked(col)
            # Search each root move with a window that still tells ties apart.
            scores[col] = -self._negamax(work, self.depth - 1, -WIN_SCORE - 1, -alpha + 1, 1)
            work.undo()
            alpha = max(alpha, scores[col])
        return scores

    def choose(self, board: ConnectFourBoard) -> int:
        """The column to play: the best score, ties broken by the bot's generator.

        With at most :data:`ENDGAME_CELLS` empty cells the exact solver's values replace
        the heuristic search (its ties are broken the same way).
        """
        if board.over:
            raise ValueError("the game is over: there is no move")
        if board.geometry.cells - len(board.moves) <= ENDGAME_CELLS:
            scores = Solver(board.geometry).move_values(board)
        else:
            scores = self.root_scores(board)
        best = max(scores.values())
        tied = [col for col in self.order if scores.get(col) == best]
        return tied[int(self.rng.integers(len(tied)))] if len(tied) > 1 else tied[0]

    def evaluate(self, board: ConnectFourBoard) -> int:
        """The heuristic score of an unfinished position for the player to move."""
        mover = board.to_move
        mine = board.discs[mover]
        theirs = board.discs[1 - mover]
        weights = self.weights
        need = self.geometry.connect - 1
        score = 0
        my_threats = their_threats = 0
        for window in self.windows:
            own = mine & window
            other = theirs & window
            if own and not other:
                count = own.bit_count()
                if count == need:
                    my_threats |= window & ~own
                else:
                    score += weights[count]
            elif other and not own:
                count = other.bit_count()
                if count == need:
                    their_threats |= window & ~other
                else:
                    score -= weights[count]
        good, bad = self.good_rows[mover], self.good_rows[1 - mover]
        score += THREAT_WEIGHT * (
            GOOD_PARITY * (my_threats & good).bit_count()
            + (my_threats & ~good).bit_count()
            - GOOD_PARITY * (their_threats & bad).bit_count()
            - (their_threats & ~bad).bit_count()
        )
        centre = self.centre_mask
        return score + CENTRE_WEIGHT * ((mine & centre).bit_count() - (theirs & centre).bit_count())

    def _negamax(self, board: ConnectFourBoard, depth: int, alpha: int, beta: int, ply: int) -> int:
        if board.winner is not None:
            # The player who just moved won; the mover here lost.
            return -(WIN_SCORE - ply)
        if board.full:
            return 0
        geometry = self.geometry
        mine = board.discs[board.to_move]
        legal = [col for col in self.order if board.heights[col] < geometry.rows]
        for col in legal:
            if has_line(mine | (1 << (col * geometry.height + board.heights[col])), geometry):
                return WIN_SCORE - ply - 1
        if depth == 0:
            theirs = board.discs[1 - board.to_move]
            threats = 0
            for col in legal:
                if has_line(theirs | (1 << (col * geometry.height + board.heights[col])), geometry):
                    threats += 1
            if threats >= 2:  # two open threats: only one can be blocked
                return -(WIN_SCORE - ply - 2)
            return self.evaluate(board)
        best = -WIN_SCORE - 1
        for col in legal:
            board.play_unchecked(col)
            score = -self._negamax(board, depth - 1, -beta, -alpha, ply + 1)
            board.undo()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best
