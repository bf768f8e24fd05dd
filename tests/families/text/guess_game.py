"""A tiny text game on the family's base, for testing the base itself."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.action_parsing import parse_index
from envsuite.families.text.splits import draw_in_split
from envsuite.families.text.text_game import InvalidAction, MoveResult, TextGameEnv


class GuessGame(TextGameEnv[int]):
    """Guess the hidden number.

    Description:
        A number in [1, 16] is drawn; each guess is told "higher" or "lower".

    Observation:
        Text (see the family base) or Box(2): the last guess and the hint.

    Action:
        A number as text, or Discrete(16) (the number minus one).

    Reward:
        1 for the right guess; the base's penalty for a bad action.

    Termination:
        On the right guess; truncated after ``max_turns``.

    Arguments:
        The family base's.

    Version history:
        v0: Test only.
    """

    game_name = "guess-test"
    observation_modes = ("text", "vector")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = 1
        self.last = 0
        self.hint = 0

    def new_game(self, seed: int | None, options: dict[str, Any] | None) -> None:
        self.target = draw_in_split(
            self.game_name, self.split, lambda: int(self.np_random.integers(1, 17)), str
        )
        self.last, self.hint = 0, 0
        self.optimal_steps = 1

    def instance_key(self) -> str:
        return str(self.target)

    def instructions(self) -> str:
        return "Guess a number from 1 to 16."

    def state_text(self) -> str:
        return f"last guess: {self.last or '-'}"

    def parse_move(self, answer: str) -> int:
        if not answer.isdigit():
            raise InvalidAction("not a number")
        if not 1 <= int(answer) <= 16:
            raise InvalidAction("out of range")
        return int(answer)

    def play(self, move: int) -> MoveResult:
        self.last = move
        self.hint = int(np.sign(self.target - move))
        if move == self.target:
            return MoveResult(f"{move}: right", 1.0, done=True, success=True)
        return MoveResult(f"{move}: {'higher' if self.hint > 0 else 'lower'}")

    def legal_moves(self) -> list[str]:
        return [str(n) for n in range(1, 17)]

    def vector_spaces(self) -> tuple[spaces.Space[Any], spaces.Space[Any]]:
        return spaces.Box(-1.0, 16.0, (2,), np.float32), spaces.Discrete(16)

    def vector_observation(self) -> np.ndarray:
        return np.array([self.last, self.hint], dtype=np.float32)

    def parse_vector_move(self, action: Any) -> int:
        return parse_index(action, 16, "number") + 1

    def legal_move_mask(self) -> np.ndarray:
        return np.ones(16, dtype=np.int8)
