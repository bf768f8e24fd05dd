"""The kit on turn-based (AEC) specs and on specs declared nondeterministic.

A correct AEC env passes every check and broken ones fail the right check; a noisy env
passes when declared ``nondeterministic`` (its logical state is seeded) and fails the
determinism check when it is not.
"""

from __future__ import annotations

import dataclasses

import pytest

import envsuite
from envsuite.registry import EnvSpec
from envsuite.testing import ConformanceError, checks_for, run_conformance

MODULE = "tests.testing.broken_aec_envs"
GYM_MODULE = "tests.testing.broken_envs"


def _aec_spec(env_class: str, nondeterministic: bool = False) -> EnvSpec:
    return EnvSpec(
        id=f"envsuite/KitTest{env_class}-v0",
        entry_point=f"{MODULE}:{env_class}",
        family="decision",
        api="aec",
        description="kit test",
        oracle="envsuite.families.decision.nim_oracle:nim_oracle",
        nondeterministic=nondeterministic,
    )


def _gym_spec(env_class: str, nondeterministic: bool = False) -> EnvSpec:
    return EnvSpec(
        id=f"envsuite/KitTest{env_class}-v0",
        entry_point=f"{MODULE}:{env_class}",
        family="decision",
        api="gymnasium",
        description="kit test",
        max_episode_steps=50,
        oracle=f"{GYM_MODULE}:good_oracle",
        nondeterministic=nondeterministic,
    )


@pytest.fixture
def registered():
    added = []

    def add(spec: EnvSpec) -> EnvSpec:
        envsuite.register(spec)
        added.append(spec.id)
        return spec

    yield add
    for env_id in added:
        envsuite.registry.unregister(env_id)


def test_aec_specs_get_the_pettingzoo_checks():
    assert "pettingzoo_api" in checks_for(_aec_spec("GoodNim"))
    assert "gymnasium_api" not in checks_for(_aec_spec("GoodNim"))


def test_a_correct_turn_based_env_passes_every_check(registered):
    run_conformance(registered(_aec_spec("GoodNim")))


@pytest.mark.parametrize(
    ("env_class", "check", "message"),
    [
        ("DeadStepRaisingNim", "malformed_actions", "stepping finished agent .* raised"),
        ("TurnBlindNim", "malformed_actions", "while 'player_0' is to move was not refused"),
        ("GlobalRandomNim", "determinism", "same seed and actions"),
        ("GlobalRandomNim", "global_rng_untouched", "numpy.random"),
    ],
)
def test_a_broken_turn_based_env_fails_the_right_check(registered, env_class, check, message):
    spec = registered(_aec_spec(env_class))
    with pytest.raises(ConformanceError, match=message):
        run_conformance(spec, only=[check])


def test_a_dead_step_that_keeps_the_agent_fails_and_never_hangs(registered):
    # Rollouts (the shared AEC loop) stop on the broken dead step instead of looping on it.
    spec = registered(_aec_spec("StayingNim"))
    for check in ("oracle", "determinism", "rollout_values"):
        with pytest.raises(RuntimeError, match=r"dead step \(step\(None\)\) left"):
            run_conformance(spec, only=[check])


def test_a_turn_based_oracle_is_judged_by_the_envs_success_hook(registered):
    spec = registered(
        dataclasses.replace(
            _aec_spec("GoodNim"), oracle="tests.testing.broken_aec_envs:forfeiting_oracle"
        )
    )
    with pytest.raises(ConformanceError, match="the oracle succeeded on 0%"):
        run_conformance(spec, only=["oracle"])


@pytest.mark.parametrize(
    "spec", [_aec_spec("NoisyNim", True), _gym_spec("NoisyObservationEnv", True)], ids=str
)
def test_a_declared_nondeterministic_env_passes_every_check(registered, spec):
    run_conformance(registered(spec))


@pytest.mark.parametrize("check", ["determinism", "pickle"])
@pytest.mark.parametrize(
    "spec", [_aec_spec("NoisyNim"), _gym_spec("NoisyObservationEnv")], ids=lambda s: s.id
)
def test_the_same_env_undeclared_fails_determinism(registered, spec, check):
    with pytest.raises(ConformanceError, match=r"same seed and actions|pickled copy"):
        run_conformance(registered(spec), only=[check])


@pytest.mark.parametrize(
    ("spec", "check", "message"),
    [
        (_aec_spec("FrozenDigestNim", True), "determinism", "it must change"),
        (_aec_spec("NoisyDigestNim", True), "determinism", r"state_digest\(\) differs"),
        (_aec_spec("NoisyDigestNim", True), "pickle", "differs from the original's"),
        (_gym_spec("NoisyUndigestedEnv", True), "determinism", r"has no state_digest\(\)"),
    ],
    ids=lambda value: getattr(value, "id", value),
)
def test_a_bad_state_digest_fails(registered, spec, check, message):
    with pytest.raises(ConformanceError, match=message):
        run_conformance(registered(spec), only=[check])
