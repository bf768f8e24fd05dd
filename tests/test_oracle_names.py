"""Oracles are found by file name: every spec's oracle lives in ``oracle.py`` or ``*_oracle.py``.

One convention across families, so a reader (or a tool) finds an env's reference policy
without reading its spec, and a module named for agents does not hide an oracle.
"""

from __future__ import annotations

import importlib.util
import re

import pytest

from envsuite.registry import registry

#: The last component of an oracle's module: ``oracle`` or ``<something>_oracle``.
ORACLE_MODULE = re.compile(r"(?:[a-z0-9_]+_)?oracle")

SPECS = sorted(registry.values(), key=lambda spec: spec.id)


def oracle_module(entry_point: str) -> str:
    """The module of a ``"module:factory"`` entry point."""
    module, _, factory = entry_point.partition(":")
    assert module and factory, f"{entry_point!r} is not 'module:factory'"
    return module


@pytest.mark.parametrize("spec", SPECS, ids=[spec.id for spec in SPECS])
def test_every_oracle_lives_in_an_oracle_module(spec):
    assert spec.oracle, f"{spec.id} has no oracle"
    module = oracle_module(spec.oracle)
    assert ORACLE_MODULE.fullmatch(module.rsplit(".", 1)[-1]), (
        f"{spec.id}'s oracle is in {module}; an oracle lives in oracle.py or *_oracle.py"
    )
    # In the spec's own family, and there (found without importing the family's extras).
    assert module.startswith(f"envsuite.families.{spec.family}.")
    assert importlib.util.find_spec(module) is not None


@pytest.mark.parametrize(
    ("name", "follows"),
    [
        ("oracle", True),
        ("bandit_oracle", True),
        ("scripted_oracle", True),
        ("bandit_policies", False),
        ("solver_agent", False),
        ("oracles", False),
        ("oracle_helpers", False),
    ],
)
def test_the_convention_itself(name, follows):
    assert bool(ORACLE_MODULE.fullmatch(name)) is follows
