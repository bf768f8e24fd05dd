"""Sudoku-v0: unique-solution puzzles graded by givens and by technique, cell by cell or whole."""

from __future__ import annotations

import re
from functools import cache
from itertools import chain
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.data_paths import datasets_root
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.splits import Split, draw_in_split, split_of
from envsuite.families.text.sudoku_bank import (
    apply_symmetry,
    bank_file,
    decode,
    encode,
    load_bank,
    random_symmetry,
)
from envsuite.families.text.sudoku_generator import GRADES, generate
from envsuite.families.text.sudoku_rules import SudokuBoard, geometry
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

Mode = Literal["multi", "single"]
Source = Literal["bank", "generate"]
#: A move: ``(cell, value)`` (value 0 erases) in multi-turn mode, the whole grid in single.
SudokuMove = tuple[int, int] | tuple[int, ...]

_PLACEMENT = re.compile(
    r"(?i)^\(?\s*r(?:ow)?\s*(\d+)\s*[,;]?\s*c(?:ol(?:umn)?)?\s*(\d+)\s*\)?"
    r"\s*(?:=|:|->|is|to|,|\s)\s*(\d+)$"
)
_TRIPLE = re.compile(r"^\(?\s*(\d+)\s*[, ]\s*(\d+)\s*\)?\s*(?:=|:|->|,|\s)\s*(\d+)$")
_ERASE = re.compile(
    r"(?i)^(?:erase|clear|delete|remove)\s+\(?\s*r(?:ow)?\s*(\d+)\s*[,;]?\s*"
    r"c(?:ol(?:umn)?)?\s*(\d+)\s*\)?$"
)
_LABELS = re.compile(r"(?i)[rc]\d+")
_UNIT_NAMES = ("row", "column", "box")


@cache
def _names(size: int) -> tuple[str, ...]:
    """``_names(n)[cell * (n + 1) + value]``: the move's text (``r3c4=5``; 0 erases)."""
    return tuple(
        f"r{cell // size + 1}c{cell % size + 1}={v}"
        for cell in range(size * size)
        for v in range(size + 1)
    )


