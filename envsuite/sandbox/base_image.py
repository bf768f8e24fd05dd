"""The base image, built without any container registry.

By default: a minimal Debian rootfs made by ``containers/base/build-rootfs.sh``
(``debootstrap`` from the archive in the machine's apt configuration, with python3, git
and pytest), ``docker import``-ed as ``envsuite-swe/rootfs:<hash>``, then
``containers/base/Dockerfile`` on top (built with no network) as ``envsuite-swe/base:<hash>``.
On machines that can pull, ``from_image="python:3.11-slim"`` builds the same Dockerfile on
that image instead. ``envsuite-swe/base:latest`` names the base built last; task images
are built on it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from envsuite.data_paths import REPO_ROOT
from envsuite.sandbox import pytest_runner, result_collector
from envsuite.sandbox.apt_sources import debian_archive
from envsuite.sandbox.docker_client import docker_client, docker_module

#: Debian packages of the rootfs (debootstrap --include).
ROOTFS_PACKAGES = ("python3", "python3-venv", "python3-pytest", "git", "procps")
ROOTFS_REPOSITORY = "envsuite-swe/rootfs"
BASE_REPOSITORY = "envsuite-swe/base"
#: The tag that names the base image task images are built on.
CURRENT_BASE = f"{BASE_REPOSITORY}:latest"

Log = Callable[[str], None]
#: debootstrap's lines that name a stage (the rest name single packages).
DEBOOTSTRAP_STAGE = re.compile(
    r"^I: (Retrieving (Release|Packages)|Resolving|Checking|Installing core|"
    r"Unpacking the base|Configuring the base|Base system installed)"
)
#: A ``docker build`` step line: ``Step 3/7 : RUN ...``.
BUILD_STEP = re.compile(r"^Step \d+/\d+ : ")
#: envsuite's own scripts baked into the base image's ``/opt/envsuite`` (root-owned).
HARNESS_SCRIPTS = (Path(pytest_runner.__file__), Path(result_collector.__file__))


class ImageBuildError(RuntimeError):
    """An image could not be built (no debootstrap, not root, a failing build step)."""


def containers_root() -> Path:
    """The ``containers/`` folder (``$ENVSUITE_CONTAINERS`` overrides it)."""
    return Path(os.environ.get("ENVSUITE_CONTAINERS") or REPO_ROOT / "containers")


def content_hash(*parts: str | bytes) -> str:
    """A short sha256 over ``parts`` (the tag of an image built from them)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:16]


def image_exists(tag: str) -> bool:
    """Whether the local engine has an image tagged ``tag``."""
    try:
        docker_client().images.get(tag)
    except docker_module().errors.ImageNotFound:
        return False
    return True


def rootfs_tag(suite: str) -> str:
    """The tag of the rootfs for ``suite``: a hash of the builder script and package list."""
    script = (containers_root() / "base" / "build-rootfs.sh").read_bytes()
    return f"{ROOTFS_REPOSITORY}:{content_hash(script, suite, ','.join(ROOTFS_PACKAGES))}"


def build_rootfs(archive: str | None = None, suite: str | None = None, log: Log = print) -> str:
    """Make (unless cached) the debootstrap rootfs image; return its tag.

    Args:
        archive: Debian archive URI; default: the one in the machine's apt configuration.
        suite: Release suite (``bookworm``); default: the configured one.
        log: Receives progress lines.

    Raises:
        ImageBuildError: not root, no ``debootstrap``, or debootstrap failed.
    """
    if archive is None or suite is None:
        configured_archive, configured_suite = debian_archive()
        archive = archive or configured_archive
        suite = suite or configured_suite
    tag = rootfs_tag(suite)
    with _one_build_at_a_time(tag):
        if image_exists(tag):
            log(f"rootfs: {tag} (cached)")
            return tag
        _debootstrap(tag, archive, suite, log)
    return tag


@contextlib.contextmanager
def _one_build_at_a_time(tag: str) -> Iterator[None]:
    """Hold a lock of this machine that names ``tag``, for the time of its build.

    Two processes that want the same rootfs at once (a test suite and the fresh-machine
    run it started, or two users) would otherwise both run debootstrap; the second one in
    waits and then finds the image.
    """
    name = "envsuite-build-" + tag.replace("/", "_").replace(":", "_") + ".lock"
    with open(Path(tempfile.gettempdir()) / name, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _debootstrap(tag: str, archive: str, suite: str, log: Log) -> None:
    """Make the rootfs with debootstrap and ``docker import`` it as ``tag``."""
    if os.geteuid() != 0:
        raise ImageBuildError("building the rootfs needs root (debootstrap)")
    if shutil.which("debootstrap") is None:
        raise ImageBuildError(
            "debootstrap is not installed: apt-get update && apt-get install -y debootstrap"
        )
    script = containers_root() / "base" / "build-rootfs.sh"
    with tempfile.TemporaryDirectory(prefix="envsuite-rootfs-") as scratch:
        target = Path(scratch) / "rootfs"
        log(f"rootfs: debootstrap {suite} from the configured archive (a few minutes)")
        code, output = _run_logged(
            ["sh", str(script), str(target), archive, suite, ",".join(ROOTFS_PACKAGES)],
            lambda text: log(f"rootfs: {text[3:]}") if DEBOOTSTRAP_STAGE.match(text) else None,
        )
        if code != 0:
            raise ImageBuildError(f"debootstrap failed:\n{output[-3000:]}")
        tarball = Path(scratch) / "rootfs.tar"
        subprocess.run(
            ["tar", "--numeric-owner", "-C", str(target), "-cf", str(tarball), "."], check=True
        )
        log(f"rootfs: docker import as {tag}")
        repository, _, version = tag.partition(":")
        docker_client().api.import_image_from_file(str(tarball), repository=repository, tag=version)


def _run_logged(argv: list[str], on_line: Callable[[str], None]) -> tuple[int, str]:
    """Run ``argv`` (stderr into stdout), handing each line to ``on_line``.

    Returns:
        The exit code and the last lines of output.
    """
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    )
    assert process.stdout is not None
    tail: list[str] = []
    for line in process.stdout:
        text = line.rstrip()
        on_line(text)
        tail = [*tail[-40:], line]
    return process.wait(), "".join(tail)


