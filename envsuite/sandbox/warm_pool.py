"""A pool of started, unused sandboxes per image, refilled in the background.

Starting a container costs most of a reset (~0.5–1 s); the pool keeps ``size`` of them
started, so ``acquire`` usually only hands one over. Sandboxes are never returned: each is
used for one episode and destroyed, and a background thread starts its replacement.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from envsuite.sandbox.interface import Sandbox

SandboxT = TypeVar("SandboxT", bound=Sandbox)


class WarmPool(Generic[SandboxT]):
    """Keeps ``size`` fresh sandboxes from ``start`` ready for :meth:`acquire`.

    Args:
        start: Starts one new sandbox (called from the background thread, and inline when
            the pool is empty).
        size: Sandboxes kept ready; 0 turns the pool off (every acquire starts one).
    """

    def __init__(self, start: Callable[[], SandboxT], size: int = 1) -> None:
        if size < 0:
            raise ValueError(f"size must be >= 0, got {size}")
        self._start = start
        self.size = size
        self._ready: deque[SandboxT] = deque()
        self._condition = threading.Condition()
        self._closed = False
        self._starting = 0
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None
        if size:
            self._thread = threading.Thread(target=self._refill, name="envsuite-pool", daemon=True)
            self._thread.start()
        _live_pools.add(self)

    @property
    def ready(self) -> int:
        """Sandboxes started and waiting."""
        with self._condition:
            return len(self._ready)

    def acquire(self) -> SandboxT:
        """A started sandbox: a healthy pooled one if any, else a newly started one."""
        with self._condition:
            while self._ready:
                sandbox = self._ready.popleft()
                self._condition.notify_all()
                if sandbox.health() is None:
                    return sandbox
                sandbox.close()
            self._condition.notify_all()
        return self._start()

    def wait_until_full(self, timeout_s: float = 60.0) -> bool:
        """Block until ``size`` sandboxes are ready (for benchmarks and warm-up)."""
        with self._condition:
            return self._condition.wait_for(
                lambda: len(self._ready) >= self.size or self._closed, timeout=timeout_s
            )

    def _refill(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(
                    lambda: self._closed or len(self._ready) + self._starting < self.size
                )
                if self._closed:
                    return
                self._starting += 1
            sandbox: SandboxT | None = None
            try:
                sandbox = self._start()
                self.last_error = None
            except Exception as exc:  # kept for diagnosis; acquire starts inline instead
                self.last_error = f"{type(exc).__name__}: {exc}"
            with self._condition:
                self._starting -= 1
                if sandbox is not None and not self._closed:
                    self._ready.append(sandbox)
                    sandbox = None
                self._condition.notify_all()
                failed = self.last_error is not None
            if sandbox is not None:
                sandbox.close()
            if failed:
                with self._condition:
                    # Back off instead of spinning on an engine that keeps refusing.
                    self._condition.wait(timeout=5.0)

    def close(self) -> None:
        """Stop refilling and destroy the waiting sandboxes."""
        with self._condition:
            self._closed = True
            waiting = list(self._ready)
            self._ready.clear()
            self._condition.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=120)
        for sandbox in waiting:
            with contextlib.suppress(Exception):
                sandbox.close()


#: Pools not closed yet. At interpreter exit each is closed, waiting for a sandbox being
#: started in the background, so that no container outlives the process.
_live_pools: weakref.WeakSet[Any] = weakref.WeakSet()


@atexit.register
def _close_live_pools() -> None:
    for pool in list(_live_pools):
        with contextlib.suppress(Exception):
            pool.close()
