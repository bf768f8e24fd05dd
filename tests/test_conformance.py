"""Every registered env, every conformance check: a new env is covered by registering it."""

from __future__ import annotations

import os

import pytest

import envsuite
from envsuite.registry import EnvSpec
from envsuite.testing import conformance_cases, run_conformance

CASES = conformance_cases()


@pytest.mark.parametrize(
    ("spec", "check"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_conformance(spec: EnvSpec, check: str) -> None:
    try:
        spec.load()
    except envsuite.MissingExtraError as exc:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            raise
        pytest.skip(str(exc))
    run_conformance(spec, only=[check])
