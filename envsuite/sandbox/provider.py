"""Where an env's sandboxes come from: Docker (task images, warm pools) or local folders."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Literal

from envsuite.sandbox.environment import SoftwareEnvironment
from envsuite.sandbox.interface import Sandbox, SandboxError
from envsuite.sandbox.local_sandbox import LocalSandbox

Backend = Literal["docker", "local"]
BACKENDS: tuple[Backend, ...] = ("docker", "local")

_image_lock = threading.Lock()
_images: dict[SoftwareEnvironment, str] = {}


def task_image(environment: SoftwareEnvironment) -> str:
    """The task image of ``environment`` (built on first use, then remembered).

    A build (minutes for the first one: debootstrap) shows its progress on stderr.
    """
    with _image_lock:
        if environment not in _images:
            from envsuite.sandbox.images import BuildProgress, build_task_image

            _images[environment] = build_task_image(environment, log=BuildProgress())
        return _images[environment]


class SandboxProvider:
    """Hands out fresh sandboxes for episodes and for grading.

    Args:
        backend: ``"docker"`` (isolated; a warm pool per task image) or ``"local"``
            (temporary folders, not isolated; see :mod:`.local_sandbox`).
        pool_size: Started containers kept ready per task image (Docker only; 0: none).
    """

    def __init__(self, backend: Backend = "docker", pool_size: int = 1) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        self.backend = backend
        self.pool_size = pool_size
        self._pools: dict[str, object] = {}
        self._checked = False

    def factory(self, environment: SoftwareEnvironment) -> Callable[[], Sandbox]:
        """A function returning a fresh sandbox of ``environment`` each call."""
        if self.backend == "local":
            return lambda: LocalSandbox(environment.sandbox_environment(""))
        from envsuite.sandbox.docker_client import docker_unavailable_reason
        from envsuite.sandbox.docker_sandbox import DockerSandbox
        from envsuite.sandbox.warm_pool import WarmPool

        if not self._checked:
            reason = docker_unavailable_reason()
            if reason is not None:
                raise SandboxError(
                    f"Docker is not available ({reason}); start a Docker engine, or pass "
                    "backend='local' (temporary folders, not isolated)"
                )
            self._checked = True
        image = task_image(environment)
        pool = self._pools.get(image)
        if pool is None:
            spec = environment.sandbox_environment(image)
            pool = WarmPool(lambda: DockerSandbox.start(spec), size=self.pool_size)
            self._pools[image] = pool
        assert isinstance(pool, WarmPool)
        return pool.acquire

    def pools(self) -> dict[str, object]:
        """The warm pools by image (for benchmarks and diagnosis)."""
        return dict(self._pools)

    def close(self) -> None:
        """Stop every pool and remove its waiting containers."""
        for pool in self._pools.values():
            pool.close()  # type: ignore[attr-defined]
        self._pools.clear()
