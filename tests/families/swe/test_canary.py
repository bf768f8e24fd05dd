"""Canary tests: each has the outcome the grader expects of it."""

from __future__ import annotations

from envsuite.families.swe.canary import CANARIES_PER_OUTCOME, make_canary


def run_canaries(source: str) -> dict[str, str]:
    namespace: dict[str, object] = {}
    exec(compile(source, "canary", "exec"), namespace)
    outcomes = {}
    for name, function in namespace.items():
        if name.startswith("test_") and callable(function):
            try:
                function()
                outcomes[name] = "passed"
            except AssertionError:
                outcomes[name] = "failed"
    return outcomes


def test_every_canary_has_its_expected_outcome():
    canary = make_canary()
    assert canary.path.startswith("test_") and canary.path.endswith(".py")
    observed = {f"{canary.path}::{k}": v for k, v in run_canaries(canary.source).items()}
    assert observed == canary.expected
    assert (
        sorted(observed.values())
        == ["failed"] * CANARIES_PER_OUTCOME + ["passed"] * CANARIES_PER_OUTCOME
    )


def test_canaries_differ_between_gradings():
    first, second = make_canary(), make_canary()
    assert first.path != second.path and first.expected != second.expected
