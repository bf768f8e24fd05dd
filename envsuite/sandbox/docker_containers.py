"""Starting and removing the hardened containers the Docker sandbox runs in.

Every container starts with: no network (``network_mode="none"``), a pids limit, a memory
limit equal to its memory+swap limit, a CPU quota, every capability dropped,
``no-new-privileges``, an unprivileged user (uid 1000), and tmpfs mounts for the writable
places (``/repo``, ``/tmp``, and the grader's root-owned ``/var/envsuite/grade``), so
nothing an agent writes reaches the host's disk and the amount it can write is bounded.
Docker's init (tini) is PID 1, reaping orphans. Labels name the owning process
(:mod:`.container_owners`), so the containers of a process that was killed are removed by
the next one.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from envsuite.sandbox.container_owners import owner_labels, reap_orphans_once
from envsuite.sandbox.docker_client import docker_client, docker_module
from envsuite.sandbox.interface import REPO_DIR, SandboxError

#: The unprivileged user every command runs as.
AGENT_USER = "1000:1000"
#: The user of the grader's own helpers (root, with every capability dropped).
ROOT_USER = "0:0"
#: Root-owned tmpfs where the grader seals the repository and its result channels.
GRADE_DIR = "/var/envsuite/grade"


@dataclasses.dataclass(frozen=True)
class ContainerLimits:
    """Resource limits of a sandbox container.

    Attributes:
        memory: Memory limit; swap is not allowed on top (memory+swap = memory).
        cpus: CPU quota in cores.
        pids: Most processes and threads at once (stops fork bombs).
        repo_size: Size of the ``/repo`` tmpfs.
        tmp_size: Size of the ``/tmp`` tmpfs.
    """

    memory: str = "2g"
    cpus: float = 1.0
    pids: int = 256
    repo_size: str = "1g"
    tmp_size: str = "512m"


def start_container(image: str, limits: ContainerLimits | None = None) -> Any:
    """Start a hardened, idle container from ``image`` and return the SDK's Container.

    The first call in a process first removes the containers of dead owners.
    """
    limits = limits or ContainerLimits()
    reap_orphans_once()
    try:
        return docker_client().containers.run(
            image,
            ["sleep", "infinity"],
            detach=True,
            init=True,
            network_mode="none",
            pids_limit=limits.pids,
            mem_limit=limits.memory,
            memswap_limit=limits.memory,
            nano_cpus=int(limits.cpus * 1e9),
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            user=AGENT_USER,
            tmpfs={
                "/tmp": f"size={limits.tmp_size},mode=1777,nosuid,nodev,exec",
                REPO_DIR: f"size={limits.repo_size},uid=1000,gid=1000,mode=0755,nosuid,nodev,exec",
                GRADE_DIR: f"size={limits.repo_size},mode=0755,nosuid,nodev,exec",
            },
            working_dir=REPO_DIR,
            hostname="sandbox",
            labels=owner_labels(),
        )
    except Exception as exc:
        raise SandboxError(f"could not start a container from {image}: {exc}") from exc


def remove_container(container: Any) -> None:
    """Force-remove ``container``, ignoring one that is already gone."""
    docker = docker_module()
    try:
        container.remove(force=True)
    except docker.errors.NotFound:
        pass
    except docker.errors.APIError as exc:
        if "already in progress" not in str(exc):
            raise
