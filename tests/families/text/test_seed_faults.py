"""The seeding faults of other text-game libraries, checked on every text env.

- One seed, many resets (a GRPO group): every reset poses the same instance, in one env and
  in a fresh one (OpenEnv's TextArena wrapper drew a new Wordle word at every reset).
- Neighbouring seeds are independent draws, not shifted windows of one sequence
  (reasoning-gym's ``Random(seed + idx)``): the instances of seeds 0..39 and 1..40 agree
  only where the seeds agree.
"""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.text.specs import TEXT_SPECS


def instance(env, seed: int) -> tuple[str, str]:
    reset = env.reset(seed=seed)
    if reset is None:  # a PettingZoo AEC env: what the first player to move sees
        return env.unwrapped.instance_key(), env.observe(env.agent_selection)
    return env.unwrapped.instance_key(), reset[0]


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_one_seed_poses_one_instance_at_every_reset(spec):
    env = envsuite.make(spec.id, **dict(spec.test_kwargs))
    first = instance(env, 7)
    env.step("something")  # a step in between changes nothing
    assert all(instance(env, 7) == first for _ in range(6))
    assert instance(envsuite.make(spec.id, **dict(spec.test_kwargs)), 7) == first


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda spec: spec.id)
def test_neighbouring_seeds_are_not_shifted_copies(spec):
    env = envsuite.make(spec.id, **dict(spec.test_kwargs))
    keys = [instance(env, seed)[0] for seed in range(41)]
    shifted = sum(keys[seed] == keys[seed + 1] for seed in range(40))
    assert shifted <= 8, f"{shifted} of 40 neighbouring seeds pose the same instance"
    assert len(set(keys)) >= 20
