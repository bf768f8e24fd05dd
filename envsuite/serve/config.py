"""How a server is set up: which envs, where it listens, its limits and its policies."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from envsuite.registry import registry
from envsuite.serve.kwargs_policy import KwargsPolicy

#: The address a server binds unless told otherwise: loopback only.
LOOPBACK = "127.0.0.1"


@dataclasses.dataclass(frozen=True)
class ServeConfig:
    """The settings of one ``envsuite serve``.

    Attributes:
        env_ids: The envs served; the first is also served at the root paths (``/ws``,
            ``/reset``, ...), each at ``/envs/<Name>-v<N>/...``.
        host: Address to bind; loopback unless told otherwise.
        port: TCP port (0 picks a free one).
        max_sessions: Most sessions open at once; one more is refused (429 /
            ``CAPACITY_REACHED``).
        token: A bearer token every request must carry (``Authorization: Bearer ...``);
            None serves without one.
        idle_timeout: Seconds without a message after which a session is closed, its env
            with it (the WebSocket is closed with code 4408).
        max_message_bytes: Largest HTTP body or WebSocket message accepted (413 beyond).
        allowed_kwargs: Per env id, the kwargs clients may set (the env's typed scalar
            arguments when an id is absent; see :mod:`envsuite.serve.kwargs_policy`).
        fixed_kwargs: Per env id, kwargs the server sets and clients cannot change.
        allow_oracle: Let clients ask the envs' oracles for actions (reveals hidden state;
            for tests and demonstrations, never for training).
        worker_threads: Threads env calls run in (the event loop stays free for I/O).
    """

    env_ids: tuple[str, ...]
    host: str = LOOPBACK
    port: int = 8000
    max_sessions: int = 1024
    token: str | None = None
    idle_timeout: float = 300.0
    max_message_bytes: int = 8 << 20
    allowed_kwargs: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    fixed_kwargs: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    allow_oracle: bool = False
    worker_threads: int = 4

    def __post_init__(self) -> None:
        if not self.env_ids:
            raise ValueError("serve at least one env id")
        for env_id in (*self.env_ids, *self.allowed_kwargs, *self.fixed_kwargs):
            registry[env_id]  # an unknown id fails here, with "did you mean"
        for env_id in (*self.allowed_kwargs, *self.fixed_kwargs):
            if env_id not in self.env_ids:
                raise ValueError(f"{env_id} has a policy but is not served")
        if self.max_sessions < 1:
            raise ValueError("max_sessions must be >= 1")
        if not self.idle_timeout > 0:
            raise ValueError("idle_timeout must be > 0 seconds")
        if self.worker_threads < 1:
            raise ValueError("worker_threads must be >= 1")
        object.__setattr__(self, "env_ids", tuple(dict.fromkeys(self.env_ids)))

    def policies(self) -> dict[str, KwargsPolicy]:
        """Each served env's :class:`KwargsPolicy` (its extra must be installed)."""
        return {
            env_id: KwargsPolicy.for_spec(
                registry[env_id],
                self.allowed_kwargs.get(env_id),
                self.fixed_kwargs.get(env_id),
                self.allow_oracle,
            )
            for env_id in self.env_ids
        }