@cache
def _board_template(size: int) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The board's text with a ``{}`` per cell and one for the empty count, and tokens.

    The tokens are those of given and of written digits (index 0: an empty cell).
    """
    geo = geometry(size)
    gap = ["  " if c and c % geo.box_cols == 0 else "" for c in range(size)]
    lines = ["    " + " ".join(gap[c] + f"c{c + 1}" for c in range(size))]
    for r in range(size):
        if r and r % geo.box_rows == 0:
            lines.append("")
        lines.append(f"r{r + 1} " + "".join(gap[c] + "{}" for c in range(size)))
    lines.append("empty cells: {}")
    given = ("  .", *(f"  {d}" for d in range(1, size + 1)))
    written = ("  .", *(f" *{d}" for d in range(1, size + 1)))
    return "\n".join(lines), given, written


@cache
def _split_entries(path: str, game: str, split: str) -> tuple[int, ...]:
    """Indices of the bank entries in ``split`` (keyed as :func:`split_key` says)."""
    entries = load_bank(datasets_root() / path)
    return tuple(
        i
        for i, (puzzle, solution) in enumerate(entries)
        if split_of(game, split_key(decode(puzzle), decode(solution))) == split
    )


def split_key(puzzle: tuple[int, ...], solution: tuple[int, ...]) -> str:
    """The key a puzzle's split is a hash of.

    It is the puzzle with its digits relabelled in the order they first appear in its
    solution, so relabelled copies share a split.
    """
    relabel = [0] * (max(solution) + 1)
    for d in solution:
        if not relabel[d]:
            relabel[d] = sum(1 for x in relabel if x) + 1
    return encode(tuple(relabel[d] for d in puzzle))


class SudokuEnv(TextGameEnv[SudokuMove]):
    """Sudoku with a unique solution, graded by givens and by the techniques it needs.

    Description:
        Fill the grid so that every row, column and box holds each digit once. Sizes 4x4
        (2x2 boxes), 6x6 (2x3 boxes) and 9x9. Every puzzle has exactly one solution: a
        clue was removed only while the grade's logical solver still filled the grid
        (sound deductions, so one solution) or, for ``hard``, while a counting solver
        found no second solution. ``difficulty`` grades by givens and by technique:

        ====  ======================  ======================  ============================
        size  easy                    medium                  hard
        ====  ======================  ======================  ============================
        9x9   36-45 givens, singles   22-32 givens, needs     17-30 givens, beyond pairs
              (naked/hidden) suffice  naked pairs or locked   and locked candidates (a
                                      candidates              solver needs search)
        6x6   16-20 givens, singles   12-15, singles          8-11, singles
        4x4   8-10 givens, singles    6-7, singles            4-5, singles
        ====  ======================  ======================  ============================

        (Small grids grade by givens only: singles solve nearly all of them.)
        ``source="bank"`` (default) draws from the puzzles shipped in
        ``datasets/text/sudoku/v1/`` (made by the same generator from fixed seeds; see
        :mod:`~envsuite.families.text.sudoku_bank`) and shows the entry under a random
        symmetry of the grid (digit relabelling, row/column permutations within bands and
        stacks, band/stack permutations, transposition for square boxes), which keeps its
        uniqueness and grade; reset costs microseconds. ``source="generate"`` makes a
        fresh puzzle from the seed (9x9: about 3 ms easy, 80 ms medium or hard).

    Observation:
        Text (history modes of the family base): the board, ``r1..rn`` down and
        ``c1..cn`` across, ``.`` for empty, ``*`` before a digit the player wrote (other
        digits are givens). ``observation_mode="vector"`` (multi-turn only):
        ``Box(0, n, (2, n, n), int8)``: the digits (0 empty), and 1 where a digit is given.

    Action:
        ``mode="multi"``: one cell per action, ``r3c4=5`` (also ``r3c4 5``, ``R3C4: 5``,
        ``row 3 col 4 = 5``, ``(3, 4) = 5``, ``3,4,5``); ``r3c4=0`` or ``erase r3c4``
        (also ``clear``) clears the player's digit, and a player's digit may be overwritten.
        Refused as illegal (InvalidAction naming the rule, checked in this order): a row,
        column or digit out of range, changing a given, erasing an empty cell, writing the
        digit the cell holds, and a digit already in the cell's row, column or box. A
        digit that breaks no rule but differs from the hidden solution is accepted (the
        player finds out when the board jams), unless ``reveal_mistakes=True`` refuses it
        too. ``info["legal_actions"]`` lists every legal placement and erasure. Vector
        mode: ``Discrete(n * n * (n + 1))``, index ``cell * (n + 1) + value`` (value 0
        erases), with an ``action_mask``.
        ``mode="single"``: the whole grid as one answer, row by row (``.`` or ``0`` for a
        cell left empty; spaces, newlines, ``|``, ``+``, ``-``, ``*`` and ``r1``/``c1``
        labels are ignored). A wrong number of cells or a changed given is an
        InvalidAction; any other grid is graded.

    Reward:
        1.0 when the grid is solved; ``-invalid_penalty`` for a malformed or illegal
        action; 0 otherwise. ``info["score"]`` at the end is 1.0 when solved, else the
        fraction of the puzzle's empty cells holding the solution's digit.

    Termination:
        Multi-turn: when the grid is full (every placement obeys the rules, so a full
        grid is the unique solution). Single-turn: after the first graded grid.
        Truncated after ``max_turns`` (default ``2 * n * n`` multi-turn, 1 single-turn, so
        a malformed single-turn answer ends the episode unsolved). ``optimal_steps``: the
        puzzle's empty cells (multi), 1 (single).

    Arguments:
        size: 4, 6 or 9.
        difficulty: ``"easy"``, ``"medium"`` or ``"hard"`` (table above).
        mode: ``"multi"`` (cell by cell) or ``"single"`` (the whole grid once).
        source: ``"bank"`` or ``"generate"`` (see Description).
        reveal_mistakes: Refuse (multi-turn) a digit that differs from the solution.
        observation_mode, history, max_turns, split, invalid_penalty, render_mode: the
            family base's (:class:`~envsuite.families.text.text_game.TextGameEnv`).
        Splits hash the puzzle with its digits relabelled in order of first appearance in
        its solution (bank: the stored entry, before its symmetry), so a puzzle and its
        relabellings share a split. Bank entries per split (train/val/test, of 3,000 per
        9x9 grade, 1,000 per 4x4/6x6 grade): about 80/10/10%, each shown under up to
        1.2e12 (9x9) symmetries; ``source="generate"`` draws from far more than 10^6
        puzzles per split at 6x6 and 9x9 (a val or test draw costs about ten
        generations, since a tenth of the puzzles fall in each). Out of distribution:
        train on some sizes or grades and test on others (e.g. 4x4 and 6x6, or easy, for
        training; 9x9 hard on the test split for testing).

    Version history:
        v0: Initial version.
    """

    game_name = "sudoku"
    observation_modes = ("text", "vector")

    #: Characters a whole-grid answer may hold besides digits and ``.``.
    GRID_NOISE: ClassVar[str] = " \t\r\n|+-*_,;:"

    def __init__(
        self,
        *,
        size: int = 9,
        difficulty: str = "easy",
        mode: Mode = "multi",
        source: Source = "bank",
        reveal_mistakes: bool = False,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        self.geo = geometry(size)
        if difficulty not in GRADES[size]:
            raise ValueError(f"difficulty must be one of {list(GRADES[size])}; got {difficulty!r}")
        if mode not in ("multi", "single"):
            raise ValueError(f"mode must be 'multi' or 'single'; got {mode!r}")
        if source not in ("bank", "generate"):
            raise ValueError(f"source must be 'bank' or 'generate'; got {source!r}")
        if mode == "single" and observation_mode != "text":
            raise ValueError("the single-turn mode is text only")
        self.size = size
        self.difficulty = difficulty
        self.mode: Mode = mode
        self.source: Source = source
        self.reveal_mistakes = bool(reveal_mistakes)
        if max_turns is None:
            max_turns = 2 * size * size if mode == "multi" else 1
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.solution: tuple[int, ...] = (0,) * self.geo.cells
        self.board = SudokuBoard(size, (0,) * self.geo.cells)
        self._legal: list[str] | None = None
        #: Per cell, the texts of its legal moves, and the board's list they name.
        self._named: list[list[str]] = []
        self._named_from: list[list[int] | None] = []
        self._givens = np.zeros(self.geo.cells, dtype=np.int8)
        #: The line (0-based) of the bank file the puzzle came from (None: generated).
        self.bank_entry: int | None = None

    @classmethod
    def dataset_files(cls, **config: Any) -> list[Any]:
        """The bank file this configuration reads (none with ``source="generate"``)."""
        if config.get("source", "bank") != "bank":
            return []
        path = bank_file(config.get("size", 9), config.get("difficulty", "easy"))
        if not path.is_file():
            raise FileNotFoundError(f"the Sudoku bank file {path} is missing")
        return [path]

    # -- the game ----------------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a puzzle of the grade in the split (bank entry under a symmetry, or generated)."""
        rng = self.np_random
        if self.source == "bank":
            path = bank_file(self.size, self.difficulty)
            relative = path.relative_to(datasets_root()).as_posix()
            members = _split_entries(relative, self.game_name, self.split)
            self.bank_entry = members[int(rng.integers(len(members)))]
            puzzle_text, solution_text = load_bank(path)[self.bank_entry]
            symmetry = random_symmetry(self.size, rng)
            puzzle = apply_symmetry(decode(puzzle_text), symmetry)
            solution = apply_symmetry(decode(solution_text), symmetry)
        else:
            self.bank_entry = None
            want = GRADES[self.size][self.difficulty]
            puzzle, solution = draw_in_split(
                self.game_name,
                self.split,
                lambda: generate(self.geo, rng, want),
                lambda pair: split_key(*pair),
            )
        self.solution = solution
        self.board = SudokuBoard(self.size, puzzle)
        self._givens = np.array([d > 0 for d in puzzle], dtype=np.int8)
        self._legal = None
        self._named = [[] for _ in puzzle]
        self._named_from = [None] * len(puzzle)
        self.optimal_steps = self.board.empty if self.mode == "multi" else 1

    def instance_key(self) -> str:
        """The puzzle's givens, row by row (``.`` for empty)."""
        return encode(self.board.puzzle)

    def instructions(self) -> str:
        """The rules and how to answer in this mode."""
        n = self.size
        rules = (
            f"Sudoku {n}x{n} ({self.difficulty}): fill the grid so that every row, every "
            f"column and every {self.geo.box_rows}x{self.geo.box_cols} box holds each digit "
            f"1-{n} exactly once. The puzzle has exactly one solution. Rows are r1-r{n} "
            f"from the top, columns c1-c{n} from the left; '.' is an empty cell."
        )
        if self.mode == "single":
            how = (
                f"Answer with the whole solved grid, {n} digits per row, row by row "
                f"(spaces and newlines are ignored). You have one answer. {GRAMMAR_HELP}"
            )
        else:
            how = (
                "Fill one cell per turn: answer like r3c4=5 (row 3, column 4, digit 5); "
                "r3c4=0 erases your digit. A '*' marks a digit you wrote; the others are "
                "givens and cannot change. A digit already in the same row, column or box "
                f"is refused. {GRAMMAR_HELP}"
            )
        return f"{rules}\n{how}"

    def state_text(self) -> str:
        """The board, ``*`` marking the player's digits, and the empty cells left."""
        template, given, written = _board_template(self.size)
        grid, puzzle = self.board.grid, self.board.puzzle
        tokens = [given[d] if p else written[d] for d, p in zip(grid, puzzle, strict=True)]
        return template.format(*tokens, self.board.empty)

    def parse_move(self, answer: str) -> SudokuMove:
        """A placement (or the whole grid), or InvalidAction naming the rule."""
        if self.mode == "single":
            return self._parse_grid(answer)
        text = answer.strip()
        found = _PLACEMENT.match(text) or _TRIPLE.match(text)
        if found:
            row, col, value = found.groups()
        else:
            erase = _ERASE.match(text)
            if not erase:
                raise InvalidAction(
                    f"expected a placement like r3c4=5 (row 3, column 4, digit 5) or "
                    f"r3c4=0 to erase; got {text[:40]!r}"
                )
            row, col, value = (*erase.groups(), "0")
        return self._checked(int(row) - 1, int(col) - 1, int(value))

    def _checked(self, r: int, c: int, value: int) -> tuple[int, int]:
        n = self.size
        if not 0 <= r < n:
            raise InvalidAction(f"row {r + 1} is outside 1-{n}")
        if not 0 <= c < n:
            raise InvalidAction(f"column {c + 1} is outside 1-{n}")
        if not 0 <= value <= n:
            raise InvalidAction(f"digit {value} is outside 1-{n} (0 erases)")
        cell, name = r * n + c, f"r{r + 1}c{c + 1}"
        board = self.board
        if board.is_given(cell):
            raise InvalidAction(f"{name} is a given ({board.puzzle[cell]}); givens cannot change")
        held = board.grid[cell]
        if value == 0:
            if not held:
                raise InvalidAction(f"{name} is already empty")
            return cell, 0
        if held == value:
            raise InvalidAction(f"{name} already holds {value}")
        peer = board.conflict(cell, value)
        if peer >= 0:
            units = self.geo.units_of
            shared = next(k for k in range(3) if units[cell][k] == units[peer][k])
            where = f"r{peer // n + 1}c{peer % n + 1}"
            raise InvalidAction(
                f"{value} is already in the {_UNIT_NAMES[shared]} of {name} ({where})"
            )
        if self.reveal_mistakes and self.solution[cell] != value:
            raise InvalidAction(f"{name}={value} is not the solution's digit")
        return cell, value

    def _parse_grid(self, answer: str) -> tuple[int, ...]:
        text = _LABELS.sub(" ", answer)
        cells = []
        for ch in text:
            if ch.isdigit() and ch.isascii():
                cells.append(int(ch))
            elif ch == ".":
                cells.append(0)
            elif ch not in self.GRID_NOISE:
                raise InvalidAction(f"the grid holds {ch!r}; write digits, '.' for an empty cell")
        n, total = self.size, self.geo.cells
        if len(cells) != total:
            raise InvalidAction(f"the answer has {len(cells)} cells; a {n}x{n} grid has {total}")
        for cell, given in enumerate(self.board.puzzle):
            if given and cells[cell] != given:
                name = f"r{cell // n + 1}c{cell % n + 1}"
                raise InvalidAction(f"{name} is a given ({given}); the answer has {cells[cell]}")
            if cells[cell] > n:
                raise InvalidAction(f"digit {cells[cell]} is outside 1-{n}")
        return tuple(cells)

    def play(self, move: SudokuMove) -> MoveResult:
        """Write the digit (or grade the grid)."""
        self._legal = None
        board = self.board
        if self.mode == "single":
            # the episode ends here: the board shows the answer as given, right or wrong
            board.grid[:] = move
            board.empty = sum(1 for d in move if not d)
            won = tuple(move) == self.solution
            verdict = "solved" if won else "not the solution"
            right = self._filled_correctly()
            return MoveResult(
                f"Your grid is {verdict} ({right} of the puzzle's empty cells right).\n"
                + self.state_text(),
                1.0 if won else 0.0,
                done=True,
                success=won,
            )
        cell, value = move
        board.place(cell, value)
        if not self.text_mode:  # the vector observation needs no feedback text
            full = board.is_full()
            return MoveResult("", float(full), full, full)
        name = f"r{cell // self.size + 1}c{cell % self.size + 1}"
        what = f"{name}={value} placed" if value else f"{name} erased"
        if board.is_full():
            return MoveResult(f"{what}. Solved!\n{self.state_text()}", 1.0, True, True)
        return MoveResult(f"{what}.\n{self.state_text()}")

    def _filled_correctly(self) -> int:
        grid, puzzle, solution = self.board.grid, self.board.puzzle, self.solution
        return sum(1 for i in range(self.geo.cells) if not puzzle[i] and grid[i] == solution[i])

    def score(self, success: bool) -> float:
        """1.0 when solved, else the fraction of empty cells holding the solution's digit."""
        if success:
            return 1.0
        blanks = sum(1 for d in self.board.puzzle if not d)
        return self._filled_correctly() / blanks if blanks else 0.0

    def legal_moves(self) -> list[str] | None:
        """Every legal placement and erasure (multi-turn), None in single-turn mode."""
        if self.mode == "single":
            return None
        if self._legal is None:
            # the board replaces a cell's list when its moves change: rename only those
            names, named, sources = _names(self.size), self._named, self._named_from
            for cell, moves in enumerate(self.board.moves_of):
                if sources[cell] is not moves:
                    sources[cell] = moves
                    named[cell] = [names[i] for i in moves]
            self._legal = list(chain.from_iterable(named))
        return list(self._legal)

    # -- vector mode -------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """Box(0, n, (2, n, n)) of digits and givens, Discrete(n * n * (n + 1))."""
        n = self.size
        return (
            spaces.Box(0, n, (2, n, n), np.int8),
            spaces.Discrete(n * n * (n + 1)),
        )

    def vector_observation(self) -> np.ndarray:
        """The digits and the givens' plane."""
        n = self.size
        out = np.empty((2, n * n), dtype=np.int8)
        out[0] = self.board.grid
        out[1] = self._givens
        return out.reshape(2, n, n)

    def parse_vector_move(self, action: Any) -> SudokuMove:
        """``cell * (n + 1) + value``, or InvalidAction naming the rule."""
        n = self.size
        index = parse_index(action, n * n * (n + 1), "placement")
        cell, value = divmod(index, n + 1)
        return self._checked(cell // n, cell % n, value)

    def legal_move_mask(self) -> np.ndarray:
        """1 for each legal placement and erasure."""
        n = self.size
        mask = np.zeros(n * n * (n + 1), dtype=np.int8)
        mask[self.board.legal_indices()] = 1
        return mask
