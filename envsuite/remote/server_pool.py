"""Many envsuite servers used as one: sessions spread over them, a lost server's episodes moved.

:class:`ServerPool` holds the URLs of several ``envsuite serve`` servers (on other machines,
or started as Ray actors by :class:`envsuite.serve.ray_servers.RayServers`) and makes envs
on them: ``pool(env_id, kwargs)`` fits the ``env_factory`` slot of
:func:`envsuite.evaluation.rollout.rollout`, and ``pool.make(env_id, **kwargs)`` mirrors
:func:`envsuite.remote.make`. Each new env goes to the live server holding the fewest of
this pool's open sessions (ties in the order the URLs were given, so with equal load the
servers take turns).

A server that goes away: when a reset or step of a :class:`PooledRemoteEnv` finds its
connection lost, the env first tries a new session on the same server (a session reaped
for idling is not a dead server); if the server refuses the connection too, it is marked
down for the rest of the pool's life and the env moves to another live server, where it
makes the env again, resets it with the episode's seed and options and replays the
episode's actions so far. Envs are deterministic (same seed and actions, same
everything), so the episode goes on exactly where it was; every replayed answer is
compared with the one first received, and a mismatch (or no live server left) raises
:class:`~envsuite.remote.connection.SessionLost`, which the rollout runner and ``envsuite
eval`` treat as an infra error and retry from the start.

Only single-agent (Gymnasium) ids are pooled; multi-agent envs use
:func:`envsuite.remote.make` on one server.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from typing import Any

from envsuite.registry import registry
from envsuite.remote import protocol, wire
from envsuite.remote.connection import (
    DEFAULT_TIMEOUT,
    Connection,
    RemoteError,
    SessionLost,
    websocket_url,
)
from envsuite.remote.gymnasium_env import RemoteEnv

ALL_DOWN = "no server of the pool answers (down: {down})"


class NoServerLeft(SessionLost):
    """Every server of a pool is down."""


class ServerPool:
    """Several envsuite servers serving the same envs, used as one.

    Args:
        urls: ``http://host:port`` of each server (at least one, no repeats).
        token: The servers' bearer token, if they have one (the same for all).
        timeout: Seconds to wait for a connection and for each answer.

    Raises:
        ValueError: no URL, a repeated URL, or one that is not a server URL.
    """

    def __init__(
        self, urls: Sequence[str], *, token: str | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        urls = [url.rstrip("/") for url in urls]
        if not urls:
            raise ValueError("a server pool needs at least one server URL")
        if len(set(urls)) != len(urls):
            raise ValueError(f"a server URL is given twice: {urls}")
        for url in urls:
            websocket_url(url, "envsuite/X-v0")  # raises on a malformed URL
        self.urls = tuple(urls)
        self.token = token
        self.timeout = timeout
        self._lock = threading.Lock()
        self._sessions = dict.fromkeys(self.urls, 0)
        self._down: set[str] = set()

    # -- choosing servers -----------------------------------------------------------------
    @property
    def live(self) -> tuple[str, ...]:
        """The servers not marked down, in the order given."""
        with self._lock:
            return tuple(url for url in self.urls if url not in self._down)

    @property
    def down(self) -> tuple[str, ...]:
        """The servers marked down (they refused a new connection), in the order given."""
        with self._lock:
            return tuple(url for url in self.urls if url in self._down)

    def sessions(self) -> dict[str, int]:
        """Open sessions of this pool's envs per server."""
        with self._lock:
            return dict(self._sessions)

    def _claim(self, prefer: str | None = None) -> str:
        """A live server, counted as holding one more session.

        ``prefer`` if it is live, else the one holding the fewest.
        """
        with self._lock:
            live = [url for url in self.urls if url not in self._down]
            if not live:
                raise NoServerLeft(ALL_DOWN.format(down=", ".join(self._down_in_order())))
            url = prefer if prefer in live else min(live, key=lambda u: self._sessions[u])
            self._sessions[url] += 1  # (min keeps the first of ties: the servers take turns)
            return url

    def _down_in_order(self) -> list[str]:
        """The servers marked down (the caller holds the lock)."""
        return [url for url in self.urls if url in self._down]

    def _release(self, url: str) -> None:
        with self._lock:
            self._sessions[url] = max(0, self._sessions[url] - 1)

    def _connect(self, env_id: str, prefer: str | None = None) -> tuple[str, Connection]:
        """An open session on ``prefer`` if it answers, else on the least-loaded live server.

        A server that refuses the connection is marked down; when all are, each is tried
        once more before giving up (a restarted server is back in the pool).

        Raises:
            SessionLost: every server is down.
        """
        second_chance = True
        while True:
            try:
                url = self._claim(prefer)
            except NoServerLeft:
                if not second_chance:
                    raise
                # Every server is down: try each once more (one may have been restarted).
                second_chance = False
                with self._lock:
                    self._down.clear()
                continue
            connection = Connection(url, env_id, self.token, self.timeout)
            try:
                connection.open()
            except SessionLost:
                with self._lock:
                    self._sessions[url] = max(0, self._sessions[url] - 1)
                    self._down.add(url)
                continue
            return url, connection

    def check(self, env_ids: Sequence[str]) -> tuple[str, ...]:
        """Ask every server which envs it serves (``GET /envs``) before a run starts.

        A server that does not answer is marked down; one that answers must take the token
        and serve every id in ``env_ids``. Returns the live servers.

        Raises:
            RemoteError: a server refused the token, or does not serve one of ``env_ids``.
            NoServerLeft: no server answers.
        """
        import httpx

        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        for url in self.live:
            try:
                answer = httpx.get(f"{url}/envs", headers=headers, timeout=min(self.timeout, 30))
            except httpx.HTTPError:
                with self._lock:
                    self._down.add(url)
                continue
            if answer.status_code in (401, 403):
                raise RemoteError(f"{url} refused the token (HTTP {answer.status_code})")
            if answer.status_code != 200:
                raise RemoteError(f"{url}/envs answered HTTP {answer.status_code}: not a server?")
            missing = [env_id for env_id in env_ids if env_id not in answer.json()]
            if missing:
                raise RemoteError(f"{url} does not serve {', '.join(missing)}")
        live = self.live
        if not live:
            raise NoServerLeft(ALL_DOWN.format(down=", ".join(self.down)))
        return live

    # -- making envs ----------------------------------------------------------------------
    def make(self, env_id: str, **kwargs: Any) -> PooledRemoteEnv:
        """A Gymnasium env of ``env_id`` on the least-loaded live server (see the module).

        Raises:
            RemoteError: the server refused (an env it does not serve, a kwarg outside its
                allow-list, a wrong token, no free session).
            SessionLost: no server of the pool answers.
            WrongApiError: a multi-agent id.
        """
        spec = registry[env_id]
        if spec.multi_agent:
            from envsuite import errors

            raise errors.WrongApiError(
                errors.WRONG_API.format(
                    id=env_id,
                    api=spec.api,
                    what="a server pool makes single-agent envs; use envsuite.remote.make",
                )
            )
        return PooledRemoteEnv(self, env_id, **kwargs)

    def __call__(self, env_id: str, env_kwargs: dict[str, Any]) -> PooledRemoteEnv:
        """The rollout's ``env_factory``: ``make(env_id, **env_kwargs)``."""
        return self.make(env_id, **env_kwargs)

    def __repr__(self) -> str:
        return f"ServerPool({list(self.urls)!r}, down={list(self.down)!r})"

    def __getstate__(self) -> dict[str, Any]:
        """The pool without its lock (a pickled pooled env carries a copy of its pool)."""
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A copy with a lock of its own."""
        self.__dict__.update(state)
        self._lock = threading.Lock()


class ReplayMismatch(SessionLost):
    """Replaying an episode on another server gave other answers (a non-deterministic env)."""


def _digest(answer: Any) -> str:
    return hashlib.sha256(wire.dumps(answer).encode()).hexdigest()


class PooledRemoteEnv(RemoteEnv):
    """A :class:`RemoteEnv` on one server of a :class:`ServerPool`, moved when it goes down.

    Description:
        As :class:`RemoteEnv`: the env ``env_id`` made on a server with ``kwargs``, one
        WebSocket session, and exactly the in-process env's observations, rewards and
        infos. The server is the pool's least-loaded live one; when it goes away the
        session moves to another and the episode is replayed there (see the module).

    Observation:
        The served env's ``observation_space``.

    Action:
        The served env's ``action_space`` (any object is accepted, as by RemoteEnv).

    Reward:
        The served env's.

    Termination:
        The served env's.

    Arguments:
        pool: The servers.
        env_id: The served env's id.
        render_mode: As for :class:`RemoteEnv`.
        max_episode_steps: As for :class:`RemoteEnv`.
        kwargs: The env's keyword arguments (within what the servers allow).

    Version history:
        v0: Initial release.
    """

    def __init__(
        self,
        pool: ServerPool,
        env_id: str,
        *,
        render_mode: str | None = None,
        max_episode_steps: int | None = None,
        **kwargs: Any,
    ) -> None:
        self._pool = pool
        self._holding: str | None = None
        self._episode: list[tuple[str, Any, str]] = []  # (kind, data, answer digest)
        self._moves = 0
        try:
            super().__init__(
                pool.urls[0],  # a placeholder: _new_connection picks the server
                env_id,
                token=pool.token,
                timeout=pool.timeout,
                render_mode=render_mode,
                max_episode_steps=max_episode_steps,
                **kwargs,
            )
        except BaseException:
            self.close()
            raise

    @property
    def moves(self) -> int:
        """How many times this env moved to another server."""
        return self._moves

    def _new_connection(self) -> Connection:
        """A session on the pool's choice; later, on the same server if it still answers."""
        lost = self.url if hasattr(self, "_connection") else None
        self._let_go()
        url, connection = self._pool._connect(self.env_id, prefer=lost)
        if lost is not None and url != lost:
            self._moves += 1
        self.url = self._holding = url
        return connection

    def _let_go(self) -> None:
        held, self._holding = self._holding, None
        if held is not None:
            self._pool._release(held)

    def _reset_request(self, seed: int | None, options: dict[str, Any] | None) -> Any:
        data = {"seed": seed, "options": None if options is None else wire.encode(options)}
        self._episode = []
        return self._request(protocol.RESET, data)

    def _request(self, kind: str, data: Any = None) -> Any:
        """Send one message; a lost server moves the session and replays the episode."""
        for _ in range(len(self._pool.urls) + 2):
            try:
                if not self._connection.is_open:
                    self._reconnect()
                answer = self._connection.request(kind, data)
            except (ReplayMismatch, NoServerLeft):
                raise
            except SessionLost:
                self._connection.close()
                continue
            if kind in (protocol.RESET, protocol.STEP):
                self._episode.append((kind, data, _digest(answer)))
            return answer
        raise SessionLost(
            f"{self.env_id}: the session was lost {len(self._pool.urls) + 2} times in a row "
            f"(servers {', '.join(self._pool.urls)}; down: {', '.join(self._pool.down)})"
        )

    def _reconnect(self) -> None:
        """A new session (same server if it answers, else another) in this episode's state."""
        self._connection = self._new_connection()
        self._make()
        for number, (kind, data, digest) in enumerate(self._episode):
            if _digest(self._connection.request(kind, data)) != digest:
                self._connection.close()
                raise ReplayMismatch(
                    f"{self.env_id}: replaying the episode on {self.url} after its session "
                    f"was lost gave another answer at message {number} ({kind}); the env is "
                    "not deterministic, so the episode cannot be moved"
                )

    def close(self) -> None:
        """End the session; the server closes its env."""
        super().close()
        if getattr(self, "_pool", None) is not None:
            self._let_go()
