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
from tests.serve.servers import SERVED


@pytest.fixture(scope="package")
def server() -> Iterator[RunningServer]:
    """One server in a thread, serving SERVED with the oracle allowed (for the kit)."""
    with RunningServer(ServeConfig(SERVED, port=0, allow_oracle=True)) as running:
        yield running
