"""The server's sessions: opening within capacity, running env calls, reaping idle ones.

Env calls run one at a time per session (each session has a lock). Where they run adapts
to the env: an env whose calls take under :data:`INLINE_SECONDS` on average (a bandit, a
word game) is called on the event loop itself, which saves a thread hand-off per step; a
slower one (a sandbox, a physics engine) runs in the thread pool, so it never stalls the
loop that serves every other session. A fast env that turns slow moves to the pool after
its first slow call. Closing a
session waits for its call in flight, then closes its env: an env is closed exactly once,
whoever closes it (the client, a dropped connection, the idle reaper, shutdown).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from envsuite.remote.protocol import CLOSE_IDLE
from envsuite.serve.config import ServeConfig
from envsuite.serve.env_session import EnvSession
from envsuite.serve.errors import RequestError
from envsuite.serve.metrics import Metrics

T = TypeVar("T")

#: Average env call time (seconds) under which an env's calls run on the event loop.
INLINE_SECONDS = 0.0005
#: Weight of the newest call in an env's running average call time.
_AVERAGE_WEIGHT = 0.1

#: Message a client of a reaped session gets.
REAPED = "session closed after {seconds:g} s without a message (the server's idle timeout)"


def _timed(call: Callable[[], T]) -> tuple[T, float]:
    # CPU time of this thread: in the pool, wall time would include waiting for the GIL.
    started = time.thread_time()
    result = call()
    return result, time.thread_time() - started


class SessionTable:
    """Every open session of one server, with its metrics.

    Args:
        config: The server's settings.
    """

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.policies = config.policies()
        self.sessions: dict[str, EnvSession] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        #: Called with the session when the reaper closes it (the WebSocket handler's
        #: way to close the connection with a reason).
        self.on_reap: dict[str, Callable[[str], Awaitable[None]]] = {}
        self.metrics = Metrics()
        self.executor = ThreadPoolExecutor(config.worker_threads, thread_name_prefix="envsuite")
        #: Running average of each env's step and reset call time (unknown: the pool).
        self.call_seconds: dict[str, float] = {}
        self._reaper: asyncio.Task[None] | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def open(self, env_id: str) -> EnvSession:
        """A new session of ``env_id`` (its env is made on first use).

        Raises:
            RequestError: ``UNKNOWN_ENV`` or ``CAPACITY_REACHED``.
        """
        policy = self.policies.get(env_id)
        if policy is None:
            served = ", ".join(self.policies)
            raise RequestError("UNKNOWN_ENV", f"{env_id!r} is not served here (served: {served})")
        if len(self.sessions) >= self.config.max_sessions:
            raise RequestError(
                "CAPACITY_REACHED",
                f"the server holds its maximum of {self.config.max_sessions} sessions; "
                "close one or retry later",
            )
        session = EnvSession(policy.spec, policy)
        self.sessions[session.id] = session
        self.locks[session.id] = asyncio.Lock()
        self.metrics.count("sessions_opened")
        return session

    def get(self, session_id: Any) -> EnvSession:
        """The open session ``session_id``.

        Raises:
            RequestError: ``UNKNOWN_SESSION`` (never opened, closed, or reaped).
        """
        session = self.sessions.get(session_id) if isinstance(session_id, str) else None
        if session is None:
            raise RequestError(
                "UNKNOWN_SESSION",
                f"no open session {str(session_id)[:80]!r} (closed, reaped after "
                f"{self.config.idle_timeout:g} s idle, or the server restarted); "
                "reset to start a new one",
            )
        return session

    async def run(self, session: EnvSession, call: Callable[[], T], kind: str = "") -> T:
        """Run ``call`` (an env call of ``session``) after the session's previous call.

        ``kind`` ``"step"`` or ``"reset"`` marks an env call: it runs on the event loop when
        the env's calls are fast (see the module docstring), and its wall time (the wait
        for a thread included) joins the latencies ``/metrics`` shows. Other calls (making
        an env, rendering, the oracle) always run in the pool.
        """
        lock = self.locks.get(session.id)
        if lock is None:
            raise self._gone(session)
        async with lock:
            if session.id not in self.sessions:
                raise self._gone(session)
            session.last_active = time.monotonic()
            average = self.call_seconds.get(session.spec.id)
            started = time.perf_counter()
            if kind and average is not None and average < INLINE_SECONDS:
                result, own = _timed(call)
            else:
                loop = asyncio.get_running_loop()
                result, own = await loop.run_in_executor(self.executor, _timed, call)
            elapsed = time.perf_counter() - started
            if kind:  # the env's own call time, without the wait for a thread
                previous = own if average is None else average
                self.call_seconds[session.spec.id] = previous + (own - previous) * _AVERAGE_WEIGHT
            session.last_active = time.monotonic()
        if kind == "step":
            self.metrics.step_seconds.append(elapsed)
            self.metrics.count("steps")
        elif kind == "reset":
            self.metrics.reset_seconds.append(elapsed)
            self.metrics.count("resets")
        return result

    def _gone(self, session: EnvSession) -> RequestError:
        return RequestError("UNKNOWN_SESSION", f"session {session.id} is closed")

    async def close(self, session_id: str, reason: str = "closed") -> None:
        """Close a session and its env (after its call in flight); no-op if already gone."""
        session = self.sessions.get(session_id)
        lock = self.locks.get(session_id)
        if session is None or lock is None:
            return
        async with lock:
            if self.sessions.pop(session_id, None) is None:
                return
            self.locks.pop(session_id, None)
            self.on_reap.pop(session_id, None)
            # counted as it leaves the table, so /metrics never shows a session gone but not
            # yet counted (its env's close may still be running in the executor)
            self.metrics.count(f"sessions_{reason}")
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self.executor, session.close)

    def live_envs(self) -> int:
        """Envs made and not closed (0 once every session is gone)."""
        return sum(1 for session in self.sessions.values() if session.env is not None)

    def snapshot(self) -> dict[str, Any]:
        """The metrics' JSON, with the current session counts."""
        by_env: dict[str, int] = {}
        for session in self.sessions.values():
            by_env[session.spec.id] = by_env.get(session.spec.id, 0) + 1
        return self.metrics.snapshot(len(self.sessions), self.live_envs(), by_env)

    # -- the reaper -----------------------------------------------------------------------
    def start_reaper(self) -> None:
        """Start closing idle sessions (called when the server starts)."""
        if self._reaper is None:
            self._reaper = asyncio.get_running_loop().create_task(self._reap_forever())

    async def _reap_forever(self) -> None:
        period = min(max(self.config.idle_timeout / 4, 0.05), 5.0)
        while True:
            await asyncio.sleep(period)
            await self.reap()

    async def reap(self) -> int:
        """Close every session idle longer than the timeout; how many were closed."""
        cutoff = time.monotonic() - self.config.idle_timeout
        idle = [
            sid
            for sid, session in list(self.sessions.items())
            if session.last_active < cutoff and not self.locks[sid].locked()
        ]
        message = REAPED.format(seconds=self.config.idle_timeout)
        for session_id in idle:
            notify = self.on_reap.get(session_id)
            await self.close(session_id, "reaped")
            if notify is not None:
                with contextlib.suppress(Exception):  # the connection may be gone already
                    await notify(message)
        return len(idle)

    async def shutdown(self) -> None:
        """Stop the reaper and close every session (the server is stopping)."""
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        for session_id in list(self.sessions):
            await self.close(session_id, "shutdown")
        self.executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["CLOSE_IDLE", "REAPED", "SessionTable"]
