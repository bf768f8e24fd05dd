"""A seeded reset gives the env Gymnasium's generator, with Gymnasium's semantics.

``EnvsuiteEnv.reset`` seeds through ``gymnasium.Env.reset``; anything that makes the
generator another way (a faster construction, a cache) must keep what this checks.
"""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import Error
from gymnasium.utils import seeding

import envsuite
from envsuite.env_base import EnvsuiteEnv


def _same_generator(ours: np.random.Generator, theirs: np.random.Generator) -> None:
    assert type(ours) is type(theirs) and type(ours.bit_generator) is type(theirs.bit_generator)
    assert ours.bit_generator.state == theirs.bit_generator.state
    mine, numpys = ours.bit_generator.seed_seq, theirs.bit_generator.seed_seq
    assert type(mine) is np.random.SeedSequence and mine.state == numpys.state
    assert mine.pool.tolist() == numpys.pool.tolist()
    assert pickle.dumps(ours) == pickle.dumps(theirs)


def test_envsuite_reset_reaches_gymnasiums():
    """Nothing between EnvsuiteEnv and gymnasium.Env defines a reset of its own."""
    owner = next(base for base in EnvsuiteEnv.__mro__[1:] if "reset" in vars(base))
    assert owner is gym.Env


@pytest.mark.parametrize("seed", [0, 11, 2**32, 2**64 + 3, 2**200])
def test_seeded_reset_makes_a_fresh_gymnasium_generator(seed):
    env = envsuite.make("envsuite/SAT-v0")
    unwrapped = env.unwrapped
    env.reset(seed=seed)
    held = unwrapped.np_random
    held_state = held.bit_generator.state
    env.reset(seed=seed)
    fresh = unwrapped.np_random
    assert fresh is not held and fresh.bit_generator is not held.bit_generator
    assert fresh.bit_generator.seed_seq is not held.bit_generator.seed_seq
    assert held.bit_generator.state == held_state  # the old generator is left alone
    assert unwrapped.np_random_seed == seed == env.np_random_seed
    expected, _ = seeding.np_random(seed)
    env.reset(seed=seed)
    # The reset drew from the generator; replay those draws on Gymnasium's own.
    unwrapped.source.draw(expected, seed, None)
    _same_generator(unwrapped.np_random, expected)


def test_unseeded_reset_runs_on_and_bad_seeds_raise_gymnasiums_error():
    env = envsuite.make("envsuite/SAT-v0")
    unwrapped = env.unwrapped
    env.reset(seed=5)
    generator = unwrapped.np_random
    env.reset()
    assert unwrapped.np_random is generator and unwrapped.np_random_seed == 5
    for bad in (-3, np.int64(3), 2.0):
        with pytest.raises(Error):
            env.reset(seed=bad)
    unwrapped.np_random = np.random.default_rng(1)  # Gymnasium's setter: seed unknown
    assert unwrapped.np_random_seed == -1
