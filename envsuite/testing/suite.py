"""Which checks apply to which spec, and running them."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Iterable

from envsuite.action_errors import ParseActionBugWarning
from envsuite.registry import EnvSpec, registry
from envsuite.testing import checks
from envsuite.testing.failures import fail

Check = Callable[[EnvSpec], None]

#: Checks for every spec, then those for each api.
COMMON_CHECKS: dict[str, Check] = {
    "spec_round_trip": checks.check_spec_round_trip,
    "docstring": checks.check_docstring,
    "spec_hash": checks.check_spec_hash,
    "determinism": checks.check_determinism,
    "pickle": checks.check_pickle,
    "rollout_values": checks.check_rollout_values,
    "malformed_actions": checks.check_malformed_actions,
    "oracle": checks.check_oracle,
    "global_rng_untouched": checks.check_global_rng_untouched,
    "unseeded_first_reset": checks.check_unseeded_first_reset,
    "render_modes": checks.check_render_modes,
}
API_CHECKS: dict[str, dict[str, Check]] = {
    "gymnasium": {"gymnasium_api": checks.check_gymnasium_api},
    "aec": {"pettingzoo_api": checks.check_pettingzoo_api},
    "parallel": {"pettingzoo_api": checks.check_pettingzoo_api},
}


def checks_for(spec: EnvSpec) -> dict[str, Check]:
    """The named checks that apply to ``spec``."""
    return {**API_CHECKS[spec.api], **COMMON_CHECKS}


def variants_of(spec: EnvSpec) -> list[tuple[str, EnvSpec]]:
    """The spec as the kit checks it: its ``test_kwargs``, then each of its ``test_variants``.

    Each variant is returned as a copy of the spec whose ``test_kwargs`` include the
    variant's, labelled with those kwargs (``"default"`` for the first).
    """
    labelled = [("default", spec)]
    for variant in spec.test_variants:
        label = ",".join(f"{key}={value}" for key, value in variant.items())
        labelled.append(
            (label, dataclasses.replace(spec, test_kwargs={**spec.test_kwargs, **variant}))
        )
    return labelled


def conformance_cases(
    specs: Iterable[EnvSpec] | None = None,
) -> list[tuple[str, EnvSpec, str]]:
    """Every (case id, spec variant, check name), for parametrising a test module."""
    chosen = list(registry.values()) if specs is None else list(specs)
    return [
        (f"{spec.id}[{label}]::{name}", variant, name)
        for spec in chosen
        for label, variant in variants_of(spec)
        for name in checks_for(variant)
    ]


def run_conformance(spec: EnvSpec, only: Iterable[str] | None = None) -> None:
    """Run the checks for ``spec`` (or just those named in ``only``); raise on the first failure.

    A :class:`~envsuite.action_errors.ParseActionBugWarning` (the env's parser raised
    something other than ``InvalidAction``: a bug in the env, which ``step`` still turns
    into the documented penalty) fails the check that provoked it, whatever the caller's
    warning filters say.
    """
    selected = checks_for(spec)
    for name in only if only is not None else selected:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ParseActionBugWarning)
            try:
                selected[name](spec)
            except ParseActionBugWarning as bug:
                raise fail(spec, f"check {name!r}: the parser has a bug: {bug}") from bug
