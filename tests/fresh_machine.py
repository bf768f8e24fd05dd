"""A fresh Debian machine as a container, for running the README's set-up commands in.

The image is built on envsuite's debootstrap rootfs (the swe family's
:func:`~envsuite.sandbox.base_image.build_rootfs`, made from this machine's Debian
archive) and adds what a fresh Debian 12 machine with Python 3.11 has: pip and
ca-certificates (the rootfs brings python3, python3-venv and git; its python3-pytest is
removed). Nothing of envsuite's own needs is installed: the README's commands do that.
As in Debian's own container images, dpkg unpacks without an fsync per file
(``force-unsafe-io``): a container's disk is thrown away, and through a slow storage
driver (fuse-overlayfs) every fsync is costly.

The containers reach PyPI and the Debian archive the way this machine does, and nothing
else is shared with it:

- apt: the image's sources are this machine's Debian sources, and its apt proxy settings
  if it has any (read from its apt configuration);
- pip: every setting of ``pip config list`` (which includes ``PIP_*`` variables) becomes a
  ``PIP_*`` variable in the container; files and folders they name (a CA bundle, a
  find-links folder) are mounted read-only under ``/run/host-pip``;
- the proxy variables (``http_proxy``, ...) when set.

No pip or apt cache is shared: everything the commands install, they download.

Every image and container made here carries the label ``envsuite.test=fresh-machine``;
they are removed when the test ends (after a killed run:
``docker container prune --filter label=envsuite.test=fresh-machine`` and the same for
images).
"""

from __future__ import annotations

import ast
import collections
import contextlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envsuite.sandbox.apt_sources import configured_sources
from envsuite.sandbox.base_image import build_image, build_rootfs, content_hash
from envsuite.sandbox.docker_client import docker_client, docker_module

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
LABEL = "envsuite.test"
LABEL_VALUE = "fresh-machine"
IMAGE_REPOSITORY = "envsuite-test/fresh-machine"
#: Where the clean copy of the repository lands in a container.
WORKDIR = "/root/envsuite"
#: Where files named by this machine's pip settings are mounted in a container.
HOST_PIP_DIR = "/run/host-pip"
#: The folders the commands write gigabytes to: the repository copy (its .venv holds ~7 GB
#: of wheels unpacked), temporary files, pip's cache and apt's lists and downloads. Each
#: gets an anonymous volume of its own container: it starts as the image's folder (empty,
#: or the clean copy put there before the start) and is removed with the container, so
#: nothing is shared with this machine or another run. A volume is a plain folder of the
#: host's disk, as a real machine's disk is; the container's own layer may be a slow
#: storage driver (fuse-overlayfs took 12 minutes for the test command's pip install).
SCRATCH_FOLDERS = (WORKDIR, "/tmp", "/root/.cache", "/var/cache/apt/archives", "/var/lib/apt/lists")
PROXY_VARIABLES = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")

DOCKERFILE = f"""\
ARG ROOTFS
FROM ${{ROOTFS}}
LABEL {LABEL}={LABEL_VALUE}
COPY sources.list /etc/apt/sources.list
COPY proxy.conf /etc/apt/apt.conf.d/90host-proxy
RUN rm -f /etc/apt/sources.list.d/* \\
 && echo force-unsafe-io > /etc/dpkg/dpkg.cfg.d/docker-apt-speedup \\
 && apt-get -q update \\
 && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends \\
        python3-pip ca-certificates \\
 && apt-get -q purge -y python3-pytest \\
 && rm -rf /var/lib/apt/lists/*
"""


def setup_commands() -> list[str]:
    """The one-line commands of the ``bash`` blocks in README.md's "Set up" section."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Set up\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, "README.md has no '## Set up' section"
    return [block.strip() for block in re.findall(r"^```bash\n(.*?)^```", section[1], re.S | re.M)]


def debian_sources_list() -> str:
    """This machine's Debian apt sources, one ``deb`` line each (others are left out)."""
    lines = [
        f"deb {source.uri} {suite} {' '.join(source.components)}"
        for source in configured_sources()
        if "debian" in source.uri.lower()
        for suite in source.suites
    ]
    return "".join(f"{line}\n" for line in lines)


def apt_proxy_settings() -> str:
    """This machine's ``Acquire::http(s)::Proxy`` settings in apt.conf syntax ("" if none)."""
    result = subprocess.run(["apt-config", "dump"], capture_output=True, text=True, check=False)
    return "".join(
        line + "\n"
        for line in result.stdout.splitlines()
        if line.startswith(("Acquire::http::Proxy", "Acquire::https::Proxy"))
    )


def host_pip_settings() -> dict[str, str]:
    """This machine's pip settings (files, then ``PIP_*`` variables), name -> value."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        check=True,
    )
    settings: dict[str, str] = {}
    for line in result.stdout.splitlines():
        key, _, value = line.partition("=")
        name = key.rpartition(".")[2]  # "global.cert", ":env:.find-links"
        if name and value:
            settings[name] = str(ast.literal_eval(value))
    return settings


@dataclass
class ContainerSettings:
    """What a fresh-machine container gets from this machine: variables and mounts."""

    environment: dict[str, str] = field(default_factory=dict)
    #: Host path -> path in the container (mounted read-only).
    mounts: dict[str, str] = field(default_factory=dict)
    #: Host path -> path in the container (mounted read-write: the suite split's queue).
    writable: dict[str, str] = field(default_factory=dict)

    def volumes(self) -> dict[str, dict[str, str]]:
        """The mounts in the Docker SDK's ``volumes`` form."""
        volumes = {host: {"bind": inside, "mode": "ro"} for host, inside in self.mounts.items()}
        for host, inside in self.writable.items():
            volumes[host] = {"bind": inside, "mode": "rw"}
        return volumes


