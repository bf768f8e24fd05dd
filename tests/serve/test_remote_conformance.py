"""The conformance kit, run over the wire: served envs keep every rule in-process envs keep."""

from __future__ import annotations

import pytest

from envsuite.remote.conformance import remote_spec
from envsuite.testing import run_conformance
from tests.serve.servers import SERVED


@pytest.mark.parametrize("env_id", SERVED)
def test_served_env_passes_the_conformance_kit(server, env_id) -> None:
    run_conformance(remote_spec(server.url, env_id))


def test_the_kit_over_the_wire_can_fail(server) -> None:
    """A served env whose oracle the server refuses fails the oracle check (the kit runs)."""
    from envsuite.remote import RemoteError
    from envsuite.serve import RunningServer, ServeConfig

    with RunningServer(ServeConfig(("envsuite/Bandit-v0",), port=0)) as closed:
        spec = remote_spec(closed.url, "envsuite/Bandit-v0")
        with pytest.raises(RemoteError, match="does not serve the oracle"):
            run_conformance(spec, only=["oracle"])
