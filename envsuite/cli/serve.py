"""``envsuite serve ENV_ID [ENV_ID ...]``: serve envs behind OpenEnv's interface."""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from envsuite.cli.console import line, stderr
from envsuite.cli.env_kwargs import parse_value
from envsuite.cli.exits import USAGE, exit_with, reports_errors

EnvIdsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="ENV_ID",
        help="Envs to serve, e.g. envsuite/Wordle-v0 envsuite/SAT-v0; the first is also "
        "served at the root paths (/ws, /reset, ...), each at /envs/NAME-vN/.",
        show_default=False,
    ),
]
PortOption = Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="TCP port.")]
HostOption = Annotated[
    str,
    typer.Option(
        "--host",
        help="Address to bind. Loopback unless told otherwise; binding another address "
        "serves the network, so give it a --token.",
    ),
]
MaxSessionsOption = Annotated[
    int, typer.Option("--max-sessions", min=1, help="Most sessions open at once (429 beyond).")
]
TokenOption = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="ENVSUITE_SERVE_TOKEN",
        help="Bearer token every request must carry (Authorization: Bearer T); also read "
        "from ENVSUITE_SERVE_TOKEN, which keeps it out of the process list.",
        show_default=False,
    ),
]
IdleOption = Annotated[
    float,
    typer.Option(
        "--idle-timeout", min=0.001, help="Seconds without a message before a session closes."
    ),
]
AllowOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-kwargs",
        metavar="ENV_ID=NAME[,NAME...]",
        help="The kwargs clients may set for ENV_ID (repeatable; an empty list allows none). "
        "Default: the env's typed scalar arguments (GET /envs lists them).",
        show_default=False,
    ),
]
FixOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        "-s",
        metavar="ENV_ID:KEY=VALUE",
        help="A kwarg the server sets for ENV_ID and clients cannot change (repeatable; "
        "VALUE is read as JSON when it parses).",
        show_default=False,
    ),
]
OracleOption = Annotated[
    bool,
    typer.Option(
        "--allow-oracle",
        help="Let clients ask the envs' oracles for actions. They read hidden state: for "
        "testing a deployment (the conformance kit over the wire), never for training.",
    ),
]
MaxBytesOption = Annotated[
    int, typer.Option("--max-message-bytes", min=1024, help="Largest request accepted (413).")
]
ThreadsOption = Annotated[int, typer.Option("--threads", min=1, help="Threads env calls run in.")]
RayServersOption = Annotated[
    int,
    typer.Option(
        "--ray-servers",
        min=0,
        help="Start this many servers as Ray actors (a local Ray, or the cluster RAY_ADDRESS "
        "names) instead of one here; several on one host each pick a free port. With "
        "--host node each binds its node's address (give a --token).",
    ),
]
UrlsFileOption = Annotated[
    Path | None,
    typer.Option(
        "--urls-file",
        help="Write the servers' URLs to this file, one a line "
        "(for envsuite rollout --server @FILE).",
        show_default=False,
    ),
]


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""
    app.command("serve")(serve)


def _allowed(items: list[str] | None) -> dict[str, frozenset[str]]:
    allowed: dict[str, frozenset[str]] = {}
    for item in items or ():
        env_id, equals, names = item.partition("=")
        if not equals:
            raise typer.BadParameter(f"expected ENV_ID=NAME[,NAME...], got {item!r}")
        allowed[env_id.strip()] = frozenset(n.strip() for n in names.split(",") if n.strip())
    return allowed


def _fixed(items: list[str] | None) -> dict[str, dict[str, Any]]:
    fixed: dict[str, dict[str, Any]] = {}
    for item in items or ():
        env_id, colon, assignment = item.partition(":")
        key, equals, value = assignment.partition("=")
        if not colon or not equals or not key.strip().isidentifier():
            raise typer.BadParameter(f"expected ENV_ID:KEY=VALUE, got {item!r}")
        fixed.setdefault(env_id.strip(), {})[key.strip()] = parse_value(value, f"--set {key}")
    return fixed


@reports_errors
def serve(
    env_ids: EnvIdsArgument,
    port: PortOption = 8000,
    host: HostOption = "127.0.0.1",
    max_sessions: MaxSessionsOption = 1024,
    token: TokenOption = None,
    idle_timeout: IdleOption = 300.0,
    allow_kwargs: AllowOption = None,
    fixed: FixOption = None,
    allow_oracle: OracleOption = False,
    max_message_bytes: MaxBytesOption = 8 << 20,
    threads: ThreadsOption = 4,
    ray_servers: RayServersOption = 0,
    urls_file: UrlsFileOption = None,
) -> None:
    """Serve envs to trainers: OpenEnv's HTTP and WebSocket API, one env per session.

    Each WebSocket connection (or HTTP session) owns its own env, made with envsuite.make;
    reset takes the seed and the kwargs the server allows; idle sessions close after
    --idle-timeout seconds. GET /health, /metrics (sessions, steps, latency percentiles)
    and /envs (what clients may set). Connect with envsuite.remote.make(URL, ENV_ID) or
    OpenEnv's client. Needs the serve extra. --ray-servers N starts N servers behind Ray
    (the ray extra), for envsuite rollout --server URL --server URL ...
    """
    from envsuite.serve import ServeConfig
    from envsuite.serve import serve as run

    if host == "node" and not ray_servers:
        exit_with("--host node (each Ray node's address) needs --ray-servers", USAGE)
    try:
        config = ServeConfig(
            tuple(env_ids),
            host=host,
            port=port,
            max_sessions=max_sessions,
            token=token or None,
            idle_timeout=idle_timeout,
            max_message_bytes=max_message_bytes,
            allowed_kwargs=_allowed(allow_kwargs),
            fixed_kwargs=_fixed(fixed),
            allow_oracle=allow_oracle,
            worker_threads=threads,
        )
        config.policies()
    except (ValueError, TypeError) as exc:
        exit_with(str(exc), USAGE)
    errors = stderr()
    if host not in ("127.0.0.1", "::1", "localhost") and token is None:
        warning = f"Warning: serving {host} without a --token: anyone who reaches it can use it"
        line(errors, warning, "yellow")
    served = ", ".join(config.env_ids)

    def announce(url: str) -> None:
        line(errors, f"serving {served} at {url} (Ctrl-C stops)", "bold")
        if urls_file is not None:
            with open(urls_file, "a", encoding="utf-8") as listed:
                listed.write(url + "\n")

    if urls_file is not None:
        urls_file.write_text("", encoding="utf-8")
    if ray_servers:
        if port != 0 and ray_servers > 1 and host != "node":
            config = dataclasses.replace(config, port=0)
        _serve_on_ray(config, ray_servers, announce)
        return
    try:
        run(config, log_level="warning", announce=announce)
    except OSError as exc:
        exit_with(f"cannot listen on {host}:{port}: {exc}", USAGE)


def _serve_on_ray(config: Any, count: int, announce: Callable[[str], None]) -> None:
    """Start ``count`` servers as Ray actors, announce them, and wait for Ctrl-C or SIGTERM."""
    from envsuite.serve.ray_servers import RayServers

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unguarded-host warning was printed above
        servers = RayServers(config, count)
    stop = threading.Event()
    # After ray.init, which installs its own SIGTERM handler: SIGTERM stops the servers.
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        with servers:
            for url in servers.urls:
                announce(url)
            with contextlib.suppress(KeyboardInterrupt):
                while not stop.wait(0.5):
                    pass
    finally:
        signal.signal(signal.SIGTERM, previous)
