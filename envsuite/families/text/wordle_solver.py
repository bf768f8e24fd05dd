"""A Wordle solver: keep the answers consistent with the marks, split them as finely as possible.

At each turn the solver keeps the answers of the shipped list that would have given every
mark seen so far (the *candidates*), then picks the allowed guess that minimises the
expected number of candidates left after it, ``(sum of squared bucket sizes - [guess is a
candidate]) / candidates``, where a bucket is the candidates that would show one pattern of
marks (ties: a candidate first, then the earlier word of the list). With one guess left,
or two candidates, it guesses a candidate. In hard mode it considers only the guesses that
keep every revealed hint.

Speed: marks are computed for whole arrays of guesses and candidates at once with numpy
(:func:`marks_codes`); when candidates x allowed guesses is large the guesses considered
are the candidates plus the allowed words that best cover the candidates' uncertain
letters (:data:`POOL_PAIRS`); the first guess of each length is precomputed
(:data:`OPENINGS`, chosen by the same score over the whole lists); and the solver
remembers the guess it chose for every history it has seen, so a decision tree builds up
as games are played.

Measured on the shipped lists (every answer played, six guesses): 5 letters, every one of
the 2,318 answers found, 3.553 guesses on average (the bar, checked by
``tests/families/text/test_wordle_solver.py`` in about 15 s); 6 and 7 letters, every
answer (3.28 and 3.04 on average); 4 letters, all but one (``haze``, 4.05 on average). In
hard mode it wins 98.4% of the 5-letter answers (greedy choices can corner it in families
such as ``-ased``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from envsuite.families.text.wordle_rules import Hints, Lexicon, Marks, lexicon, marks_code

#: The first guess for each word length, precomputed by the solver's score over the
#: whole answer and guess lists (recompute them if the lists change).
OPENINGS: dict[int, str] = {4: "tale", 5: "ariel", 6: "salter", 7: "saltier"}
#: Largest number of (guess, candidate) pairs scored at one turn; beyond it the guesses
#: considered are narrowed (see the module docstring).
POOL_PAIRS = 1_500_000
#: Largest number of elements of one intermediate array of :func:`marks_codes`.
CHUNK_ELEMENTS = 4_000_000

History = tuple[tuple[str, Marks], ...]


def marks_codes(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """The marks codes (:func:`~.wordle_rules.marks_code`) of every guess against every answer.

    Args:
        guesses: Letter numbers, shape ``(m, L)``.
        answers: Letter numbers, shape ``(n, L)``.

    Returns:
        int32 array of shape ``(m, n)``.
    """
    m, length = guesses.shape
    n = answers.shape[0]
    out = np.zeros((m, n), dtype=np.int32)
    if m == 0 or n == 0:
        return out
    # Guess letter j (not green) is yellow when the answer's copies of it outside green
    # positions outnumber the guess's non-green copies before j. Moving the green copies
    # across: count(g_j) > before_j + green_j + #{i > j: g_i = g_j and green_i}, where
    # before_j is the number of copies of g_j at guess positions i < j.
    by_letter = np.zeros((26, n), dtype=np.int8)  # by_letter[x, a]: copies of x in a
    columns = np.arange(n)
    for j in range(length):  # one letter per answer and position: no index repeats
        by_letter[answers[:, j].astype(np.intp), columns] += 1
    pairs = [
        (i, j, guesses[:, i] == guesses[:, j])
        for j in range(length)
        for i in range(length)
        if i != j
    ]
    pairs = [(i, j, same) for i, j, same in pairs if same.any()]
    step = max(1, CHUNK_ELEMENTS // n)
    for start in range(0, m, step):
        g = guesses[start : start + step]
        green = [g[:, j, None] == answers[None, :, j] for j in range(length)]
        used = [green[j].astype(np.int8) for j in range(length)]
        for i, j, same in pairs:
            column = same[start : start + step, None]
            used[j] += column if i < j else column & green[i]
        code = out[start : start + step]
        for j in range(length):
            yellow = ~green[j] & (by_letter[g[:, j]] > used[j])
            code += (2 * green[j] + yellow) * np.int32(3**j)
    return out


class WordleSolver:
    """The solver for one word length (see the module docstring)."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        self.answer_letters = lex.answer_letters
        self.answer_guess_index = np.array([lex.guess_index[a] for a in lex.answers])
        self._choices: dict[tuple[History, bool, bool], str] = {}
        self._candidates: dict[History, np.ndarray] = {(): np.arange(len(lex.answers))}

    def candidates(self, history: History) -> np.ndarray:
        """Indices (into the answers) of the answers consistent with ``history``.

        Remembered per history: a history's candidates are its prefix's, filtered by
        the last guess, so games sharing a prefix filter it once.
        """
        history = tuple(history)
        keep = self._candidates.get(history)
        if keep is None:
            before = self.candidates(history[:-1])
            word, marks = history[-1]
            letters = self.lex.letters[self.lex.guess_index[word]][None]
            codes = marks_codes(letters, self.answer_letters[before])[0]
            keep = before[codes == marks_code(marks)]
            keep.flags.writeable = False
            self._candidates[history] = keep
        return keep

    def next_guess(
        self, history: Sequence[tuple[str, Marks]], *, hard_mode: bool, guesses_left: int
    ) -> str:
        """The guess to play after ``history`` (pairs of guess and marks)."""
        key = (tuple(history), hard_mode, guesses_left <= 1)
        choice = self._choices.get(key)
        if choice is None:
            choice = self._choose(key[0], hard_mode, guesses_left)
            self._choices[key] = choice
        return choice

    def _choose(self, history: History, hard_mode: bool, guesses_left: int) -> str:
        if not history:
            return OPENINGS[self.lex.word_length]
        keep = self.candidates(history)
        if len(keep) == 0:
            raise ValueError("no answer of the list is consistent with these marks")
        if len(keep) <= 2 or guesses_left <= 1:
            return self.lex.answers[int(keep[0])]
        pool = self._pool(keep, history, hard_mode)
        codes = marks_codes(self.lex.letters[pool], self.answer_letters[keep])
        buckets = 3**self.lex.word_length
        offsets = (np.arange(len(pool)) * buckets)[:, None]
        counts = np.bincount((codes + offsets).ravel(), minlength=len(pool) * buckets)
        squares = (counts.reshape(len(pool), buckets).astype(np.int64) ** 2).sum(axis=1)
        is_candidate = np.isin(pool, self.answer_guess_index[keep])
        # Lowest expected remainder; then candidates; then list order (pool is sorted).
        order = np.lexsort((pool, ~is_candidate, squares - is_candidate))
        return self.lex.guesses[int(pool[order[0]])]

    def _pool(self, keep: np.ndarray, history: History, hard_mode: bool) -> np.ndarray:
        """The guesses (indices into the allowed list) worth scoring now, sorted."""
        allowed = np.ones(len(self.lex.guesses), dtype=bool)
        for word, _ in history:
            allowed[self.lex.guess_index[word]] = False
        if hard_mode:
            hints = Hints()
            for word, marks in history:
                hints.add(word, marks)
            allowed &= hints.mask(self.lex)
        everything = np.flatnonzero(allowed)
        if len(everything) * len(keep) <= POOL_PAIRS:
            return everything
        # Narrow to the candidates plus the guesses covering the most uncertain letters.
        cand_letters = self.answer_letters[keep]
        present = np.zeros((len(keep), 26), dtype=bool)
        np.put_along_axis(present, cand_letters.astype(np.intp), True, axis=1)
        share = present.mean(axis=0)
        value = share * (1 - share)
        guess_present = np.zeros((len(everything), 26), dtype=bool)
        np.put_along_axis(guess_present, self.lex.letters[everything].astype(np.intp), True, axis=1)
        coverage = guess_present @ value
        size = max(1, POOL_PAIRS // len(keep))
        best = everything[np.argsort(-coverage, kind="stable")[:size]]
        candidates = self.answer_guess_index[keep]
        candidates = candidates[allowed[candidates]]
        return np.union1d(best, candidates)


@cache
def solver(word_length: int) -> WordleSolver:
    """The solver of ``word_length`` letters (one per process; it remembers its choices)."""
    return WordleSolver(lexicon(word_length))
