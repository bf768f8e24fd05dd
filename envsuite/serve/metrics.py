"""Counters and step latencies of a running server (what ``GET /metrics`` shows)."""

from __future__ import annotations

import collections
import time
from typing import Any

import numpy as np

#: Step latencies kept for the percentiles (the most recent ones).
LATENCY_WINDOW = 20_000


class Metrics:
    """Counts of sessions, envs, steps and errors, and recent step latencies.

    ``live_envs`` counts envs made and not yet closed: it returns to 0 when every session
    is gone, which is how the tests see that nothing leaked.
    """

    def __init__(self) -> None:
        self.started = time.time()
        self.counts: collections.Counter[str] = collections.Counter()
        self.errors: collections.Counter[str] = collections.Counter()
        self.step_seconds: collections.deque[float] = collections.deque(maxlen=LATENCY_WINDOW)
        self.reset_seconds: collections.deque[float] = collections.deque(maxlen=LATENCY_WINDOW)

    def count(self, name: str, amount: int = 1) -> None:
        """Add ``amount`` to counter ``name``."""
        self.counts[name] += amount

    def error(self, code: str) -> None:
        """Count one error answered with ``code``."""
        self.errors[code] += 1

    def snapshot(self, sessions: int, live_envs: int, by_env: dict[str, int]) -> dict[str, Any]:
        """The JSON of ``GET /metrics``: counts, errors and latency percentiles (ms)."""
        return {
            "uptime_s": round(time.time() - self.started, 3),
            "sessions": sessions,
            "sessions_by_env": by_env,
            "live_envs": live_envs,
            "counts": dict(self.counts),
            "errors": dict(self.errors),
            "step_latency_ms": _percentiles(self.step_seconds),
            "reset_latency_ms": _percentiles(self.reset_seconds),
        }


def _percentiles(samples: collections.deque[float]) -> dict[str, float | int]:
    if not samples:
        return {"count": 0}
    values = np.fromiter(samples, dtype=float) * 1000.0
    p50, p90, p99 = np.percentile(values, [50, 90, 99])
    return {
        "count": len(values),
        "p50": round(float(p50), 4),
        "p90": round(float(p90), 4),
        "p99": round(float(p99), 4),
        "max": round(float(values.max()), 4),
    }
