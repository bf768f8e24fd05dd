"""Wheels of a task environment's requirements, downloaded on the host with ``pip download``.

They land in a cache outside the repository (``~/.cache/envsuite/swe/wheels``), are checked
against their pinned sha256, and are copied into the task image's build context, so the
image builds (and its containers run) without network.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from envsuite.sandbox.cache import cache_dir, sha256_file
from envsuite.sandbox.environment import Requirement

#: The Python the sandbox images run (Debian bookworm's, and python:3.11-slim's).
IMAGE_PYTHON_VERSION = "3.11"


class WheelError(RuntimeError):
    """A wheel could not be downloaded, or its sha256 differs from the pin."""


def _normalise(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def cached_wheel(requirement: Requirement, folder: Path) -> Path | None:
    """The cached wheel of ``requirement`` in ``folder``, if there is one."""
    stem = _normalise(f"{requirement.name}-{requirement.version}-")
    for path in sorted(folder.glob("*.whl")):
        if _normalise(path.name).startswith(stem):
            return path
    return None


def fetch_wheel(requirement: Requirement, folder: Path | None = None) -> Path:
    """The wheel of ``requirement`` (downloaded unless cached), checked against its sha256.

    Raises:
        WheelError: pip failed, or the wheel's sha256 is not the pinned one.
    """
    folder = folder or cache_dir("wheels")
    wheel = cached_wheel(requirement, folder)
    if wheel is None:
        command = [
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary", ":all:", "--python-version", IMAGE_PYTHON_VERSION,
            "--dest", str(folder), requirement.pin,
        ]  # fmt: skip
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        wheel = cached_wheel(requirement, folder)
        if result.returncode != 0 or wheel is None:
            raise WheelError(f"pip download {requirement.pin} failed: {result.stderr[-800:]}")
    if requirement.sha256 and sha256_file(wheel) != requirement.sha256:
        raise WheelError(f"{wheel.name}: sha256 differs from the pinned {requirement.sha256}")
    return wheel
