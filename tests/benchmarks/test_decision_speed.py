"""Bandit-v0 speed against the raw loop doing the same work, in the same run.

The loops are :mod:`envsuite.bench.decision`'s, which ``envsuite bench --rows
bandit-vector,bandit-text`` times too.

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

from typing import Any

import numpy as np
import pytest

from envsuite.bench.decision import (
    ACTIONS,
    MEANS,
    SEED,
    TEXT_ACTIONS,
    env_episode,
    make_bandit,
    raw_text_episode,
    raw_vector_episode,
)


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
