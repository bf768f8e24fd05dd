"""Task images: one per software environment, on the base image, tagged by content hash.

"Task image" names the layer ``containers/task/Dockerfile`` builds (see the README's
"Words": a name kept from the swe family, where the sandbox layer started).

``envsuite-swe/task-<name>:<hash>`` where the hash covers the base image's id,
``containers/task/Dockerfile``, the import roots and the pinned wheels' sha256 sums; an
image is rebuilt only when one of them changes. Wheels are downloaded on the host
(:mod:`.wheels`) and copied into the build context; the build runs with no network.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from envsuite.sandbox.base_image import (
    Log,
    build_base,
    build_image,
    containers_root,
    content_hash,
    ensure_base,
    image_exists,
)
from envsuite.sandbox.cache import sha256_file
from envsuite.sandbox.environment import SoftwareEnvironment
from envsuite.sandbox.interface import REPO_DIR
from envsuite.sandbox.wheels import fetch_wheel

TASK_REPOSITORY = "envsuite-swe/task-"
_build_lock = threading.RLock()


class BuildProgress:
    """Progress lines of image builds on a stream (stderr): elapsed time, then the stage.

    Builds happen on first use (the first SWE episode of a machine); nothing is printed
    while every image is cached. The first line of a process says how to build ahead of
    time; the clock starts at an instance's first line.

    Args:
        stream: Where the lines go (default: ``sys.stderr`` at the time of writing).
    """

    #: Whether this process has printed the how-to-build-ahead line.
    announced = False

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self.started: float | None = None

    def __call__(self, text: str) -> None:
        """Print ``text`` after the seconds since this instance's first line."""
        stream = self.stream or sys.stderr
        if self.started is None:
            self.started = time.monotonic()
        if not BuildProgress.announced:
            BuildProgress.announced = True
            print(
                "envsuite swe: building sandbox images (once per machine; "
                "`envsuite sandbox build` builds them ahead of time)",
                file=stream,
                flush=True,
            )
        elapsed = time.monotonic() - self.started
        print(f"envsuite swe [{elapsed:7.1f} s] {text}", file=stream, flush=True)


def python_path_value(environment: SoftwareEnvironment) -> str:
    """``PYTHONPATH`` inside the image (``/repo``, ``/repo/src`` ...)."""
    return ":".join(
        REPO_DIR if p in (".", "") else f"{REPO_DIR}/{p.strip('/')}"
        for p in environment.python_path
    )


def task_image_tag(environment: SoftwareEnvironment, base_id: str, wheels: Iterable[Path]) -> str:
    """The content-hash tag of ``environment``'s image on the base image ``base_id``."""
    return f"{TASK_REPOSITORY}{environment.name}:" + content_hash(
        base_id,
        (containers_root() / "task" / "Dockerfile").read_bytes(),
        python_path_value(environment),
        *sorted(f"{p.name}:{sha256_file(p)}" for p in wheels),
    )


def build_task_image(environment: SoftwareEnvironment, log: Log = print) -> str:
    """Build (unless cached) ``environment``'s image on the current base; return its tag.

    The base image is built first if there is none (see :func:`build_base`).
    """
    with _build_lock:
        base_id = ensure_base(log)
        wheels = [fetch_wheel(r) for r in environment.requirements]
        tag = task_image_tag(environment, base_id, wheels)
        if image_exists(tag):
            return tag
        log(f"task image: building {tag}")
        with tempfile.TemporaryDirectory(prefix="envsuite-task-image-") as scratch:
            context = Path(scratch)
            shutil.copy(containers_root() / "task" / "Dockerfile", context / "Dockerfile")
            (context / "wheels").mkdir()
            (context / "wheels" / ".keep").write_text("")
            for wheel in wheels:
                shutil.copy(wheel, context / "wheels" / wheel.name)
            pins = "".join(f"{r.pin}\n" for r in environment.requirements)
            (context / "requirements.txt").write_text(pins)
            build_image(
                context,
                tag,
                {"BASE_IMAGE": base_id, "PYTHONPATH_DIRS": python_path_value(environment)},
                network=False,
                log=log,
            )
        log(f"task image: {tag} ready")
        return tag


def ensure_images(
    environments: Iterable[SoftwareEnvironment],
    *,
    from_image: str | None = None,
    archive: str | None = None,
    suite: str | None = None,
    log: Log = print,
) -> dict[str, str]:
    """Build the base and every environment's task image as needed; name -> tag."""
    with _build_lock:
        build_base(from_image=from_image, archive=archive, suite=suite, log=log)
    tags = {}
    for environment in environments:
        if environment.name not in tags:
            tags[environment.name] = build_task_image(environment, log=log)
            log(f"task image: {environment.name} -> {tags[environment.name]}")
    return tags