def container_settings() -> ContainerSettings:
    """pip settings and proxy variables of this machine, for a fresh-machine container."""
    settings = ContainerSettings()
    for name, value in host_pip_settings().items():
        items = []
        for item in value.split():
            if os.path.isabs(item) and os.path.exists(item):
                inside = f"{HOST_PIP_DIR}/{len(settings.mounts)}-{Path(item).name}"
                settings.mounts[item] = inside
                item = inside
            items.append(item)
        settings.environment["PIP_" + name.upper().replace("-", "_")] = " ".join(items)
    for variable in PROXY_VARIABLES:
        if variable in os.environ:
            settings.environment[variable] = os.environ[variable]
    return settings


def build_fresh_machine_image(log: Any = print) -> str:
    """Build the fresh-machine image under a tag of its own; return the tag."""
    rootfs = build_rootfs(log=log)
    sources = debian_sources_list()
    proxy = apt_proxy_settings()
    tag = (
        f"{IMAGE_REPOSITORY}:{content_hash(rootfs, DOCKERFILE, sources, proxy)}"
        f"-{uuid.uuid4().hex[:8]}"
    )
    buildargs = {"ROOTFS": rootfs}
    buildargs.update({v: os.environ[v] for v in PROXY_VARIABLES if v in os.environ})
    with tempfile.TemporaryDirectory(prefix="envsuite-fresh-machine-") as scratch:
        context = Path(scratch)
        (context / "Dockerfile").write_text(DOCKERFILE)
        (context / "sources.list").write_text(sources)
        (context / "proxy.conf").write_text(proxy)
        build_image(context, tag, buildargs, network=True, log=log)
    return tag


def remove_image(tag: str) -> None:
    """Remove the image ``tag`` (and the layers only it used)."""
    with contextlib.suppress(Exception):
        docker_client().images.remove(tag, force=True)


def repository_files() -> list[str]:
    """The files a commit of the working tree would hold (tracked or new, not ignored)."""
    result = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    names = sorted({name for name in result.stdout.decode().split("\0") if name})
    return [name for name in names if os.path.lexists(REPO / name)]


def repository_tar() -> bytes:
    """A tar of :func:`repository_files` under ``envsuite/`` (modes kept, no .git)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in repository_files():
            tar.add(REPO / name, arcname=f"{Path(WORKDIR).name}/{name}", recursive=False)
    return buffer.getvalue()


@dataclass
class CommandRun:
    """How one command ended in a fresh-machine container."""

    status: int
    seconds: float
    timed_out: bool
    log: Path
    tail: list[str]

    def describe(self) -> str:
        """The exit status, duration and the output's last lines, for a failure message."""
        ending = "timed out" if self.timed_out else f"exited with {self.status}"
        return (
            f"the command {ending} after {self.seconds:.0f} s; full output in {self.log}; "
            f"its last lines:\n" + "".join(self.tail)
        )


@contextlib.contextmanager
def fresh_container(
    image: str, command: str, settings: ContainerSettings, environment: dict[str, str]
) -> Iterator[Any]:
    """A created (not started) container that runs ``bash -c command`` in the copy.

    The clean copy of the repository is in :data:`WORKDIR`; each of
    :data:`SCRATCH_FOLDERS` is a volume of this container alone. The container and its
    volumes are removed on exit.
    """
    mount = docker_module().types.Mount
    container = docker_client().containers.create(
        image,
        command=["bash", "-c", command],
        working_dir=WORKDIR,
        environment={**settings.environment, **environment},
        volumes=settings.volumes(),
        mounts=[mount(target=folder, source=None, type="volume") for folder in SCRATCH_FOLDERS],
        labels={LABEL: LABEL_VALUE},
    )
    try:
        container.put_archive(str(Path(WORKDIR).parent), repository_tar())
        yield container
    finally:
        with contextlib.suppress(Exception):
            container.remove(force=True, v=True)


def run_to_end(container: Any, log: Path, timeout_s: float, tail_lines: int = 80) -> CommandRun:
    """Start ``container``, copy its output into ``log``, wait (killing it after ``timeout_s``)."""
    timed_out = threading.Event()

    def kill() -> None:
        timed_out.set()
        with contextlib.suppress(Exception):
            container.kill()

    tail: collections.deque[str] = collections.deque(maxlen=tail_lines)
    start = time.monotonic()
    timer = threading.Timer(timeout_s, kill)
    container.start()
    timer.start()
    try:
        with log.open("w", encoding="utf-8") as out:
            pending = ""
            for chunk in container.logs(stream=True, follow=True):
                text = pending + chunk.decode("utf-8", errors="replace")
                *lines, pending = text.split("\n")
                for line in lines:
                    out.write(line + "\n")
                    tail.append(line + "\n")
            if pending:
                out.write(pending)
                tail.append(pending)
        status = int(container.wait()["StatusCode"])
    finally:
        timer.cancel()
    return CommandRun(status, time.monotonic() - start, timed_out.is_set(), log, list(tail))


def list_files(container: Any, folder: str) -> list[str]:
    """The names of the files under ``folder`` in ``container`` (relative to it)."""
    stream, _ = container.get_archive(folder)
    data = b"".join(stream)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return sorted(
            member.name.partition("/")[2] for member in tar.getmembers() if member.isfile()
        )
