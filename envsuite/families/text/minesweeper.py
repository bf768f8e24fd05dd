"""``envsuite/Minesweeper-v0``: clear a minefield that logic alone can clear."""

from __future__ import annotations

import functools
import re
from itertools import compress
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.minesweeper_generator import PRESETS, draw_board
from envsuite.families.text.minesweeper_rules import MinesweeperBoard, MinesweeperGame
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

Move = tuple[str, int]  # ("reveal" | "flag" | "unflag", cell)

#: Vector-mode codes of a cell: 0 to 8 revealed numbers, then these.
HIDDEN, FLAGGED = 9, 10
#: Boards of at most this many cells list their legal actions in text mode.
LEGAL_ACTIONS_LIMIT = 100
_VERBS = {
    "reveal": "reveal",
    "open": "reveal",
    "click": "reveal",
    "dig": "reveal",
    "r": "reveal",
    "flag": "flag",
    "mark": "flag",
    "f": "flag",
    "unflag": "unflag",
    "unmark": "unflag",
    "u": "unflag",
}
_MOVE = re.compile(r"(?:([a-z]+)\s*:?\s*)?\(?\s*(\d{1,4})\s*(?:,\s*|\s+)(\d{1,4})\s*\)?")
MOVE_FORMAT = "answer 'reveal ROW COL', 'flag ROW COL' or 'unflag ROW COL' (counting from 1)"


@functools.cache
def _cell_names(rows: int, cols: int) -> tuple[str, ...]:
    return tuple(f"{cell // cols + 1} {cell % cols + 1}" for cell in range(rows * cols))


@functools.cache
def _action_names(rows: int, cols: int) -> tuple[tuple[str, ...], ...]:
    """Per verb (reveal, flag, unflag), every cell's legal-action text."""
    names = _cell_names(rows, cols)
    return tuple(tuple(f"{verb} {name}" for name in names) for verb in ("reveal", "flag", "unflag"))


@functools.cache
def _moves_by_text(rows: int, cols: int) -> dict[str, Move]:
    """The moves of the canonical texts ``reveal R C``, ``flag R C``, ``unflag R C``, ``R C``."""
    moves: dict[str, Move] = {}
    for cell, name in enumerate(_cell_names(rows, cols)):
        moves[name] = ("reveal", cell)
        for verb in ("reveal", "flag", "unflag"):
            moves[f"{verb} {name}"] = (verb, cell)
    return moves


