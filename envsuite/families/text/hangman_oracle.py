"""The ``Hangman-v0`` oracle: filter the word list by what is known, guess the likeliest letter.

The candidates are the words of the shipped answer list of the word's length (every split:
the list is public) that match the revealed pattern, hold no guessed letter at a hidden
position (so no missed letter at all) and are not a wrong word guessed before. The oracle
guesses the unguessed letter found in the most candidates (ties: alphabetical order); in
text mode, once one candidate is left, it guesses that word.

With 6 lives it wins 86.7% of the test split's words (4 letters 61%, 5: 80%, 6: 89%,
7: 95%; ``tests/families/text/test_hangman.py``): short words leave many candidates
that differ in one letter (``_ate``), which no letter order resolves within six misses.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from envsuite.families.text.hangman_rules import LETTERS, HangmanGame
from envsuite.families.text.word_lists import letter_array, load_words


class HangmanSolver:
    """The candidate-filtering solver for words of one length."""

    def __init__(self, words: tuple[str, ...]) -> None:
        self.words = words
        self.letters = letter_array(words)
        self.present = np.zeros((len(words), 26), dtype=bool)
        np.put_along_axis(self.present, self.letters.astype(np.intp), True, axis=1)

    def candidates(self, game: HangmanGame) -> np.ndarray:
        """Indices of the words consistent with what the player has seen of ``game``."""
        ok = np.ones(len(self.words), dtype=bool)
        guessed = np.array([ord(c) - ord("a") for c in game.letters], dtype=np.int8)
        for position, shown in enumerate(game.pattern):
            column = self.letters[:, position]
            if shown == "_":
                ok &= ~np.isin(column, guessed)
            else:
                ok &= column == ord(shown) - ord("a")
        keep = np.flatnonzero(ok)
        if game.wrong_words:
            wrong = set(game.wrong_words)
            keep = np.array([i for i in keep if self.words[i] not in wrong], dtype=np.intp)
        return keep

    def next_guess(self, game: HangmanGame, *, words_allowed: bool) -> str:
        """The letter (or, with ``words_allowed`` and one candidate left, the word) to guess."""
        keep = self.candidates(game)
        if words_allowed and len(keep) == 1:
            return self.words[int(keep[0])]
        counts = self.present[keep].sum(axis=0)
        for letter in game.letters:
            counts[ord(letter) - ord("a")] = -1
        return LETTERS[int(np.argmax(counts))]  # argmax: the first (alphabetical) of ties


@cache
def hangman_solver(word_length: int) -> HangmanSolver:
    """The solver over the answer list of ``word_length`` letters (one per process)."""
    return HangmanSolver(load_words("answers", word_length))


class HangmanOracle:
    """Plays :class:`HangmanSolver`'s guesses; reads the visible game from ``env.unwrapped``."""

    def __init__(self, env: Any) -> None:
        self.raw = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the solver reads the game at every turn."""

    def act(self, observation: Any, info: dict[str, Any]) -> Any:
        """The next guess: a word or letter in text mode, its index in vector mode."""
        game = self.raw.game
        guess = hangman_solver(len(game.pattern)).next_guess(game, words_allowed=self.raw.text_mode)
        return guess if self.raw.text_mode else LETTERS.index(guess)


def hangman_oracle(env: Any) -> HangmanOracle:
    """The Hangman-v0 oracle (candidate filtering; see the module docstring)."""
    return HangmanOracle(env)
