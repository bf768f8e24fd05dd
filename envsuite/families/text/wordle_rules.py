"""Wordle's rules: the marks of a guess, what a guess must satisfy, and one game's state.

Marks (one per letter of the guess) follow the standard rule for repeated letters: first
every letter in its right place is green; then, left to right, a letter that is in the
answer elsewhere is yellow while the answer still has unmatched copies of it (copies not
already green or yellow); every other letter is grey. So for the answer ``abbey`` the
guess ``babes`` is marked ``Y Y G G .``, and ``kebab`` gets ``. Y G Y Y``; ``eerie``
against ``abbey`` is ``Y . . . .`` (one ``e`` only).

Hard mode: every hint revealed so far must be used: a letter marked green stays at its
position, and a guess holds each letter at least as many times as one earlier guess had it
marked green or yellow. Grey letters and yellow positions may be reused (as in the
published game's hard mode).

The engine is plain Python: no Gymnasium, no text beyond the rule each refusal names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from envsuite.families.text.word_lists import letter_array, load_words

GREY, YELLOW, GREEN = 0, 1, 2
#: The marks as the text shows them, indexed by mark.
MARK_SYMBOLS = (".", "Y", "G")
MARK_NAMES = ("grey", "yellow", "green")

Marks = tuple[int, ...]


def marks_of(guess: str, answer: str) -> Marks:
    """The marks of ``guess`` against ``answer`` (same length; see the module docstring)."""
    marks = [GREY] * len(guess)
    unmatched: dict[str, int] = {}
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            marks[i] = GREEN
        else:
            unmatched[a] = unmatched.get(a, 0) + 1
    for i, g in enumerate(guess):
        if marks[i] == GREY and unmatched.get(g, 0) > 0:
            marks[i] = YELLOW
            unmatched[g] -= 1
    return tuple(marks)


def marks_code(marks: Sequence[int]) -> int:
    """The marks as one number in ``[0, 3**len)``: ``sum(mark * 3**position)``."""
    return sum(mark * 3**i for i, mark in enumerate(marks))


@dataclass(frozen=True, eq=False)
class Lexicon:
    """The answers and allowed guesses of one word length, with their index arrays.

    Attributes:
        word_length: Letters per word.
        answers: The words a game may pick (sorted).
        guesses: The words a guess may be (sorted; every answer is one).
        guess_index: Each allowed guess's position in ``guesses``.
        letters: ``guesses`` as letter numbers (0 = a), shape ``(len(guesses), L)``.
    """

    word_length: int
    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    guess_index: dict[str, int] = field(repr=False)
    letters: np.ndarray = field(repr=False)

    @property
    def answer_letters(self) -> np.ndarray:
        """``answers`` as letter numbers, shape ``(len(answers), L)``."""
        return _answer_letters(self)


@cache
def lexicon(word_length: int) -> Lexicon:
    """The shipped lists of ``word_length`` letters (read and checked once per process)."""
    answers = load_words("answers", word_length)
    guesses = load_words("guesses", word_length)
    return Lexicon(
        word_length=word_length,
        answers=answers,
        guesses=guesses,
        guess_index={word: i for i, word in enumerate(guesses)},
        letters=letter_array(guesses),
    )


@cache
def _answer_letters(lex: Lexicon) -> np.ndarray:
    return letter_array(lex.answers)


class Hints:
    """The hints revealed so far, as hard mode needs them: greens and least letter counts."""

    def __init__(self) -> None:
        #: The letter each green position must keep.
        self.greens: dict[int, str] = {}
        #: How many times each revealed letter must appear, at least.
        self.min_counts: dict[str, int] = {}

    def add(self, word: str, marks: Marks) -> None:
        """Take in the marks of one guess."""
        revealed: dict[str, int] = {}
        for position, (letter, mark) in enumerate(zip(word, marks, strict=True)):
            if mark == GREEN:
                self.greens[position] = letter
            if mark != GREY:
                revealed[letter] = revealed.get(letter, 0) + 1
        for letter, count in revealed.items():
            if count > self.min_counts.get(letter, 0):
                self.min_counts[letter] = count

    def refusal(self, guess: str) -> str | None:
        """The revealed hint ``guess`` ignores, or None."""
        for position, letter in sorted(self.greens.items()):
            if guess[position] != letter:
                return f"hard mode: letter {position + 1} must be {letter!r} (it was green)"
        for letter, count in sorted(self.min_counts.items()):
            if guess.count(letter) < count:
                times = "once" if count == 1 else f"{count} times"
                return f"hard mode: the guess must use {letter!r} at least {times} (revealed)"
        return None

    def mask(self, lex: Lexicon) -> np.ndarray:
        """Which of ``lex.guesses`` keep every revealed hint (bool, one per guess)."""
        ok = np.ones(len(lex.guesses), dtype=bool)
        for position, letter in self.greens.items():
            ok &= lex.letters[:, position] == ord(letter) - ord("a")
        for letter, count in self.min_counts.items():
            ok &= (lex.letters == ord(letter) - ord("a")).sum(axis=1) >= count
        return ok


class WordleGame:
    """One game of Wordle: the answer, the guesses so far and the revealed hints.

    Args:
        answer: The hidden word (in ``allowed``).
        allowed: Every word a guess may be.
        max_guesses: Guesses before the game is lost.
        hard_mode: Whether revealed hints must be used (see the module docstring).
    """

    def __init__(
        self, answer: str, allowed: dict[str, int], max_guesses: int, hard_mode: bool
    ) -> None:
        self.answer = answer
        self.allowed = allowed
        self.word_length = len(answer)
        self.max_guesses = max_guesses
        self.hard_mode = hard_mode
        self.guesses: list[str] = []
        self.marks: list[Marks] = []
        self.hints = Hints()

    @property
    def won(self) -> bool:
        """Whether the last guess was the answer."""
        return bool(self.guesses) and self.guesses[-1] == self.answer

    @property
    def over(self) -> bool:
        """Whether the game has ended (won, or out of guesses)."""
        return self.won or len(self.guesses) >= self.max_guesses

    def refusal(self, guess: str) -> str | None:
        """The rule ``guess`` breaks, or None when it is a legal guess.

        Checked in this order: letters a-z only, the word length, the allowed list, a
        repeat of an earlier guess, then (in hard mode) the revealed hints.
        """
        if not (guess.isascii() and guess.isalpha() and guess.islower()):
            return f"{guess!r} is not a word of letters a-z"
        if len(guess) != self.word_length:
            return f"{guess!r} has {len(guess)} letters; the word has {self.word_length}"
        if guess not in self.allowed:
            return f"{guess!r} is not in the word list"
        if guess in self.guesses:
            return f"{guess!r} was already guessed"
        if self.hard_mode:
            return self.hints.refusal(guess)
        return None

    def guess(self, word: str) -> Marks:
        """Play a legal guess (see :meth:`refusal`) and return its marks."""
        marks = marks_of(word, self.answer)
        self.guesses.append(word)
        self.marks.append(marks)
        self.hints.add(word, marks)
        return marks
