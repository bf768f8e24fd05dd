"""The ``Wordle-v0`` oracle: the candidate-splitting solver of :mod:`.wordle_solver`."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.wordle_solver import solver


class WordleOracle:
    """Plays :func:`~.wordle_solver.solver`'s guesses from the marks seen so far.

    It reads the guesses and marks of the game in progress from ``env.unwrapped.game``
    (what the player has been shown, never the answer) and answers with the word in text
    mode or its index in vector mode.
    """

    def __init__(self, env: Any) -> None:
        self.raw = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the solver reads the game's history at every turn."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next guess: a word or letter in text mode, its index in vector mode."""
        game = self.raw.game
        word = solver(game.word_length).next_guess(
            list(zip(game.guesses, game.marks, strict=True)),
            hard_mode=game.hard_mode,
            guesses_left=game.max_guesses - len(game.guesses),
        )
        return word if self.raw.text_mode else self.raw.lex.guess_index[word]


def wordle_oracle(env: Any) -> WordleOracle:
    """The Wordle-v0 oracle (finds every 5-letter answer within six guesses)."""
    return WordleOracle(env)
