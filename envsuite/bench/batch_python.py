"""The Python a batched vector env runs outside ``Batch.step``, counted directly.

:class:`CountedBatch` stands in for an env's ``mujoco.batch.Batch`` while the bench runs
an episode: it forwards every call and adds up this thread's CPU seconds inside
``step``. The episode's CPU seconds less those is the Python outside the physics: the
env's step, its wrappers and the loop, on the thread that runs them. Nothing is
subtracted from another loop's time, so the noise of the physics (hundreds of
microseconds a step, with threads) does not land in a figure of tens.

The clock is ``time.thread_time``: the calling thread's CPU time, which neither another
process taking the core nor the batch's other threads add to. Reading it is a system
call (about a microsecond); a step's count pays for about one read outside what it
counts, which :func:`counter_seconds` measures on a step that does nothing so that the
figure can leave it out.

Cache misses stay in: between two ``Batch.step`` calls the physics and the machine's
interrupts evict the Python's code and data, and the Python pays to bring them back.
That is what the env costs in a real episode, and several times what the same step
costs in a loop with the physics left out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Any

#: The thread's CPU seconds (see the module docstring).
Clock = Callable[[], float]


class CountedBatch:
    """A ``Batch`` that counts the CPU seconds of its ``step`` calls; the rest forwarded.

    Args:
        batch: The batch to forward to.
        clock: The clock read around each step.

    Attributes:
        batch: The batch forwarded to.
        seconds: Seconds counted inside ``step`` since the last :meth:`restart`.
        calls: ``step`` calls since the last :meth:`restart`.
    """

    def __init__(self, batch: Any, clock: Clock = time.thread_time) -> None:
        self.batch = batch
        self._step = batch.step
        self._clock = clock
        self.seconds = 0.0
        self.calls = 0

    def step(self, *args: Any, **kwargs: Any) -> Any:
        """``batch.step(*args, **kwargs)``, counted."""
        started = self._clock()
        result = self._step(*args, **kwargs)
        self.seconds += self._clock() - started
        self.calls += 1
        return result

    def restart(self) -> None:
        """Count from zero."""
        self.seconds, self.calls = 0.0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.batch, name)


def outside_seconds(
    env: Any, actions: Collection[Any], seed: int, clock: Clock = time.thread_time
) -> float:
    """CPU seconds a step of ``env`` spends outside ``Batch.step``, over one episode.

    Resets ``env`` with ``seed`` (uncounted), then takes ``actions`` with a
    :class:`CountedBatch` in place of ``env.unwrapped.batch``, which is put back after.

    Args:
        env: A vector env holding its batch as ``env.unwrapped.batch``.
        actions: The batched actions, one per step.
        seed: The reset's seed.
        clock: The clock (the thread's CPU time).

    Returns:
        The episode's seconds less those counted inside ``Batch.step``, per step
        (:func:`counter_seconds` of the counter's own cost still in).
    """
    inner = env.unwrapped
    counted = CountedBatch(inner.batch, clock)
    inner.batch = counted
    try:
        env.reset(seed=seed)
        counted.restart()
        started = clock()
        for action in actions:
            env.step(action)
        total = clock() - started
    finally:
        inner.batch = counted.batch
    if counted.calls != len(actions):
        raise RuntimeError(f"{len(actions)} steps made {counted.calls} Batch.step calls")
    return (total - counted.seconds) / len(actions)


class _NoPhysics:
    """A batch whose step does nothing: what the counter costs by itself."""

    def step(self, *args: Any) -> None:
        return None


def counter_seconds(calls: int = 2000, clock: Clock = time.thread_time) -> float:
    """The CPU seconds a :class:`CountedBatch` adds outside what it counts, per step."""
    counted = CountedBatch(_NoPhysics(), clock)
    started = clock()
    for _ in range(calls):
        counted.step(None)
    total = clock() - started
    return (total - counted.seconds) / calls