def base_tag(parent: str) -> str:
    """The tag of the base image built on ``parent`` (hash of its inputs)."""
    folder = containers_root() / "base"
    return f"{BASE_REPOSITORY}:" + content_hash(
        (folder / "Dockerfile").read_bytes(),
        (folder / "prepare.sh").read_bytes(),
        *(script.read_bytes() for script in HARNESS_SCRIPTS),
        parent,
    )


def build_image(
    context: Path, tag: str, buildargs: dict[str, str], *, network: bool, log: Log
) -> None:
    """``docker build`` ``context`` as ``tag`` (no pull; no network unless ``network``).

    Raises:
        ImageBuildError: a build step failed.
    """
    api = docker_client().api
    options: dict[str, Any] = {"network_mode": "default" if network else "none"}
    lines = api.build(
        path=str(context),
        tag=tag,
        buildargs=buildargs,
        rm=True,
        forcerm=True,
        pull=False,
        decode=True,
        **options,
    )
    tail: list[str] = []
    for line in lines:
        if "error" in line:
            raise ImageBuildError(f"building {tag} failed: {line['error']}\n{''.join(tail)}")
        text = str(line.get("stream", "")).rstrip()
        if text:
            tail = [*tail[-30:], text + "\n"]
            if BUILD_STEP.match(text):
                log(f"{tag}: {text[:120]}")
    if not image_exists(tag):
        raise ImageBuildError(f"building {tag} produced no image\n{''.join(tail)}")


def build_base(
    from_image: str | None = None,
    archive: str | None = None,
    suite: str | None = None,
    log: Log = print,
) -> str:
    """Build (unless cached) the base image and tag it ``envsuite-swe/base:latest`` too.

    Args:
        from_image: Build on this pulled image (``python:3.11-slim``) instead of the
            debootstrap rootfs; its build may use the network (apt, pip).
        archive: Debian archive for the rootfs (default: from the apt configuration).
        suite: Debian suite for the rootfs (default: from the apt configuration).
        log: Receives progress lines.
    """
    parent = from_image or build_rootfs(archive, suite, log)
    tag = base_tag(parent)
    if image_exists(tag):
        log(f"base: {tag} (cached)")
    else:
        log(f"base: building {tag} on {parent}")
        with tempfile.TemporaryDirectory(prefix="envsuite-base-") as scratch:
            context = Path(scratch)
            for name in ("Dockerfile", "prepare.sh"):
                shutil.copy(containers_root() / "base" / name, context / name)
            for script in HARNESS_SCRIPTS:
                shutil.copy(script, context / script.name)
            build_image(
                context, tag, {"BASE_IMAGE": parent}, network=from_image is not None, log=log
            )
    repository, _, version = CURRENT_BASE.partition(":")
    docker_client().images.get(tag).tag(repository, version)
    return tag


def current_base() -> str | None:
    """The id of the image tagged ``envsuite-swe/base:latest``, or None before a build."""
    try:
        return str(docker_client().images.get(CURRENT_BASE).id)
    except docker_module().errors.ImageNotFound:
        return None


def ensure_base(log: Log = print) -> str:
    """The id of an up-to-date base image, building it if needed.

    The last-built base (``envsuite-swe/base:latest``) names its parent in a label; if its
    inputs changed since (the tag for that parent differs), it is rebuilt on the same parent
    (the debootstrap rootfs, or the pulled image it was built from).
    """
    try:
        image = docker_client().images.get(CURRENT_BASE)
    except docker_module().errors.ImageNotFound:
        build_base(log=log)
    else:
        parent = (image.labels or {}).get("envsuite.swe.parent", "")
        if not parent or base_tag(parent) not in image.tags:
            from_image = None if parent.startswith(ROOTFS_REPOSITORY) or not parent else parent
            build_base(from_image=from_image, log=log)
    base_id = current_base()
    assert base_id is not None
    return base_id
