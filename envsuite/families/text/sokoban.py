"""Sokoban-v0: generated levels certified by a solver, with their optimal moves and pushes."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.answer_grammar import GRAMMAR_HELP
from envsuite.families.text.sokoban_generator import CertifiedLevel, certify, generate
from envsuite.families.text.sokoban_rules import DIRECTIONS, SokobanBoard, parse_level
from envsuite.families.text.splits import Split, split_of
from envsuite.families.text.text_game import History, InvalidAction, MoveResult, TextGameEnv

#: Words each move may be named by (any case).
MOVE_WORDS: dict[str, int] = {
    **{name: k for k, name in enumerate(DIRECTIONS)},
    **{name[0]: k for k, name in enumerate(DIRECTIONS)},
    "north": 0, "south": 1, "west": 2, "east": 3,
    "n": 0, "s": 1, "w": 2, "e": 3,
}  # fmt: skip
_BLOCKED = {
    "wall": "{move}: a wall is in the way",
    "box against wall": "{move}: the box would be pushed into a wall",
    "two boxes": "{move}: a box cannot push another box",
}
MIN_SIDE, MAX_SIDE = 5, 12
MAX_BOXES = 4


class SokobanEnv(TextGameEnv[int]):
    """Push every box onto a target; levels generated from the seed and certified solvable.

    Description:
        A level is a walled room with boxes, as many targets and the player. Levels are
        made after DeepMind's Boxoban generator: a random room, a box on every target,
        then boxes pulled back by random reverse play (see
        :mod:`~envsuite.families.text.sokoban_generator`). Every level is certified by
        an exact solver (A* over push states with an admissible heuristic), which records
        a move-optimal solution and, separately, the fewest pushes; levels needing fewer
        than two pushes per box are drawn again, and generation raises after 100 failed
        attempts. A level takes a few milliseconds to make at 7x7 with 2 boxes (tens at
        8x8-10x10 with 3 boxes, far more with 4 boxes at 10x10).

    Observation:
        Text (history modes of the family base): the board in the standard characters,
        ``#`` wall, `` `` floor, ``.`` target, ``$`` box, ``*`` box on a target, ``@``
        player, ``+`` player on a target, then the boxes on targets and moves so far.
        The feedback of every move holds the board, so the ``last`` history suffices.
        ``observation_mode="vector"``: ``Box(0, 1, (4, height, width), int8)``: walls,
        targets, boxes, player.

    Action:
        One move per action: ``up``, ``down``, ``left``, ``right`` (also ``u/d/l/r``,
        ``north/south/west/east``, ``n/s/w/e``, any case). Walking into a wall, pushing a
        box into a wall and pushing two boxes are illegal (InvalidAction naming the rule);
        ``info["legal_actions"]`` lists the legal moves. Vector mode: ``Discrete(4)`` in
        that order, with an ``action_mask``.

    Reward:
        1.0 when the last box reaches a target; ``-invalid_penalty`` for a malformed or
        illegal move; 0 otherwise. ``info["score"]`` at the end: 1.0 when solved, else
        the fraction of boxes on targets.

    Termination:
        When every box is on a target (success), or, with ``end_on_deadlock=True`` (the
        default), when a push leaves the level unsolvable in a way two sound tests see: a
        box off target on a dead square (no push sequence brings it to a target), or a
        2x2 block of walls and boxes holding a box off target. Other deadlocks are not
        detected; the episode then runs to ``max_turns`` (truncation). ``optimal_steps``
        is the fewest MOVES that solve the level (one step is one move, so
        ``efficiency`` is optimal moves / turns); the last info also holds
        ``optimal_pushes`` (the fewest pushes, a separate optimum), ``moves`` and
        ``pushes`` (the player's).

    Arguments:
        ``reset(options={"level": text})`` plays a level of your own in the standard
        characters instead (certified by the same solver; ValueError if it has no
        solution; splits do not apply).
        width, height: The level's size, outer walls included (5-12).
        num_boxes: Boxes (and targets), 1-4.
        end_on_deadlock: End the episode on a detected deadlock (see Termination).
        observation_mode, history, max_turns (default 100), split, invalid_penalty,
            render_mode: the family base's
            (:class:`~envsuite.families.text.text_game.TextGameEnv`).
        Splits hash the room's walls (the instance key without targets, boxes and
        player, in the standard characters), so every level in a room is in the room's
        split and a test room is never seen in training; the room is checked first, so
        a val or test reset costs about what a train reset does. Room draws at 7x7 gave
        37,950 distinct rooms in 200,000 (still growing; 3,500 at 6x6, 87,500 of
        100,000 at 10x10), so each split holds thousands of rooms, and each room many
        target and start placements: well over 10^6 levels per split from 7x7 with 2
        boxes up (fewer at 6x6 with 1 box). Out of distribution:
        train at one size and box count and test at larger rooms or more boxes (e.g.
        7x7 with 2 boxes for training, 8x8 with 3 on the test split for testing).

    Version history:
        v0: Initial version.
    """

    game_name = "sokoban"
    observation_modes = ("text", "vector")
    record_metrics = (*TextGameEnv.record_metrics, "optimal_pushes", "pushes")

    def __init__(
        self,
        *,
        width: int = 7,
        height: int = 7,
        num_boxes: int = 2,
        end_on_deadlock: bool = True,
        observation_mode: str = "text",
        history: History = "last",
        max_turns: int = 100,
        split: Split = "train",
        invalid_penalty: float = 0.1,
        render_mode: str | None = None,
    ) -> None:
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{name} must be an int; got {value!r}")
            if not MIN_SIDE <= value <= MAX_SIDE:
                raise ValueError(f"{name} must lie in [{MIN_SIDE}, {MAX_SIDE}]; got {value}")
        if isinstance(num_boxes, bool) or not isinstance(num_boxes, int):
            raise ValueError(f"num_boxes must be an int; got {num_boxes!r}")
        if not 1 <= num_boxes <= MAX_BOXES:
            raise ValueError(f"num_boxes must lie in [1, {MAX_BOXES}]; got {num_boxes}")
        self.width, self.height, self.num_boxes = width, height, num_boxes
        self.end_on_deadlock = bool(end_on_deadlock)
        super().__init__(
            observation_mode=observation_mode,
            history=history,
            max_turns=max_turns,
            split=split,
            invalid_penalty=invalid_penalty,
            render_mode=render_mode,
        )
        self.certified: CertifiedLevel | None = None
        self.board: SokobanBoard | None = None
        self.optimal_pushes: int | None = None
        self._planes: tuple[Any, np.ndarray] | None = None  # (level, its static planes)

    # -- the game ----------------------------------------------------------------------
    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Generate a level in the split (or certify ``options['level']``)."""
        if options and "level" in options:
            self.certified = certify(parse_level(options["level"]))
        else:
            self.certified = generate(
                self.np_random,
                self.width,
                self.height,
                self.num_boxes,
                accept=lambda layout: split_of(self.game_name, layout) == self.split,
            )
        self.board = SokobanBoard(self.certified.level)
        self.optimal_steps = self.certified.optimal_moves
        self.optimal_pushes = self.certified.optimal_pushes

    @property
    def _board(self) -> SokobanBoard:
        if self.board is None:
            raise RuntimeError("call reset() first")
        return self.board

    def instance_key(self) -> str:
        """The level's start in the standard characters."""
        return _start_text(self.certified) if self.certified else ""

    def instructions(self) -> str:
        """The rules, the characters and how to answer."""
        return (
            "Sokoban: push every box ($) onto a target (.). # is a wall, @ is you (+ on a "
            "target), * is a box on a target. You move one square per turn: up, down, "
            "left or right; walking into a box pushes it one square if the square beyond "
            "is free. You cannot pull boxes, push two boxes at once, or walk through walls. "
            f"Answer with one move. {GRAMMAR_HELP}"
        )

    def state_text(self) -> str:
        """The board and the counts so far."""
        board = self._board
        return (
            f"{board.text()}\nboxes on targets: {board.on_target}/{len(board.boxes)}, "
            f"moves: {board.moves}, pushes: {board.pushes}"
        )

    def parse_move(self, answer: str) -> int:
        """A move word, or InvalidAction naming the rule the move breaks."""
        word = answer.strip().lower()
        if word not in MOVE_WORDS:
            raise InvalidAction(f"expected a move (up, down, left or right); got {word[:40]!r}")
        return self._checked(MOVE_WORDS[word])

    def _checked(self, direction: int) -> int:
        blocked = self._board.blocked(direction)
        if blocked is not None:
            raise InvalidAction(_BLOCKED[blocked].format(move=DIRECTIONS[direction]))
        return direction

    def play(self, move: int) -> MoveResult:
        """Make the move; end on a solved level or a detected deadlock."""
        board = self._board
        pushed = board.move(move)
        solved = board.is_solved()
        lost = (
            not solved
            and pushed
            and self.end_on_deadlock
            and board.is_deadlocked(board.player + board.level.step(move))
        )
        if not self.text_mode:  # the vector observation needs no feedback text
            return MoveResult("", float(solved), solved or lost, solved)
        what = DIRECTIONS[move] + (" (pushed a box)" if pushed else "")
        if solved:
            return MoveResult(f"{what}. Solved!\n{self.state_text()}", 1.0, True, True)
        if lost:
            return MoveResult(
                f"{what}. Deadlock: that box can no longer reach a target; the level is "
                f"lost.\n{self.state_text()}",
                done=True,
            )
        return MoveResult(f"{what}.\n{self.state_text()}")

    def legal_moves(self) -> list[str]:
        """The legal move words, in the order up, down, left, right."""
        return [DIRECTIONS[d] for d in self._board.legal()]

    def score(self, success: bool) -> float:
        """1.0 when solved, else the fraction of boxes on targets."""
        board = self._board
        return 1.0 if success else board.on_target / len(board.boxes)

    def final_info(self) -> dict[str, Any]:
        """Optimal pushes beside optimal moves, and the player's moves and pushes."""
        board = self._board
        return {"optimal_pushes": self.optimal_pushes, "moves": board.moves, "pushes": board.pushes}

    # -- vector mode -------------------------------------------------------------------
    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        """Four planes (walls, targets, boxes, player) and Discrete(4)."""
        shape = (4, self.height, self.width)
        return spaces.Box(0, 1, shape, np.int8), spaces.Discrete(4)

    def vector_observation(self) -> np.ndarray:
        """The four planes of the board now."""
        board = self._board
        level = board.level
        if self._planes is None or self._planes[0] is not level:
            static = np.zeros((4, level.height * level.width), dtype=np.int8)
            static[0, sorted(level.walls)] = 1
            static[1, sorted(level.targets)] = 1
            self._planes = (level, static)
        out = self._planes[1].copy()
        out[2, list(board.boxes)] = 1
        out[3, board.player] = 1
        return out.reshape(4, level.height, level.width)

    def parse_vector_move(self, action: Any) -> int:
        """A move index, or InvalidAction naming the rule the move breaks."""
        return self._checked(parse_index(action, 4, "move"))

    def legal_move_mask(self) -> np.ndarray:
        """1 for each legal move (up, down, left, right)."""
        mask = np.zeros(4, dtype=np.int8)
        mask[self._board.legal()] = 1
        return mask


def _start_text(found: CertifiedLevel | None) -> str:
    """The level's start in the standard characters (its instance key)."""
    if found is None:
        return ""
    level = found.level
    return level.text(frozenset(level.boxes), level.player)
