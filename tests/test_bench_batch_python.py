"""The count of a batched env's Python outside ``Batch.step`` (``envsuite bench``).

A fake clock makes the arithmetic exact: the env's Python, the physics and each clock
read cost known amounts, and the count must give the Python's share back. Nothing here
asserts a time measured on the machine.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from envsuite.bench.batch_python import CountedBatch, counter_seconds, outside_seconds

PYTHON, PHYSICS, READ = 10.0, 100.0, 1.0


class FakeClock:
    """A clock whose every read costs ``READ``; work advances it by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        value = self.now
        self.now += READ
        return value


class FakeBatch:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.steps: list[tuple[Any, ...]] = []
        self.resets = 0

    def step(self, *args: Any) -> str:
        self.clock.now += PHYSICS
        self.steps.append(args)
        return "stepped"

    def reset(self) -> None:
        self.resets += 1


class FakeEnv:
    """A vector env whose step runs ``PYTHON`` seconds of Python and one batch step."""

    def __init__(self, clock: FakeClock, batch_steps: int = 1) -> None:
        self.clock = clock
        self.batch: Any = FakeBatch(clock)
        self.unwrapped = self
        self.seeds: list[int] = []
        self.batch_steps = batch_steps

    def reset(self, seed: int) -> None:
        self.seeds.append(seed)
        self.batch.reset()
        self.batch.step("reset's own step, not counted")
        self.clock.now += 5000.0

    def step(self, action: Any) -> None:
        self.clock.now += PYTHON
        for _ in range(self.batch_steps):
            self.batch.step(action)


def test_the_count_gives_back_the_python_and_one_clock_read_a_step() -> None:
    clock = FakeClock()
    env = FakeEnv(clock)
    real_batch = env.batch
    steps = 100
    seconds = outside_seconds(env, list(range(steps)), seed=7, clock=clock)
    # The steps' Python and one read each (the other is inside the count); the episode's
    # closing read is spread over the steps.
    assert seconds == pytest.approx(PYTHON + READ + READ / steps)
    assert env.batch is real_batch  # put back
    assert env.seeds == [7] and real_batch.resets == 1  # reset forwarded, not counted
    assert [args for args in real_batch.steps[1:]] == [(i,) for i in range(steps)]


def test_the_counter_cost_is_the_read_a_step_leaves_outside() -> None:
    calls = 50
    assert counter_seconds(calls, FakeClock()) == pytest.approx(READ + READ / calls)


def test_a_step_that_does_not_call_the_batch_once_is_an_error() -> None:
    with pytest.raises(RuntimeError, match=r"3 steps made 6 Batch\.step calls"):
        outside_seconds(FakeEnv(FakeClock(), batch_steps=2), [0, 1, 2], seed=0, clock=FakeClock())


def test_counted_batch_forwards_and_restarts() -> None:
    clock = FakeClock()
    batch = FakeBatch(clock)
    counted = CountedBatch(batch, clock)
    assert counted.step(1, 2) == "stepped" and batch.steps == [(1, 2)]
    assert counted.calls == 1 and counted.seconds == PHYSICS + READ
    counted.reset()
    assert batch.resets == 1
    counted.restart()
    assert (counted.calls, counted.seconds) == (0, 0.0)


def test_a_counted_episode_of_the_batched_arm_is_the_uncounted_one() -> None:
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("mujoco")
    import envsuite
    from envsuite.bench import arm

    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (30, arm.NUM_ENVS, 4))
    one_thread = {"vectorization_mode": "vector_entry_point", "vector_kwargs": {"nthread": 1}}
    envs = [envsuite.make_vec(arm.ARM, arm.NUM_ENVS, **one_thread) for _ in range(2)]
    batch = envs[0].unwrapped.batch
    assert outside_seconds(envs[0], actions, arm.SEED) > 0
    assert envs[0].unwrapped.batch is batch
    arm.vector_episode(envs[1], actions)
    last = [env.step(actions[0]) for env in envs]
    assert last[0][0].tobytes() == last[1][0].tobytes()
    assert last[0][1].tobytes() == last[1][1].tobytes()
    for env in envs:
        env.close()
