"""The rules of Mastermind: codes, the (black, white) feedback, and a game of guesses.

A code is a tuple of ``code_length`` colours, each an int in ``[0, num_colours)`` (the env
shows them as 1 to ``num_colours``). :class:`MastermindRules` fixes the settings and
enumerates every code the settings allow, in lexicographic order, so a code also has an
index (the vector mode's action). :class:`MastermindGame` holds the secret and the
guesses so far. No text, no Gymnasium, no generator here.

Feedback: black pegs count the positions where guess and secret agree; white pegs count
the colours the two share beyond those (for each colour, the smaller of its counts in
guess and secret, summed, minus the blacks). So with secret 1 1 2 2 the guess 1 2 1 1
gets 1 black (position 1) and 2 white (a 1 and a 2 in the wrong places): the guess's third
1 finds no partner.
"""

from __future__ import annotations

import functools
import itertools
import operator
from dataclasses import dataclass

import numpy as np

Code = tuple[int, ...]

#: Most codes a setting may allow (the vector mode's ``Discrete`` and the oracle's arrays).
MAX_CODES = 100_000


@dataclass(frozen=True)
class MastermindRules:
    """The settings of a game: pegs per code, colours, and whether colours may repeat."""

    code_length: int = 4
    num_colours: int = 6
    repeats: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.code_length <= 8:
            raise ValueError(f"code_length must be from 1 to 8; got {self.code_length!r}")
        if not 2 <= self.num_colours <= 9:
            raise ValueError(f"num_colours must be from 2 to 9; got {self.num_colours!r}")
        if not self.repeats and self.code_length > self.num_colours:
            raise ValueError(
                f"without repeats a code of {self.code_length} pegs needs at least as many "
                f"colours; got {self.num_colours}"
            )
        if self.count > MAX_CODES:
            raise ValueError(
                f"{self.count} codes for these settings; at most {MAX_CODES} are supported"
            )

    @functools.cached_property
    def count(self) -> int:
        """How many codes the settings allow."""
        if self.repeats:
            return int(self.num_colours**self.code_length)
        return int(np.prod(range(self.num_colours - self.code_length + 1, self.num_colours + 1)))

    @property
    def name(self) -> str:
        """A short canonical name of the settings, e.g. ``4x6r`` (``n`` without repeats)."""
        return f"{self.code_length}x{self.num_colours}{'r' if self.repeats else 'n'}"

    @property
    def feedback_count(self) -> int:
        """How many feedback keys there are (see :func:`feedback_key`)."""
        return (self.code_length + 1) ** 2

    def codes(self) -> CodeTable:
        """Every code the settings allow, with lookups (cached per settings)."""
        return _code_table(self)


class CodeTable:
    """Every code of a setting: as tuples, as an int8 array, colour counts, and indices."""

    def __init__(self, rules: MastermindRules) -> None:
        colours = range(rules.num_colours)
        if rules.repeats:
            codes = list(itertools.product(colours, repeat=rules.code_length))
        else:
            codes = list(itertools.permutations(colours, rules.code_length))
        self.rules = rules
        #: The codes in lexicographic order (a code's index is its place here).
        self.codes: list[Code] = codes
        self.index: dict[Code, int] = {code: i for i, code in enumerate(codes)}
        #: (count, code_length) int8: the pegs of every code.
        self.pegs = np.array(codes, dtype=np.int8).reshape(len(codes), rules.code_length)
        #: (count, num_colours) int8: how often each colour occurs in every code.
        self.colour_counts = np.stack(
            [(self.pegs == c).sum(axis=1) for c in colours], axis=1
        ).astype(np.int8)

    def __len__(self) -> int:
        return len(self.codes)

    def __reduce__(self) -> tuple[object, tuple[MastermindRules]]:
        # A pickle holds the settings only; loading it gives the process's own table.
        return (_code_table, (self.rules,))

    def feedback_keys(self, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
        """(len(guesses), len(answers)) int16: the feedback key of each guess on each answer."""
        black = (self.pegs[guesses][:, None, :] == self.pegs[answers][None, :, :]).sum(axis=2)
        shared = np.minimum(
            self.colour_counts[guesses][:, None, :], self.colour_counts[answers][None, :, :]
        ).sum(axis=2)
        return (black * (self.rules.code_length + 1) + (shared - black)).astype(np.int16)


@functools.cache
def _code_table(rules: MastermindRules) -> CodeTable:
    return CodeTable(rules)


def feedback(secret: Code, guess: Code) -> tuple[int, int]:
    """(black, white): right colour in the right place, right colour in the wrong place."""
    if len(secret) != len(guess):
        raise ValueError(f"the codes differ in length: {len(secret)} and {len(guess)} pegs")
    black = sum(map(operator.eq, secret, guess))
    shared = 0
    for colour in set(guess):
        in_secret, in_guess = secret.count(colour), guess.count(colour)
        shared += in_secret if in_secret < in_guess else in_guess
    return black, shared - black


def feedback_key(black: int, white: int, code_length: int) -> int:
    """One int for a feedback: ``black * (code_length + 1) + white``."""
    return black * (code_length + 1) + white


class MastermindGame:
    """A secret, a budget of guesses and the guesses so far with their feedback."""

    def __init__(self, rules: MastermindRules, secret: Code, max_guesses: int) -> None:
        self.rules = rules
        self.secret = secret
        self.max_guesses = max_guesses
        #: Every guess so far with its (black, white).
        self.guesses: list[tuple[Code, tuple[int, int]]] = []
        self.won = False

    @property
    def over(self) -> bool:
        """Whether the code is cracked or the guesses are spent."""
        return self.won or len(self.guesses) >= self.max_guesses

    def guessed(self, code: Code) -> bool:
        """Whether ``code`` was guessed already."""
        return any(code == g for g, _ in self.guesses)

    def guess(self, code: Code) -> tuple[int, int]:
        """Score ``code`` against the secret, record it, and return (black, white).

        Raises:
            ValueError: the game is over, or the code breaks the settings (the env checks
                these before, naming the rule).
        """
        if self.over:
            raise ValueError("the game is over")
        if len(code) != self.rules.code_length or not (
            min(code) >= 0 and max(code) < self.rules.num_colours
        ):
            raise ValueError(f"{code} is not a code of {self.rules.name}")
        result = feedback(self.secret, code)
        self.guesses.append((code, result))
        self.won = result[0] == self.rules.code_length
        return result
