"""Hangman's rules: the hidden word, the letters and words guessed, the lives left.

A guess is one letter or the whole word. A letter in the word reveals every copy of it;
a letter not in the word costs a life. The right word wins at once; a wrong word costs a
life. The game is won when every letter is revealed, lost when no life is left.

The engine is plain Python: no Gymnasium, no text beyond the rule each refusal names.
"""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"


class HangmanGame:
    """One game of Hangman.

    Args:
        word: The hidden word (letters a-z).
        lives: Misses allowed before the game is lost.
    """

    def __init__(self, word: str, lives: int) -> None:
        self.word = word
        self.max_lives = lives
        self.lives = lives
        #: Letters guessed, in order.
        self.letters: list[str] = []
        #: Wrong whole-word guesses, in order.
        self.wrong_words: list[str] = []
        self.solved = False

    @property
    def pattern(self) -> str:
        """The word with every letter not yet guessed as ``_``."""
        if self.solved:
            return self.word
        return "".join(c if c in self.letters else "_" for c in self.word)

    @property
    def misses(self) -> list[str]:
        """The guessed letters that are not in the word, in order."""
        return [c for c in self.letters if c not in self.word]

    @property
    def won(self) -> bool:
        """Whether every letter is revealed (or the word was guessed)."""
        return self.solved or all(c in self.letters for c in self.word)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.won or self.lives == 0

    def unguessed(self) -> list[str]:
        """The letters not guessed yet, a to z."""
        return [c for c in LETTERS if c not in self.letters]

    def refusal(self, guess: str) -> str | None:
        """The rule ``guess`` breaks, or None when it is a legal guess.

        Checked in this order: letters a-z only, a letter already guessed, a word of the
        wrong length, a word already guessed.
        """
        if not (guess.isascii() and guess.isalpha() and guess.islower()):
            return f"{guess!r} is not a letter or a word of letters a-z"
        if len(guess) == 1:
            if guess in self.letters:
                return f"the letter {guess!r} was already guessed"
            return None
        if len(guess) != len(self.word):
            return (
                f"{guess!r} has {len(guess)} letters; the word has {len(self.word)} "
                "(guess one letter or the whole word)"
            )
        if guess in self.wrong_words:
            return f"the word {guess!r} was already guessed"
        return None

    def guess(self, guess: str) -> bool:
        """Play a legal guess (see :meth:`refusal`); return whether it was right."""
        if len(guess) == 1:
            self.letters.append(guess)
            hit = guess in self.word
        else:
            hit = guess == self.word
            if hit:
                self.solved = True
            else:
                self.wrong_words.append(guess)
        if not hit:
            self.lives -= 1
        return hit
