"""Timing loops in turns: every round times each loop once, in the same order."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


def cpu_seconds(function: Callable[[], Any]) -> float:
    """CPU seconds one call of ``function`` takes (this process's, all threads)."""
    started = time.process_time()
    function()
    return time.process_time() - started


def interleaved(
    loops: Mapping[str, Callable[[], Any]],
    rounds: int,
    clock: Callable[[Callable[[], Any]], float] = cpu_seconds,
) -> dict[str, list[float]]:
    """Time each loop once per round, in turns, after one untimed warm-up call each.

    Returns:
        Per loop name, its time in each round (``clock``'s unit, seconds by default).
    """
    for loop in loops.values():
        loop()
    times: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(rounds):
        for name, loop in loops.items():
            times[name].append(clock(loop))
    return times


@dataclass(frozen=True)
class Spread:
    """A ratio over interleaved rounds: the best round's and the median round's.

    Attributes:
        best: Ratio of the two loops' fastest rounds.
        median: Ratio of their median rounds.
    """

    best: float
    median: float

    @classmethod
    def of(cls, numerator: list[float], denominator: list[float]) -> Spread:
        """``numerator`` over ``denominator`` (lists of round times)."""
        return cls(
            min(numerator) / min(denominator),
            statistics.median(numerator) / statistics.median(denominator),
        )

    def text(self) -> str:
        """``1.12-1.20x`` (the smaller first)."""
        low, high = sorted((self.best, self.median))
        return f"{low:.2f}-{high:.2f}x"
