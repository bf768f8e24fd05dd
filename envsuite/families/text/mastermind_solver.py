"""The Mastermind oracle's strategy: Knuth's minimax, or minimax over consistent candidates.

Where a setting allows at most :data:`FULL_MINIMAX_LIMIT` codes (the classic 4 pegs and 6
colours has 1,296), the strategy is Knuth's (1976): keep the codes consistent with every
feedback so far; guess the code, among *all* codes, whose worst feedback leaves the fewest
candidates; among ties prefer a candidate (it might win now), then the lowest index. The
first guess is then 1 1 2 2, and every 4-peg 6-colour code is found in at most 5 guesses
(mean 5801 / 1296 = 4.476; the tests play all of them). A feedback table of every code
against every code makes each choice one numpy pass.

Larger settings use a consistent-candidate strategy: the guess is always a code consistent
with every feedback so far, and among those the one whose worst feedback leaves the fewest
candidates, scored against the candidates; above :data:`SCORED_LIMIT` candidates, the
guesses tried and the answers scored are evenly spaced samples of the candidates (so a
choice costs at most ``SAMPLE_GUESSES * SAMPLE_ANSWERS`` feedbacks). Every guess being
consistent, each one removes itself at least, and in practice most of the candidates; the
tests play every code of several settings within the env's default budget of 10.

A strategy is a function of the history of (guess, feedback) only, so its choices form a
tree; :class:`MinimaxStrategy` caches each node it reaches (guess and candidates), and
:func:`strategy_for` keeps one strategy per setting for the process, so replaying the
oracle over many episodes computes each node once.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from envsuite.families.text.mastermind_rules import MastermindRules, feedback_key

#: Settings with at most this many codes get Knuth's minimax over every code.
FULL_MINIMAX_LIMIT = 2000
#: Above this many candidates, the consistent-candidate strategy scores samples.
SCORED_LIMIT = 1000
SAMPLE_GUESSES = 200
SAMPLE_ANSWERS = 2000

History = tuple[tuple[int, int], ...]


class MinimaxStrategy:
    """The guess to make after any history of (guess index, feedback key) pairs."""

    def __init__(self, rules: MastermindRules) -> None:
        self.rules = rules
        self.table = rules.codes()
        everything = np.arange(len(self.table))
        self.full = len(self.table) <= FULL_MINIMAX_LIMIT
        self._all_feedback = self.table.feedback_keys(everything, everything) if self.full else None
        self._candidates: dict[History, np.ndarray] = {(): everything}
        self._guesses: dict[History, int] = {}

    def candidates(self, history: History) -> np.ndarray:
        """Indices of the codes consistent with every feedback of ``history``."""
        found = self._candidates.get(history)
        if found is None:
            parent = self.candidates(history[:-1])
            guess, key = history[-1]
            keys = self.table.feedback_keys(np.array([guess]), parent)[0]
            found = parent[keys == key]
            self._candidates[history] = found
        return found

    def next_guess(self, history: History) -> int:
        """The index of the code to guess after ``history``.

        Raises:
            ValueError: no code is consistent with ``history`` (the feedback was not given
                by any secret).
        """
        guess = self._guesses.get(history)
        if guess is None:
            candidates = self.candidates(history)
            if len(candidates) == 0:
                raise ValueError("no code is consistent with the feedback so far")
            guess = self._choose(candidates)
            self._guesses[history] = guess
        return guess

    def play(self, secret: int) -> list[int]:
        """The guesses (indices) the strategy makes against ``secret``, the last one right."""
        length = self.rules.code_length
        codes = self.table.codes
        history: History = ()
        guesses = []
        while True:
            guess = self.next_guess(history)
            guesses.append(guess)
            if guess == secret:
                return guesses
            black = sum(a == b for a, b in zip(codes[secret], codes[guess], strict=True))
            shared = sum(
                min(codes[secret].count(c), codes[guess].count(c)) for c in set(codes[guess])
            )
            history = (*history, (guess, feedback_key(black, shared - black, length)))

    def _choose(self, candidates: np.ndarray) -> int:
        if len(candidates) <= 2:
            return int(candidates[0])
        if self._all_feedback is not None:
            worst = _worst_partitions(self._all_feedback[:, candidates], self.rules)
            best = np.flatnonzero(worst == worst.min())
            consistent = best[np.isin(best, candidates)]
            return int(consistent[0] if len(consistent) else best[0])
        guesses = _spread(candidates, SAMPLE_GUESSES if len(candidates) > SCORED_LIMIT else 0)
        answers = _spread(candidates, SAMPLE_ANSWERS if len(candidates) > SCORED_LIMIT else 0)
        worst = _worst_partitions(self.table.feedback_keys(guesses, answers), self.rules)
        return int(guesses[int(np.argmin(worst))])


def _spread(indices: np.ndarray, count: int) -> np.ndarray:
    """``count`` evenly spaced members of ``indices`` (all of them when ``count`` is 0)."""
    if count == 0 or len(indices) <= count:
        return indices
    return indices[np.linspace(0, len(indices) - 1, count).astype(np.int64)]


def _worst_partitions(keys: np.ndarray, rules: MastermindRules) -> np.ndarray:
    """Per guess (row of ``keys``), the size of its largest class of answers by feedback."""
    width = rules.feedback_count
    rows = keys.shape[0]
    offsets = keys.astype(np.int64) + width * np.arange(rows, dtype=np.int64)[:, None]
    counts = np.bincount(offsets.ravel(), minlength=rows * width).reshape(rows, width)
    return counts.max(axis=1)


@functools.cache
def strategy_for(rules: MastermindRules) -> MinimaxStrategy:
    """The one strategy of ``rules`` for this process (its tree grows as it is played)."""
    return MinimaxStrategy(rules)


def guess_counts(rules: MastermindRules, secrets: Sequence[int] | None = None) -> list[int]:
    """How many guesses the strategy needs for each secret (every code by default)."""
    strategy = strategy_for(rules)
    chosen = range(len(strategy.table)) if secrets is None else secrets
    return [len(strategy.play(secret)) for secret in chosen]
