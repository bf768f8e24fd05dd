"""The Docker SDK client envsuite shares within a process, and Docker availability."""

from __future__ import annotations

import os
import threading
from typing import Any

from envsuite.registry import import_optional

#: Set to 1 (CI does) to make "Docker is not available" a failure instead of a skip.
REQUIRE_DOCKER_VARIABLE = "ENVSUITE_REQUIRE_DOCKER"
#: Seconds the client waits on one API read; commands end long before (``timeout``).
CLIENT_TIMEOUT_S = 900
#: Label on every container envsuite starts (``envsuite sandbox prune`` removes them). Its
#: value predates the sandbox package; kept so containers of older processes are still reaped.
CONTAINER_LABEL = "envsuite.swe"
#: The pip extra that installs the Docker SDK: the swe family's, the sandbox layer's only
#: Docker user so far (a family that starts Docker sandboxes lists ``docker`` in its extra).
DOCKER_EXTRA = "swe"

_lock = threading.Lock()
_client: tuple[int, Any] | None = None


def docker_module() -> Any:
    """The ``docker`` package, or MissingExtraError naming the extra that installs it."""
    return import_optional("docker", extra=DOCKER_EXTRA, env_id="envsuite's Docker sandbox")


def docker_client() -> Any:
    """The process's Docker client (a new one after a fork)."""
    global _client
    with _lock:
        if _client is None or _client[0] != os.getpid():
            docker = docker_module()
            _client = (os.getpid(), docker.from_env(timeout=CLIENT_TIMEOUT_S))
        return _client[1]


def docker_unavailable_reason() -> str | None:
    """None when a Docker engine answers; otherwise why it cannot be used."""
    try:
        docker_client().ping()
    except Exception as exc:  # no SDK, no socket, no permission: all mean "unavailable"
        return f"{type(exc).__name__}: {exc}"
    return None


def docker_required() -> bool:
    """Whether ``ENVSUITE_REQUIRE_DOCKER=1`` is set."""
    return os.environ.get(REQUIRE_DOCKER_VARIABLE) == "1"
