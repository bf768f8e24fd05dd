"""The conformance kit's checks print nothing on the caller's stdout."""

from __future__ import annotations

import pytest

from envsuite.registry import registry
from envsuite.testing import run_conformance


@pytest.mark.parametrize(
    ("env_id", "check"),
    [("envsuite/Bandit-v0", "gymnasium_api"), ("envsuite/Nim-v0", "pettingzoo_api")],
)
def test_the_api_checks_print_nothing(capsys, env_id, check):
    # Gymnasium's check_env renders a text env in human mode (printing its observations);
    # PettingZoo's api_test prints "Starting API test". README's "run every check on one
    # spec" example used to show both.
    run_conformance(registry[env_id], only=[check])
    assert capsys.readouterr().out == ""
