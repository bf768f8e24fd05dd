"""The ``Mastermind-v0`` oracle: Knuth's minimax (or minimax over consistent candidates)."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.mastermind import code_text
from envsuite.families.text.mastermind_rules import feedback_key
from envsuite.families.text.mastermind_solver import MinimaxStrategy, strategy_for


class MastermindOracle:
    """Plays :mod:`.mastermind_solver`'s strategy from the feedback the env gave so far.

    It reads the guesses and their feedback from ``env.unwrapped`` (it never reads the
    secret), and answers with the code as text in text mode and its index in vector mode.
    Every 4-peg 6-colour code falls in at most 5 guesses.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self.strategy: MinimaxStrategy = strategy_for(self.env.rules)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: the strategy is a function of the feedback so far."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The strategy's next guess."""
        raw = self.env
        index = raw.table.index
        length = raw.rules.code_length
        history = tuple(
            (index[code], feedback_key(black, white, length))
            for code, (black, white) in raw.game.guesses
        )
        guess = self.strategy.next_guess(history)
        return guess if raw.observation_mode == "vector" else code_text(raw.table.codes[guess])


def mastermind_oracle(env: Any) -> MastermindOracle:
    """The Mastermind-v0 oracle (see :class:`MastermindOracle`)."""
    return MastermindOracle(env)
