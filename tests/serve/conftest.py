from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# The serve extra is required like every other (tests/conftest.py); a machine without it
# opts out with ENVSUITE_REQUIRE_ALL_EXTRAS=0.
if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    for _module in ("starlette", "uvicorn", "websockets"):
        pytest.importorskip(_module)

from envsuite.serve import RunningServer, ServeConfig
from tests.serve.openenv_venv import start_build
from tests.serve.servers import SERVED

#: The module whose test needs OpenEnv's side venv.
OPENENV_TEST_MODULE = "test_openenv_client.py"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start building OpenEnv's side venv in the background when its test was collected.

    Not inside the fresh-machine container (the test skips there) nor for
    ``--collect-only``; the test waits for the build (tests/serve/openenv_venv.py).
    """
    if config.option.collectonly or os.environ.get("ENVSUITE_FRESH_MACHINE") == "1":
        return
    if any(item.path.name == OPENENV_TEST_MODULE for item in items):
        start_build()


@pytest.fixture(scope="package")
def server() -> Iterator[RunningServer]:
    """One server in a thread, serving SERVED with the oracle allowed (for the kit)."""
    with RunningServer(ServeConfig(SERVED, port=0, allow_oracle=True)) as running:
        yield running