class MinesweeperEnv(TextGameEnv[Move]):
    """Reveal every safe cell of a minefield that can be cleared without guessing.

    Description:
        A board of ``rows`` x ``cols`` cells hides ``mines`` mines. The first reveal is made
        for you at reset: the start cell has no mine on or around it, so it opens an area.
        Every board is checked by a sound constraint solver (single numbers, the mine
        total, subset rules and exact enumeration of frontier components up to 24 cells;
        see :mod:`.minesweeper_solver`) to be clearable from there by logic alone: at
        every point some hidden cell is provably safe, so no guess is ever needed. Boards
        the solver cannot clear are redrawn, at most ``max_attempts`` times (then a
        RuntimeError). ``optimal_steps`` is the board's 3BV less the start's opening: the
        fewest reveals that clear it.

        Splits: the key (size, mine cells, start) is hashed. Candidate boards number the
        sum over start cells of C(cells - start's area, mines): 5.4 * 10^13 for beginner,
        6.6 * 10^48 for intermediate, 3.9 * 10^106 for expert; of these the solver clears
        about 91% (beginner), 71% (intermediate) and 9% (expert) (measured on 300, 300 and
        100 candidates), so each split holds over 10^12 distinct boards in every preset;
        val and test a tenth each. Small boards have few: 5x5 with 3 mines has about
        2 * 10^4 candidates in all. Bigger boards or higher densities than the training
        ones serve as held-out settings for out-of-distribution tests.

    Observation:
        Text (see the family base for the history modes): the board with row and column
        numbers from 1 (``#`` hidden, ``F`` flagged, ``.`` revealed with no mine around,
        ``1``-``8`` the mines around a revealed cell; after a loss ``*`` marks the mines),
        after a line with the mines, flags and cells left. Every move's feedback shows the
        board after it. Vector mode: an int8 ``(rows, cols)`` grid, 0-8 for revealed
        numbers, 9 hidden, 10 flagged.

    Action:
        Text: ``reveal ROW COL``, ``flag ROW COL`` or ``unflag ROW COL`` (also ``open``,
        ``click``, ``dig``, ``r``; ``mark``, ``f``; ``unmark``, ``u``; a bare ``ROW COL``
        reveals; ``(3, 5)`` works too). Vector: ``Discrete(2 * rows * cols)``: ``i`` reveals
        cell ``i`` (row-major), ``rows * cols + i`` flags or unflags it, with
        ``action_mask``. Text mode lists the legal actions in ``info["legal_actions"]`` on
        boards of at most 100 cells. Illegal: a cell off the board, revealing a revealed
        or flagged cell, flagging a revealed or flagged cell, unflagging a cell without a
        flag (each names its rule).

    Reward:
        1.0 for clearing the board, -1.0 for revealing a mine, 0 for other moves,
        ``-invalid_penalty`` for a malformed or illegal action. ``score`` is the fraction of
        safe cells revealed (1.0 on a win).

    Termination:
        Terminated when every safe cell is revealed (success) or a mine is revealed
        (failure); truncated after ``max_turns``.

    Arguments:
        preset: ``"beginner"`` (9x9, 10 mines), ``"intermediate"`` (16x16, 40) or
            ``"expert"`` (16x30, 99); ``rows``, ``cols`` and ``mines`` override it.
        rows: Rows (4 to 40).
        cols: Columns (4 to 40).
        mines: Mines (1 to ``rows * cols - 9``); or give ``density`` instead.
        density: Mines as a fraction of the cells (rounded), instead of ``mines``.
        max_attempts: Solver checks per reset before giving up (RuntimeError).
        max_turns: Turns before truncation; None for ``2 * rows * cols``.
        observation_mode, history, split, invalid_penalty, render_mode: see the family
            base (:class:`~envsuite.families.text.text_game.TextGameEnv`).

    Version history:
        v0: Initial version.
    """

    game_name = "minesweeper"
    observation_modes = ("text", "vector")

    def __init__(
        self,
        *,
        preset: str = "beginner",
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        density: float | None = None,
        max_attempts: int = 1000,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Any = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        if preset not in PRESETS:
            raise ValueError(f"preset must be one of {', '.join(PRESETS)}; got {preset!r}")
        preset_rows, preset_cols, preset_mines = PRESETS[preset]
        rows = preset_rows if rows is None else rows
        cols = preset_cols if cols is None else cols
        for name, value in (("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or not isinstance(value, int) or not 4 <= value <= 40:
                raise ValueError(f"{name} must be an int from 4 to 40; got {value!r}")
        if mines is not None and density is not None:
            raise ValueError("give mines or density, not both")
        if density is not None:
            if isinstance(density, bool) or not isinstance(density, int | float):
                raise ValueError(f"density must be a number in (0, 1); got {density!r}")
            if not 0 < density < 1:
                raise ValueError(f"density must be a number in (0, 1); got {density!r}")
            mines = max(1, round(density * rows * cols))
        if mines is None:
            mines = preset_mines
        if (
            isinstance(mines, bool)
            or not isinstance(mines, int)
            or not 1 <= mines <= rows * cols - 9
        ):
            raise ValueError(f"mines must be an int from 1 to {rows * cols - 9}; got {mines!r}")
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
            raise ValueError(f"max_attempts must be a positive int; got {max_attempts!r}")
        self.rows, self.cols, self.mines = rows, cols, mines
        self.max_attempts = max_attempts
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=2 * rows * cols if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.cells = rows * cols
        self._names = _cell_names(rows, cols)
        self._action_names = _action_names(rows, cols)
        self._moves = _moves_by_text(rows, cols)
        # Per cell, whether it is hidden and unflagged (what reveal and flag may take).
        self._available = [True] * self.cells
        self.board = MinesweeperBoard(rows, cols, (), 0)
        self.game = MinesweeperGame(self.board)
        # The vector observation, kept in step move by move (flat: one entry per cell; a
        # pickle copies it whole, so no view of it is kept between moves).
        self._grid = np.full(rows * cols, HIDDEN, dtype=np.int8)
        self._mask = np.zeros(2 * self.cells, dtype=np.int8)
        # The text board's cells, kept in step move by move, and its column header.
        self._width = len(str(cols))
        self._symbols = tuple(s.rjust(self._width) for s in ".12345678#F")
        self._marks = [self._symbols[HIDDEN]] * self.cells
        # The text board's rows, remade only when a cell of theirs changed.
        self._row_texts = [""] * rows
        self._dirty_rows = set(range(rows))
        self._header = (
            " " * len(str(rows)) + " " + " ".join(f"{c:>{self._width}}" for c in range(1, cols + 1))
        )

    # -- drawing the instance ------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a no-guess board of the split and make the first reveal."""
        self.board = draw_board(
            self.np_random,
            self.game_name,
            self.split,
            self.rows,
            self.cols,
            self.mines,
            self.max_attempts,
        )
        self.game = MinesweeperGame(self.board)
        self._grid[:] = HIDDEN
        self._mask[:] = 1
        self._marks = [self._symbols[HIDDEN]] * self.cells
        self._available = [True] * self.cells
        self._dirty_rows = set(range(self.rows))
        self._opened(self.game.reveal(self.board.start))
        self.optimal_steps = self.board.three_bv - 1

    def _opened(self, cells: list[int]) -> None:
        """Keep the vector grid, the mask and the text board in step with revealed cells."""
        numbers, flat, mask, total = self.board.numbers, self._grid, self._mask, self.cells
        marks, symbols, available = self._marks, self._symbols, self._available
        for cell in cells:
            flat[cell] = numbers[cell]
            marks[cell] = symbols[numbers[cell]]
            available[cell] = False
            mask[cell] = 0
            mask[total + cell] = 0
        cols = self.cols
        self._dirty_rows.update({cell // cols for cell in cells})

    def instance_key(self) -> str:
        """Size, mine cells and start cell."""
        return self.board.key()

    # -- text ----------------------------------------------------------------------------
    def instructions(self) -> str:
        """The rules, the symbols and the actions."""
        return (
            f"Minesweeper: {self.rows} rows x {self.cols} columns hide {self.mines} mines. "
            "Reveal every cell without a mine. A revealed number says how many of its (up to "
            "8) neighbours hold a mine; a revealed cell with none (.) opens its neighbours. "
            "# is hidden, F flagged. The first cell is revealed for you, and the board can be "
            "cleared by logic alone: no guess is ever needed. Revealing a mine loses. "
            f"Actions: reveal ROW COL, flag ROW COL, unflag ROW COL (rows and columns count "
            f"from 1). {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The counts line and the board with row and column numbers."""
        game = self.game
        flags = sum(game.flagged)
        left = game.safe_cells - game.revealed_count
        marks = self._marks
        cols, label = self.cols, len(str(self.rows))
        lines = [
            f"{self.mines} mines, {flags} flagged, {left} safe cells left to reveal.",
            self._header,
        ]
        if game.lost:
            marks = list(marks)
            for mine in self.board.mines:
                marks[mine] = "*".rjust(self._width)
            for row in range(self.rows):
                lines.append(
                    f"{row + 1:>{label}} " + " ".join(marks[row * cols : (row + 1) * cols])
                )
            return "\n".join(lines)
        rows = self._row_texts
        for row in self._dirty_rows:
            rows[row] = f"{row + 1:>{label}} " + " ".join(marks[row * cols : (row + 1) * cols])
        self._dirty_rows.clear()
        lines.extend(rows)
        return "\n".join(lines)

    def parse_move(self, answer: str) -> Move:
        """A verb and a cell; the rules checked in the documented order."""
        move = self._moves.get(answer)
        if move is not None:  # a canonical text such as "reveal 3 5": on the board
            return self._checked(*move)
        found = _MOVE.fullmatch(answer.strip().lower())
        if found is None:
            raise InvalidAction(f"cannot read {answer[:40]!r}; {MOVE_FORMAT}")
        verb = _VERBS.get(found.group(1) or "reveal")
        if verb is None:
            raise InvalidAction(f"unknown action {found.group(1)[:20]!r}; {MOVE_FORMAT}")
        row, col = int(found.group(2)), int(found.group(3))
        if not 1 <= row <= self.rows:
            raise InvalidAction(f"row {row} is off the board; rows are 1 to {self.rows}")
        if not 1 <= col <= self.cols:
            raise InvalidAction(f"column {col} is off the board; columns are 1 to {self.cols}")
        return self._checked(verb, (row - 1) * self.cols + col - 1)

    def _checked(self, verb: str, cell: int) -> Move:
        game = self.game
        where = f"row {cell // self.cols + 1}, column {cell % self.cols + 1}"
        if verb == "reveal":
            if game.revealed[cell]:
                raise InvalidAction(f"{where} is already revealed")
            if game.flagged[cell]:
                raise InvalidAction(f"{where} is flagged; unflag it before revealing it")
        elif verb == "flag":
            if game.revealed[cell]:
                raise InvalidAction(f"{where} is revealed; only hidden cells can be flagged")
            if game.flagged[cell]:
                raise InvalidAction(f"{where} is already flagged")
        elif not game.flagged[cell]:
            raise InvalidAction(f"{where} has no flag to remove")
        return verb, cell

    def play(self, move: Move) -> MoveResult:
        """Reveal, flag or unflag; the feedback shows the board after the move."""
        verb, cell = move
        game = self.game
        if verb == "reveal":
            opened = game.reveal(cell)
            if not game.lost:
                self._opened(opened)
            reward = -1.0 if game.lost else 1.0 if game.won else 0.0
        else:
            flag = verb == "flag"
            game.set_flag(cell, flag)
            self._grid[cell] = FLAGGED if flag else HIDDEN
            self._marks[cell] = self._symbols[FLAGGED if flag else HIDDEN]
            self._available[cell] = not flag
            self._dirty_rows.add(cell // self.cols)
            self._mask[cell] = not flag
            reward = 0.0
        if not self.text_mode:
            return MoveResult("", reward, game.over, game.won)
        where = f"row {cell // self.cols + 1}, column {cell % self.cols + 1}"
        if verb != "reveal":
            said = f"{'Flagged' if verb == 'flag' else 'Unflagged'} {where}."
        elif game.lost:
            said = f"Revealed {where}: a mine! You lost."
        else:
            number = self.board.numbers[cell]
            said = f"Revealed {where}: {number}" + (
                f", opening {len(opened)} cells." if len(opened) > 1 else "."
            )
            if game.won:
                said += " Every safe cell is revealed: you won!"
        return MoveResult(f"{said}\n{self.state_text()}", reward, game.over, game.won)

    def legal_moves(self) -> list[str] | None:
        """Every legal action on boards of at most 100 cells (None on bigger ones)."""
        if self.cells > LEGAL_ACTIONS_LIMIT:
            return None
        reveal, flag, unflag = self._action_names
        available = self._available  # hidden and unflagged; a flagged cell is hidden
        return [
            *compress(reveal, available),
            *compress(flag, available),
            *compress(unflag, self.game.flagged),
        ]

    def score(self, success: bool) -> float:
        """The fraction of safe cells revealed."""
        return self.game.revealed_count / self.game.safe_cells

    # -- vector --------------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """The cell-code grid and ``Discrete(2 * cells)``."""
        shape = (self.rows, self.cols)
        return spaces.Box(0, FLAGGED, shape, np.int8), spaces.Discrete(2 * self.rows * self.cols)

    def vector_observation(self) -> np.ndarray:
        """0-8 revealed numbers, 9 hidden, 10 flagged."""
        return self._grid.reshape(self.rows, self.cols).copy()

    def parse_vector_move(self, action: Any) -> Move:
        """Reveal cell ``i``, or flag / unflag cell ``i - cells``."""
        index = parse_index(action, 2 * self.cells, "action")
        if index < self.cells:
            return self._checked("reveal", index)
        cell = index - self.cells
        return self._checked("unflag" if self.game.flagged[cell] else "flag", cell)

    def legal_move_mask(self) -> np.ndarray:
        """Reveals of hidden unflagged cells; flag toggles of hidden cells."""
        return self._mask.copy()
