"""``envsuite sandbox ...``: build the SWE sandbox images, show them, prune containers."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from envsuite.cli.console import line, stderr, stdout
from envsuite.cli.exits import FAILURE, exit_with, reports_errors

LIBRARY_HELP = "Only these shipped libraries' task images (repeatable; default: all)."


def register(app: typer.Typer) -> None:
    """Add the ``sandbox`` command group to ``app``."""
    group = typer.Typer(help="Docker sandbox images and containers of the swe family.")
    group.command("build")(build_command)
    group.command("status")(status_command)
    group.command("prune")(prune_command)
    app.add_typer(group, name="sandbox")


def _environments(libraries: list[str] | None) -> list[object]:
    from envsuite.families.swe.dataset import library_names, load_library

    names = libraries or library_names()
    return [load_library(name).environment for name in names]


@reports_errors
def build_command(
    library: Annotated[list[str] | None, typer.Option("--library", "-l", help=LIBRARY_HELP)] = None,
    from_image: Annotated[
        str | None,
        typer.Option(help="Build the base on this pulled image (python:3.11-slim) instead."),
    ] = None,
    archive: Annotated[
        str | None, typer.Option(help="Debian archive for debootstrap (default: apt's).")
    ] = None,
    suite: Annotated[str | None, typer.Option(help="Debian suite (default: apt's).")] = None,
) -> None:
    """Build the base image and the task images (cached by content hash; idempotent).

    The base is a debootstrap rootfs from the machine's configured Debian archive, imported
    into Docker: no container registry is needed. Task images install wheels downloaded
    on the host and build without network.
    """
    from envsuite.sandbox.base_image import ImageBuildError
    from envsuite.sandbox.docker_client import docker_unavailable_reason
    from envsuite.sandbox.images import ensure_images
    from envsuite.sandbox.wheels import WheelError

    reason = docker_unavailable_reason()
    if reason is not None:
        exit_with(f"Docker is not available: {reason}", FAILURE)
    started = time.perf_counter()
    console = stdout()
    try:
        tags = ensure_images(
            _environments(library),  # type: ignore[arg-type]
            from_image=from_image,
            archive=archive,
            suite=suite,
            log=lambda text: line(console, text),
        )
    except (ImageBuildError, WheelError) as exc:
        exit_with(str(exc), FAILURE)
    line(console, f"{len(tags)} task image(s) ready in {time.perf_counter() - started:.1f} s")


@reports_errors
def status_command() -> None:
    """Show the base and task images (built or not) and running sandbox containers."""
    from envsuite.families.swe.dataset import library_names, load_library
    from envsuite.sandbox.base_image import CURRENT_BASE, image_exists
    from envsuite.sandbox.docker_client import (
        CONTAINER_LABEL,
        docker_client,
        docker_unavailable_reason,
    )

    reason = docker_unavailable_reason()
    if reason is not None:
        exit_with(f"Docker is not available: {reason}", FAILURE)
    console = stdout()
    line(console, f"base: {CURRENT_BASE} {'built' if image_exists(CURRENT_BASE) else 'missing'}")
    client = docker_client()
    for name in library_names():
        environment = load_library(name).environment
        repository = f"envsuite-swe/task-{name}"
        images = client.images.list(name=repository)
        tags = [t for i in images for t in i.tags if t.startswith(repository + ":")]
        line(console, f"task image {environment.name}: {', '.join(tags) or 'not built'}")
    containers = client.containers.list(all=True, filters={"label": CONTAINER_LABEL})
    line(console, f"sandbox containers: {len(containers)}")


@reports_errors
def prune_command(
    everything: Annotated[
        bool, typer.Option("--all", help="Also remove containers of running processes.")
    ] = False,
) -> None:
    """Remove sandbox containers left by processes that are gone (or all, with --all)."""
    from envsuite.sandbox.container_owners import DEAD, owner_state, sandbox_containers
    from envsuite.sandbox.docker_containers import remove_container

    removed = 0
    for container in sandbox_containers():
        if everything or owner_state(container.labels or {}) == DEAD:
            remove_container(container)
            removed += 1
    line(stderr(), f"removed {removed} sandbox container(s)")
