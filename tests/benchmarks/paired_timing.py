"""Timing an envsuite loop and its raw engine loop in turns, for a benchmark's ratio."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed_against_raw(
    benchmark: Any, function: Callable[[], tuple[int, int]], raw: Callable[[], Any], rounds: int
) -> Any:
    """Benchmark ``function`` (which returns ``(steps, ...)``); then time it and ``raw`` in
    turns, best of ``rounds`` each on one clock (process time), and put both rates and
    their ratio (envsuite time over raw time) into ``extra_info``."""
    result = benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=1)
    env_best = raw_best = float("inf")
    for _ in range(rounds):
        env_best = min(env_best, process_seconds(function))
        raw_best = min(raw_best, process_seconds(raw))
    benchmark.extra_info["env_steps_per_s"] = result[0] / env_best
    benchmark.extra_info["raw_steps_per_s"] = result[0] / raw_best
    benchmark.extra_info["raw_ratio"] = env_best / raw_best
    return result


def process_seconds(function: Callable[[], Any]) -> float:
    """CPU seconds one call of ``function`` takes."""
    started = time.process_time()
    function()
    return time.process_time() - started
