"""``envsuite/Maze-v0``: walk through a procedural maze to the goal, seeing all or a window."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.maze_generator import draw_layout
from envsuite.families.text.maze_rules import (
    COMPASS,
    DELTAS,
    DIRECTIONS,
    MazeGame,
    MazeLayout,
    distances_to,
)
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

#: Vector-mode tile codes (and the text symbols at the same index).
FLOOR, WALL, GOAL, AGENT = 0, 1, 2, 3
SYMBOLS = ".#G@"
#: The words a move may be given as (any case); ``go`` / ``move`` in front are ignored.
_MOVE_NAMES = (
    ("up", "u", "north", "n"),
    ("down", "d", "south", "s"),
    ("left", "l", "west", "w"),
    ("right", "r", "east", "e"),
)
MOVE_WORDS: dict[str, int] = {name: d for d, names in enumerate(_MOVE_NAMES) for name in names}
_VERBS = ("go", "move", "walk", "step")

#: Sizes (cells a side) for training and in-distribution tests, and sizes held out for
#: out-of-distribution tests (ask for them with ``width=`` / ``height=``).
IN_DISTRIBUTION_SIZES: tuple[int, ...] = tuple(range(3, 11))
HELD_OUT_SIZES: tuple[int, ...] = tuple(range(11, 17))
MAX_SIZE = 64


class MazeEnv(TextGameEnv[int]):
    """Find the way through a procedural maze, one tile at a time.

    Description:
        A perfect maze of ``width`` x ``height`` cells (a random spanning tree grown by
        depth-first search, so exactly one path joins any two cells), optionally braided
        (``braid``: that fraction of dead ends opened into loops), drawn on a tile grid of
        ``2 * height + 1`` rows and ``2 * width + 1`` columns: cells on odd coordinates,
        the passages between them and the walls on the tiles in between. The walker starts
        on a random cell and must reach the goal on another. With ``view_radius`` the
        walker sees only the tiles within that many steps (a square window), else the
        whole maze. The shortest path's length (breadth-first search) is
        ``optimal_steps``.

        Splits: an instance (walls, start, goal) belongs to the split its key hashes to.
        Distinct instances are at least the grid's undirected Hamiltonian paths times the
        ``w*h*(w*h-1)`` placements (see :mod:`.maze_generator`): above 3 * 10^10 at 7x7
        (13,535,280 x 2,352), so above 10^9 per split (val and test hold a tenth each),
        and above 10^6 per split from 6x6 up; tiny mazes have few (2x2: 48 in all).
        Sizes 3 to 10 are in distribution (``IN_DISTRIBUTION_SIZES``); 11 to 16 are held out
        (``HELD_OUT_SIZES``): train on the former, and make the env with, e.g.,
        ``width=13, height=13, split="test"`` for out-of-distribution tests.

    Observation:
        Text (see the family base for the history modes): the map (``#`` wall, ``.``
        floor, ``@`` you, ``G`` goal) or the window around you, with your row and column
        (tiles, from 0 at the top left). Every move's feedback shows the map or window
        after it. Vector mode: an int8 grid of tile codes (0 floor, 1 wall, 2 goal,
        3 you): the whole map, ``(2h+1, 2w+1)``, or the window ``(2r+1, 2r+1)`` centred on
        you (tiles outside the maze are walls).

    Action:
        Text: ``up``, ``down``, ``left``, ``right``, or ``north``, ``south``, ``west``,
        ``east``, or ``u/d/l/r``, ``n/s/w/e`` (any case; ``go`` or ``move`` in front is
        allowed). Vector: ``Discrete(4)`` in that order, with ``action_mask``. Text mode
        lists the legal moves in ``info["legal_actions"]``. Walking into a wall is an
        illegal move (the penalty and a turn; the walker stays).

    Reward:
        1.0 for reaching the goal, 0 for other moves, ``-invalid_penalty`` for a malformed
        or illegal action.

    Termination:
        Terminated on reaching the goal; truncated after ``max_turns``.

    Arguments:
        width: Cells across (2 to 64).
        height: Cells down (2 to 64).
        view_radius: Tiles seen in each direction (a window of ``2r+1`` a side), or None
            for the whole maze.
        braid: Fraction of dead ends opened into loops, in [0, 1] (0: a perfect maze).
        max_turns: Turns before truncation; None for ``4 * width * height`` (over twice
            the longest shortest path).
        observation_mode, history, split, invalid_penalty, render_mode: see the family
            base (:class:`~envsuite.families.text.text_game.TextGameEnv`).

    Version history:
        v0: Initial version.
    """

    game_name = "maze"
    observation_modes = ("text", "vector")

    def __init__(
        self,
        *,
        width: int = 7,
        height: int = 7,
        view_radius: int | None = None,
        braid: float = 0.0,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int | None = None,
        split: Any = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 64:
                raise ValueError(f"{name} must be an int from 2 to {MAX_SIZE}; got {value!r}")
        if view_radius is not None and (
            isinstance(view_radius, bool) or not isinstance(view_radius, int) or view_radius < 1
        ):
            raise ValueError(f"view_radius must be a positive int or None; got {view_radius!r}")
        if isinstance(braid, bool) or not isinstance(braid, int | float) or not 0 <= braid <= 1:
            raise ValueError(f"braid must be a number in [0, 1]; got {braid!r}")
        self.width, self.height = width, height
        self.view_radius = view_radius
        self.braid = float(braid)
        self.rows, self.cols = 2 * height + 1, 2 * width + 1
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=4 * width * height if max_turns is None else max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.layout = MazeLayout(np.ones((self.rows, self.cols), bool), (1, 1), (1, 1))
        self.game = MazeGame(self.layout)
        self._set_views()

    # -- drawing the instance ------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Draw a maze of the split; its BFS distance is ``optimal_steps``."""
        self.layout = draw_layout(
            self.np_random, self.game_name, self.split, self.width, self.height, self.braid
        )
        self.game = MazeGame(self.layout)
        self.optimal_steps = int(
            distances_to(self.layout.walls, self.layout.goal)[self.layout.start]
        )
        self._set_views()

    def _set_views(self) -> None:
        """The tile codes and text rows of the map, padded by the view radius with walls."""
        pad = self.view_radius or 0
        codes = np.where(self.layout.walls, WALL, FLOOR).astype(np.int8)
        codes[self.layout.goal] = GOAL
        self._codes = np.pad(codes, pad, constant_values=WALL)
        self._rows = ["".join(SYMBOLS[v] for v in line) for line in self._codes.tolist()]
        # The action mask of every tile, so a step reads it instead of computing it.
        rows, cols = self.layout.shape
        walled = np.pad(self.layout.walls, 1, constant_values=True)
        self._masks = np.stack(
            [~walled[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols] for dr, dc in DELTAS], axis=-1
        ).astype(np.int8)

    def instance_key(self) -> str:
        """Size, walls, start and goal (see :meth:`MazeLayout.key`)."""
        return self.layout.key()

    # -- text ----------------------------------------------------------------------------
    def instructions(self) -> str:
        """The rules, the symbols, the moves and what the walker sees."""
        seen = (
            f"You see only the tiles within {self.view_radius} steps of you (a window "
            f"{2 * self.view_radius + 1} tiles a side; tiles outside the maze show as #)."
            if self.view_radius
            else "You see the whole maze."
        )
        return (
            f"Find your way through a maze of {self.rows} x {self.cols} tiles to the goal G. "
            "# is a wall, . is floor, @ is you. Each turn, move one tile: up, down, left or "
            "right (or north, south, west, east; n, s, w, e). Walking into a wall is an "
            f"illegal move. {seen} {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """Where the walker is, and the map or the window around it."""
        row, col = self.game.position
        where = f"You are at row {row}, column {col}."
        if self.view_radius is None:
            lines = list(self._rows)
            lines[row] = lines[row][:col] + "@" + lines[row][col + 1 :]
            return where + "\n" + "\n".join(lines)
        r = self.view_radius
        # The padded map puts tile (row, col) at (row + r, col + r): the window starts at row.
        lines = [line[col : col + 2 * r + 1] for line in self._rows[row : row + 2 * r + 1]]
        lines[r] = lines[r][:r] + "@" + lines[r][r + 1 :]
        return where + "\n" + "\n".join(lines)

    def parse_move(self, answer: str) -> int:
        """A direction's name or synonym; a wall in the way is an illegal move."""
        words = answer.lower().split()
        if len(words) == 2 and words[0] in _VERBS:
            words = words[1:]
        direction = MOVE_WORDS.get(words[0]) if len(words) == 1 else None
        if direction is None:
            raise InvalidAction(
                f"unknown move {answer[:40]!r}; answer with one of up, down, left, right "
                "(or north, south, west, east)"
            )
        return self._checked(direction)

    def _checked(self, direction: int) -> int:
        if self.game.blocked(direction):
            row, col = self.game.position
            raise InvalidAction(
                f"a wall blocks {DIRECTIONS[direction]} ({COMPASS[direction]}) from row {row}, "
                f"column {col}; you cannot walk into a wall"
            )
        return direction

    def play(self, move: int) -> MoveResult:
        """Step; the feedback shows the map or window after the move."""
        if self.game.move(move):
            return MoveResult(
                f"You moved {DIRECTIONS[move]} and reached the goal!", 1.0, True, True
            )
        if not self.text_mode:  # the vector observation is the grid; no text to write
            return MoveResult("")
        return MoveResult(f"You moved {DIRECTIONS[move]}.\n{self.state_text()}")

    def legal_moves(self) -> list[str]:
        """The directions no wall blocks."""
        return [DIRECTIONS[d] for d in self.game.legal_directions()]

    # -- vector --------------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """The tile-code grid (map or window) and ``Discrete(4)``."""
        side = None if self.view_radius is None else 2 * self.view_radius + 1
        shape = (self.rows, self.cols) if side is None else (side, side)
        return spaces.Box(0, AGENT, shape, np.int8), spaces.Discrete(len(DIRECTIONS))

    def vector_observation(self) -> np.ndarray:
        """The tile codes of the map or of the window around the walker."""
        row, col = self.game.position
        r = self.view_radius
        if r is None:
            grid = self._codes.copy()
            grid[row, col] = AGENT
            return grid
        grid = self._codes[row : row + 2 * r + 1, col : col + 2 * r + 1].copy()
        grid[r, r] = AGENT
        return grid

    def parse_vector_move(self, action: Any) -> int:
        """A direction's index; a wall in the way is an illegal move."""
        return self._checked(parse_index(action, len(DIRECTIONS), "move"))

    def legal_move_mask(self) -> np.ndarray:
        """1 for each direction no wall blocks."""
        return self._masks[self.game.position].copy()
