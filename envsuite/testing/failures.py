"""How a conformance check fails: :class:`ConformanceError`, naming the spec."""

from __future__ import annotations

from envsuite.registry import EnvSpec


class ConformanceError(AssertionError):
    """An env does not keep one of envsuite's rules."""


def fail(spec: EnvSpec, message: str) -> ConformanceError:
    """The error for ``spec`` breaking a rule, explained by ``message``."""
    return ConformanceError(f"{spec.id}: {message}")
