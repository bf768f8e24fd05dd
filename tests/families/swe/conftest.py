"""Shared fixtures: the Docker ones (from :mod:`tests.sandbox.docker_fixtures`) and the
shipped problems the tests grade."""

from __future__ import annotations

from envsuite.families.swe.dataset import load_problems
from tests.sandbox.docker_fixtures import (  # noqa: F401  (fixtures)
    DOCKER_LIBRARIES,
    docker_ready,
    inflection_image,
    task_images,
)


def first_task(library: str, kind: str | None = None):
    """The first shipped task of ``library`` (of mutation ``kind`` if given)."""
    for task in load_problems([library]):
        if kind is None or task.metadata.get("mutation") == kind:
            return task
    raise LookupError(f"no {kind} task of {library}")
