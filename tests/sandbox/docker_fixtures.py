"""Docker fixtures shared by the sandbox and swe tests: Docker availability (a failure under
ENVSUITE_REQUIRE_DOCKER=1) and the task images the Docker tests use (built once per session,
cached by content hash). Conftests import them, so each test folder sees them."""

from __future__ import annotations

import pytest

from envsuite.errors import MissingExtraError
from envsuite.families.swe.dataset import load_library

#: Libraries whose images the Docker tests build: inflection (no dependencies) and tabulate
#: (a wheel installed into its image).
DOCKER_LIBRARIES = ("inflection", "tabulate")


def _docker_problem() -> str | None:
    from envsuite.sandbox.docker_client import docker_unavailable_reason

    try:
        return docker_unavailable_reason()
    except MissingExtraError as exc:
        return str(exc)


@pytest.fixture(scope="session")
def docker_ready() -> None:
    from envsuite.sandbox.docker_client import REQUIRE_DOCKER_VARIABLE, docker_required

    problem = _docker_problem()
    if problem is None:
        return
    if docker_required():
        pytest.fail(f"Docker is required ({REQUIRE_DOCKER_VARIABLE}=1) but unavailable: {problem}")
    pytest.skip(f"Docker is not available: {problem}")


@pytest.fixture(scope="session")
def task_images(docker_ready: None) -> dict[str, str]:
    from envsuite.sandbox.images import ensure_images

    environments = [load_library(name).environment for name in DOCKER_LIBRARIES]
    return ensure_images(environments, log=print)


@pytest.fixture(scope="session")
def inflection_image(task_images: dict[str, str]) -> str:
    return task_images["inflection"]
