"""Bandit-v0 speed against the raw loop doing the same work, in the same run.

Each pair in a benchmark group runs one episode of ``STEPS`` pulls with a fixed action
sequence: through ``envsuite.make`` (reset + steps, with the wrappers users get), and as a
plain loop over a numpy ``Generator`` that samples the same Bernoulli rewards and
accumulates the same regret (the text pair also formats the round message and parses the
answer, as the env must). ``pytest tests/benchmarks --benchmark-enable`` prints each
group's table; the ratio of the envsuite row to the raw row is envsuite's overhead.

The repo's pytest config passes ``--benchmark-disable``, so in CI every benchmark runs once
as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import envsuite
from envsuite.families.decision.bandit import arm_names
from envsuite.seeding import make_generator

BANDIT = "envsuite/Bandit-v0"
STEPS = 1_000
SEED = 12345
#: Fixed arm means, so reset draws nothing and the raw loop can reproduce every reward.
MEANS = (0.2, 0.35, 0.5, 0.65, 0.8)
NAMES = arm_names(len(MEANS))
ACTIONS: list[int] = (
    make_generator(0, "benchmark-actions").integers(len(MEANS), size=STEPS).tolist()
)
TEXT_ACTIONS = [NAMES[arm] for arm in ACTIONS]


def make_bandit(observation_mode: str) -> Any:
    return envsuite.make(
        BANDIT,
        num_arms=len(MEANS),
        arm_means=MEANS,
        horizon=STEPS,
        observation_mode=observation_mode,
    )


def env_episode(env: Any, actions: Sequence[Any]) -> tuple[float, float]:
    """Reset with SEED, take every action; return (total reward, cumulative regret)."""
    env.reset(seed=SEED)
    total = 0.0
    info: dict[str, Any] = {}
    for action in actions:
        _, reward, _, _, info = env.step(action)
        total += reward
    return total, info["cumulative_regret"]


def raw_vector_episode(actions: Sequence[int]) -> tuple[float, float]:
    """The bandit's arithmetic alone: a seeded generator, Bernoulli draws, regret."""
    rng = np.random.Generator(np.random.PCG64(SEED))
    means = list(MEANS)
    best = max(means)
    total = regret = 0.0
    for arm in actions:
        total += float(rng.random() < means[arm])
        regret += best - means[arm]
    return total, regret


def raw_text_episode(answers: Sequence[str]) -> tuple[float, float]:
    """The vector loop plus the text work: look the answer up, write the round message."""
    rng = np.random.Generator(np.random.PCG64(SEED))
    means = list(MEANS)
    best = max(means)
    index = {name: i for i, name in enumerate(NAMES)}
    total = regret = 0.0
    message = ""
    for t, answer in enumerate(answers, start=1):
        arm = index[answer.strip().lower()]
        reward = float(rng.random() < means[arm])
        message = (
            f"Round {t}: you pressed {NAMES[arm]} and received reward {reward:g}.\n"
            f"Round {t + 1} of {STEPS}: which button do you press?"
        )
        total += reward
        regret += best - means[arm]
    assert message
    return total, regret


@pytest.fixture(scope="module")
def expected() -> tuple[float, float]:
    return raw_vector_episode(ACTIONS)


@pytest.mark.benchmark(group="bandit-vector")
def test_bandit_vector_envsuite(benchmark: Any, expected: tuple[float, float]) -> None:
    env = make_bandit("vector")
    total, regret = benchmark(env_episode, env, ACTIONS)
    assert total == expected[0]
    assert regret == pytest.approx(expected[1], rel=1e-12)


@pytest.mark.benchmark(group="bandit-vector")
def test_bandit_vector_raw(benchmark: Any, expected: tuple[float, float]) -> None:
    assert benchmark(raw_vector_episode, ACTIONS) == expected


@pytest.mark.benchmark(group="bandit-text")
def test_bandit_text_envsuite(benchmark: Any, expected: tuple[float, float]) -> None:
    env = make_bandit("text")
    total, regret = benchmark(env_episode, env, TEXT_ACTIONS)
    assert total == expected[0]
    assert regret == pytest.approx(expected[1], rel=1e-12)


@pytest.mark.benchmark(group="bandit-text")
def test_bandit_text_raw(benchmark: Any, expected: tuple[float, float]) -> None:
    total, regret = benchmark(raw_text_episode, TEXT_ACTIONS)
    assert total == expected[0]
    assert regret == pytest.approx(expected[1], rel=1e-12)


def test_raw_loop_draws_the_env_rewards() -> None:
    """The raw loop's generator is the env's, so both pairs compare the same episode."""
    env = make_bandit("vector")
    env.reset(seed=SEED)
    rng = np.random.Generator(np.random.PCG64(SEED))
    assert rng.bit_generator.state == env.unwrapped.np_random.bit_generator.state
    rewards = [env.step(arm)[1] for arm in ACTIONS[:50]]
    assert rewards == [float(rng.random() < MEANS[arm]) for arm in ACTIONS[:50]]
