"""Many envsuite servers as Ray actors, for users who outgrow one machine.

:class:`RayServers` starts ``count`` servers of one :class:`ServeConfig`, each a Ray actor
running :class:`~envsuite.serve.server.RunningServer` in its own process (spread over the
cluster's nodes where Ray can), and gives their URLs; :meth:`RayServers.pool` is the
:class:`~envsuite.remote.server_pool.ServerPool` over them, which spreads sessions over the
servers and moves an episode whose server dies to another one. Ray is envsuite's
distributed executor already (:mod:`envsuite.evaluation.executors.ray_executor`); a local
Ray is started if none is running (``RAY_ADDRESS`` points at a cluster).

Each server binds the config's ``host``: loopback by default, so on one machine nothing is
reachable from outside. On a cluster, where the client runs on another node, pass
``host=NODE_ADDRESS`` to bind each node's own address (what Ray reports for it), and a
``token``: a server that binds a network address serves anyone who reaches it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import warnings
from collections.abc import Sequence
from typing import Any

from envsuite.errors import EnvsuiteError
from envsuite.registry import import_optional
from envsuite.remote.server_pool import ServerPool
from envsuite.serve.config import ServeConfig

#: ``host`` value that makes each server bind the address of the node it runs on.
NODE_ADDRESS = "node"
#: Addresses only this machine reaches.
LOCAL_HOSTS = ("127.0.0.1", "::1", "localhost")
NOT_PLACED = (
    "{count} envsuite servers did not all start within {seconds:g} s: each reserves "
    "{cpus:g} CPU and Ray has {free:g} free (other actors hold the rest?)"
)
UNGUARDED = (
    "envsuite servers binding {host} without a token: anyone who reaches the nodes can use them"
)


class ServersNotStarted(EnvsuiteError):
    """Ray could not start every server (no room on the cluster, or a server failed)."""


class _ServerActor:
    """A Ray actor running one envsuite server in a thread of its process."""

    def __init__(self, config: ServeConfig) -> None:
        import envsuite  # noqa: F401  (registers the specs in the actor's process)
        from envsuite.serve.server import RunningServer

        if config.host == NODE_ADDRESS:
            import ray

            config = dataclasses.replace(config, host=ray.util.get_node_ip_address())
        self.server = RunningServer(config)

    def url(self) -> str:
        """``http://host:port`` of the server."""
        return self.server.url

    def stop(self) -> None:
        """Stop the server (every session and env closed)."""
        self.server.stop()


class RayServers:
    """``count`` envsuite servers of ``config``, each a Ray actor; a context manager.

    Args:
        config: What each server serves and how (its ``port`` is usually 0: each server
            picks a free port; ``host`` is loopback unless :data:`NODE_ADDRESS` or an
            address is given).
        count: Number of servers.
        num_cpus: CPUs Ray reserves for each server.
        start_timeout: Seconds to wait for every server to listen.

    Raises:
        ValueError: ``count`` below 1, or a fixed port shared by several servers on one host.
        MissingExtraError: Ray is not installed (the ``ray`` extra).
        ServersNotStarted: the servers did not all listen within ``start_timeout`` (Ray
            could not place them: too few free CPUs), or one failed to start.
    """

    def __init__(
        self,
        config: ServeConfig,
        count: int = 2,
        *,
        num_cpus: float = 1,
        start_timeout: float = 300.0,
    ) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"count must be an int >= 1, got {count!r}")
        if count > 1 and config.port != 0 and config.host != NODE_ADDRESS:
            raise ValueError(f"{count} servers cannot all listen on {config.host}:{config.port}")
        if config.host not in LOCAL_HOSTS and config.token is None:
            warnings.warn(UNGUARDED.format(host=config.host), stacklevel=2)
        self.config = config
        self.ray: Any = import_optional("ray", extra="ray")
        if not self.ray.is_initialized():
            self.ray.init(
                num_cpus=max(1, int(count * num_cpus)),
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        actor = self.ray.remote(num_cpus=num_cpus, scheduling_strategy="SPREAD")(_ServerActor)
        self.actors: list[Any] = [actor.remote(config) for _ in range(count)]
        try:
            self.urls: tuple[str, ...] = tuple(
                self.ray.get([server.url.remote() for server in self.actors], timeout=start_timeout)
            )
        except self.ray.exceptions.GetTimeoutError as exc:
            self.stop()
            free = self.ray.available_resources().get("CPU", 0)
            raise ServersNotStarted(
                NOT_PLACED.format(count=count, seconds=start_timeout, cpus=num_cpus, free=free)
            ) from exc
        except self.ray.exceptions.RayActorError as exc:
            self.stop()
            raise ServersNotStarted(f"an envsuite server actor failed to start: {exc}") from exc
        except BaseException:
            self.stop()
            raise

    def pool(self, timeout: float | None = None) -> ServerPool:
        """A :class:`ServerPool` over the servers (with the config's token)."""
        if timeout is None:
            return ServerPool(self.urls, token=self.config.token)
        return ServerPool(self.urls, token=self.config.token, timeout=timeout)

    def kill(self, index: int) -> None:
        """Kill server ``index``'s actor at once (its process dies, as on a lost node)."""
        self.ray.kill(self.actors[index], no_restart=True)

    def stop(self) -> None:
        """Stop every server (closing its sessions), then end its actor; safe to call twice."""
        actors, self.actors = self.actors, []
        _stop_all(self.ray, actors)

    def __enter__(self) -> RayServers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _stop_all(ray: Any, actors: Sequence[Any]) -> None:
    stopping = [actor.stop.remote() for actor in actors]
    for actor, stopped in zip(actors, stopping, strict=True):
        with contextlib.suppress(Exception):  # already dead: killed, or its node is gone
            ray.get(stopped, timeout=60)
        ray.kill(actor, no_restart=True)
