"""The conformance kit must fail on envs that break its rules, each for the right reason."""

from __future__ import annotations

import pytest

import envsuite
from envsuite.registry import EnvSpec
from envsuite.testing import ConformanceError, checks_for, run_conformance

MODULE = "tests.testing.broken_envs"


def _spec(env_class: str, oracle: str = "good_oracle") -> EnvSpec:
    return EnvSpec(
        id=f"envsuite/KitTest{env_class}-v0",
        entry_point=f"{MODULE}:{env_class}",
        family="decision",
        api="gymnasium",
        description="kit test",
        max_episode_steps=50,
        oracle=f"{MODULE}:{oracle}",
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


def test_a_correct_env_passes_every_check(registered):
    run_conformance(registered(_spec("GoodEnv")))


@pytest.mark.parametrize(
    ("env_class", "check", "message"),
    [
        ("GlobalRandomEnv", "determinism", "same seed and actions"),
        ("GlobalRandomEnv", "global_rng_untouched", "numpy.random"),
        ("SeedIgnoringEnv", "determinism", "same seed and actions"),
        ("OutOfSpaceEnv", "rollout_values", "outside observation_space"),
        ("CrashingEnv", "malformed_actions", "raised"),
        ("UndocumentedEnv", "docstring", "lacks the 'Description' section"),
        ("UnpicklableEnv", "pickle", "cannot be pickled"),
        ("NoParseErrorEnv", "rollout_values", "parse_error"),
        ("TextRewardEnv", "rollout_values", "reward is not a finite number: '"),
        ("NoRewardEnv", "rollout_values", "reward is not a finite number: None"),
        ("AnsiOnlyEnv", "render_modes", "does not offer render_mode='rgb_array'"),
        ("NoisyFrameEnv", "render_modes", "differs between two envs seeded alike"),
        ("GrowingFrameEnv", "render_modes", "frames change shape"),
        ("GreyFrameEnv", "render_modes", "not an HxWx3 uint8 array"),
        ("BuggyParserEnv", "malformed_actions", "the parser has a bug: .*IndexError"),
        ("HumanReturnsTextEnv", "render_modes", "render_mode='human' returned str"),
        ("SeededOnlyGeneratorEnv", "unseeded_first_reset", "without a seed.*np_random_seed: None"),
    ],
)
def test_a_broken_env_fails_the_right_check(registered, env_class, check, message):
    spec = registered(_spec(env_class))
    with pytest.raises(ConformanceError, match=message):
        run_conformance(spec, only=[check])


def test_an_oracle_below_its_documented_level_fails(registered):
    spec = registered(_spec("GoodEnv", oracle="useless_oracle"))
    with pytest.raises(ConformanceError, match="the oracle succeeded on"):
        run_conformance(spec, only=["oracle"])


def test_a_spec_without_an_oracle_fails(registered):
    import dataclasses

    spec = registered(dataclasses.replace(_spec("GoodEnv"), oracle=None))
    with pytest.raises(ConformanceError, match="has no oracle"):
        run_conformance(spec, only=["oracle"])


def test_gymnasiums_checker_runs_for_single_agent_specs():
    assert "gymnasium_api" in checks_for(_spec("GoodEnv"))
    assert "pettingzoo_api" not in checks_for(_spec("GoodEnv"))
