from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from envsuite.serve import RunningServer, ServeConfig
from tests.serve.servers import SERVED


@pytest.fixture(scope="package")
def server() -> Iterator[RunningServer]:
    """One server in a thread, serving SERVED with the oracle allowed (for the kit)."""
    with RunningServer(ServeConfig(SERVED, port=0, allow_oracle=True)) as running:
        yield running
