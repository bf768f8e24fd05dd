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
    their ratio (envsuite time over raw time) into ``extra_info``.

    With benchmarks disabled (a plain ``pytest``), ``function`` runs once and ``raw`` once:
    the checks need one call each, and the extra rounds only steady a timing nobody reads.
    """
    started = time.process_time()
    result = benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=1)
    if benchmark.enabled:
        env_best = raw_best = float("inf")
        for _ in range(rounds):
            env_best = min(env_best, process_seconds(function))
            raw_best = min(raw_best, process_seconds(raw))
    else:
        env_best = time.process_time() - started
        raw_best = process_seconds(raw)
    benchmark.extra_info["env_steps_per_s"] = result[0] / env_best
    benchmark.extra_info["raw_steps_per_s"] = result[0] / raw_best
    benchmark.extra_info["raw_ratio"] = env_best / raw_best
    return result


def timing_rounds(benchmark: Any, rounds: int) -> int:
    """``rounds`` when pytest-benchmark measures (``--benchmark-enable``), else 1.

    A plain ``pytest`` run calls each timed loop once for the checks in it; more rounds
    would only steady a best-of timing that nobody reads there.
    """
    return rounds if benchmark.enabled else 1


def process_seconds(function: Callable[[], Any]) -> float:
    """CPU seconds one call of ``function`` takes."""
    started = time.process_time()
    function()
    return time.process_time() - started


def timed_mean(
    benchmark: Any, means: dict[str, float], name: str, function: Callable[[], Any], rounds: int
) -> float:
    """Benchmark ``function`` (``rounds`` rounds after a warm-up) and keep its mean time.

    The mean (wall clock; one timed call when pytest-benchmark is disabled) goes into
    ``means[name]``, so a later row of the same run can take its ratio to it (:func:`peer_mean`).
    """
    started = time.perf_counter()
    benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=1)
    stats = getattr(benchmark, "stats", None)
    mean = stats.stats.mean if stats is not None else time.perf_counter() - started
    means[name] = mean
    return mean


def peer_mean(means: dict[str, float], name: str, function: Callable[[], Any]) -> float:
    """The peer row's mean time ``means[name]`` if this run measured it, else one timed call."""
    mean = means.get(name)
    if mean is None:
        started = time.perf_counter()
        function()
        mean = time.perf_counter() - started
    return mean
