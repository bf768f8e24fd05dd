"""Which process owns a sandbox container, and reaping the containers of dead owners.

Every container envsuite starts carries labels naming its owner: the host's name, the
kernel's boot id, the owner's pid and the owner's start time (``/proc/<pid>/stat`` field
22, clock ticks since boot). A process that exits normally removes its containers
(``atexit``); one that is SIGKILLed cannot, so the first Docker sandbox provider of every
later process removes the containers whose owner is dead (:func:`reap_orphans`), as
``envsuite sandbox prune`` does on demand.

The start time makes pid reuse harmless: a new process with the dead owner's pid has
another start time. A different boot id on the same host means the owner died with the
previous boot. Containers of another host (an engine shared by several machines) are left
alone: their owners cannot be checked from here.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from envsuite.sandbox.docker_client import CONTAINER_LABEL, docker_client

PID_LABEL = f"{CONTAINER_LABEL}.pid"
STARTED_LABEL = f"{CONTAINER_LABEL}.started"
BOOT_LABEL = f"{CONTAINER_LABEL}.boot"
HOST_LABEL = f"{CONTAINER_LABEL}.host"

ALIVE, DEAD, UNKNOWN = "alive", "dead", "unknown"

_reaped = False
_reap_lock = threading.Lock()


def boot_id() -> str:
    """The kernel's boot id ("" where there is none)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def start_time(pid: int) -> str | None:
    """Process ``pid``'s start time in clock ticks since boot; None when it does not exist."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    fields = text.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def owner_labels(pid: int | None = None) -> dict[str, str]:
    """The labels naming process ``pid`` (default: this one) as a container's owner."""
    pid = os.getpid() if pid is None else pid
    return {
        CONTAINER_LABEL: "1",
        PID_LABEL: str(pid),
        STARTED_LABEL: start_time(pid) or "",
        BOOT_LABEL: boot_id(),
        HOST_LABEL: socket.gethostname(),
    }


def owner_state(labels: Mapping[str, str]) -> str:
    """``alive``, ``dead`` or ``unknown`` (another host's container) for a container's labels.

    Containers from before the start-time label was added are judged by pid alone.
    """
    host = labels.get(HOST_LABEL)
    if host is not None and host != socket.gethostname():
        return UNKNOWN
    boot = labels.get(BOOT_LABEL)
    if boot and boot != boot_id():
        return DEAD
    try:
        pid = int(labels.get(PID_LABEL, "0") or 0)
    except ValueError:
        return DEAD
    if pid <= 0:
        return DEAD
    started = start_time(pid)
    if started is None:
        return DEAD
    expected = labels.get(STARTED_LABEL)
    if expected and expected != started:
        return DEAD
    return ALIVE


def sandbox_containers() -> list[Any]:
    """Every container envsuite started (running or not)."""
    return list(docker_client().containers.list(all=True, filters={"label": CONTAINER_LABEL}))


def reap_orphans() -> int:
    """Remove the containers whose owner is dead; return how many were removed."""
    from envsuite.sandbox.docker_containers import remove_container

    removed = 0
    for container in sandbox_containers():
        if owner_state(container.labels or {}) == DEAD:
            with contextlib.suppress(Exception):
                remove_container(container)
                removed += 1
    return removed


def reap_orphans_once() -> int:
    """:func:`reap_orphans`, the first time a process calls it (0 afterwards).

    Reaping is housekeeping: an engine that refuses is not an error here.
    """
    global _reaped
    with _reap_lock:
        if _reaped:
            return 0
        _reaped = True
        try:
            return reap_orphans()
        except Exception:
            return 0
