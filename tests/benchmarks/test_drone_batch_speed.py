"""The batched drone engine: 1,024 quadcopters a step, against SyncVectorEnv of single envs.

Group ``drone-batch``: DroneHover-v0 as ``envsuite.make_vec(..., num_envs=1024,
vectorization_mode="vector_entry_point")`` builds it (explicit ``dyn`` physics, RPM
actions), replaying recorded actions of an altitude-and-attitude-hold policy with a little
motor noise (so drones fly, tilt and turn; the policy's own time is left out), ``STEPS``
steps a round from the same seeded reset: a whole 8 s episode (240 steps), the restart of
every env (NEXT_STEP autoreset) and 9 steps of the next episode.

- ``test_batched_hover_1024``: still air, nominal airframes;
- ``test_batched_hover_1024_effects_randomization_wind``: ground effect and drag, domain
  randomisation and wind (every drone its own airframe and air mass);
- ``test_batched_hover_1024_jax_backend``: the first, on the JAX backend (``vector_kwargs=
  {"backend": "jax"}``; skipped without JAX).

Group ``drone-batch-vs-sync``: the same batched env against Gymnasium's ``SyncVectorEnv``
of ``envsuite.make("envsuite/DroneHover-v0", physics="dyn")`` single envs (what
``make_vec``'s default ``"sync"`` mode builds). SyncVectorEnv steps one env after another,
so its time per drone-step does not depend on how many envs it holds; 1,024 single envs
would need about 28 GB here (each single env holds a PyBullet client, about 28 MB), so it
holds the first ``SYNC_ENVS`` of the batched env's envs (the same seeds and actions: their
observations are checked to agree) and flies ``SYNC_STEPS`` steps. Both are timed in turns,
best of ``ROUNDS`` each on one clock (process time, which other processes on a shared
machine distort far less than the wall clock), and ``extra_info`` holds drone-steps per
second of each and their ratio per drone-step.

Measured 2026-11-28 on the repository's 2-core test machine (AMD EPYC), shared with other
jobs (load average 11-15), three runs. Process time (``--benchmark-timer=
time.process_time``), mean and best round: 1,024 drones 1.21-1.28 million drone-steps/s
(the target was 1 million); with ground effect, drag, randomisation and wind 0.43-0.46
million (last run); the JAX backend 0.73-0.94 million (XLA's threads all count here);
SyncVectorEnv of single ``dyn`` envs 903-932 drone-steps/s, so the batched env does
1,328-1,380x as many drone-steps per second of CPU time. Wall clock (the default timer) on
the same loaded machine, where this process got about a fifth of the CPU: 0.32-0.36
million drone-steps/s (effects 0.14-0.20, JAX 0.34-0.43 million).

``pytest tests/benchmarks/test_drone_batch_speed.py --benchmark-enable`` prints each group's
table and the ``extra_info``. The repo's pytest config passes ``--benchmark-disable``, so in
CI every benchmark runs once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import envsuite
from envsuite.seeding import derive_seeds, make_generator
from tests.benchmarks.paired_timing import timing_rounds

HOVER = "envsuite/DroneHover-v0"
NUM_ENVS = 1024
SYNC_ENVS = 16
STEPS = 250
SYNC_STEPS = 8
ROUNDS = 5
SEED = 3
#: Motor order of cf2x (front-left, back-left, back-right, front-right): which side of the
#: body's x and y axes each motor is on.
_SIDE_Y = np.array([1.0, 1.0, -1.0, -1.0])
_SIDE_X = np.array([1.0, -1.0, -1.0, 1.0])


def hold_policy(observations: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """RPM actions holding the target's altitude and a level attitude, plus motor noise."""
    climb = 0.6 * observations[:, 18] - 0.4 * observations[:, 12]
    # The angular velocity is observed in the world frame: turn it into the heading's.
    cos_yaw, sin_yaw = np.cos(observations[:, 9]), np.sin(observations[:, 9])
    rate_x, rate_y = observations[:, 13], observations[:, 14]
    roll = -0.1 * observations[:, 7] - 0.015 * (cos_yaw * rate_x + sin_yaw * rate_y)
    pitch = -0.1 * observations[:, 8] - 0.015 * (cos_yaw * rate_y - sin_yaw * rate_x)
    actions = climb[:, None] + roll[:, None] * _SIDE_Y - pitch[:, None] * _SIDE_X + noise
    return np.clip(actions, -1.0, 1.0)


def batched_env(**kwargs: Any) -> Any:
    """The batched vector env, as users get it."""
    return envsuite.make_vec(HOVER, NUM_ENVS, vectorization_mode="vector_entry_point", **kwargs)


def record_actions(env: Any, steps: int) -> np.ndarray:
    """Fly the hold policy once (untimed) from the benchmark's reset; return its actions."""
    noise = make_generator(SEED, "drone-batch-noise").uniform(-0.01, 0.01, (steps, NUM_ENVS, 4))
    observations, _ = env.reset(seed=SEED)
    actions = np.zeros((steps, NUM_ENVS, 4))
    for step in range(steps):
        actions[step] = hold_policy(observations, noise[step])
        observations, *_ = env.step(actions[step])
    return actions


def replay(env: Any, actions: np.ndarray) -> tuple[int, int]:
    """Step ``env`` through ``actions``; return (drone-steps, episodes ended)."""
    ended = 0
    for batch in actions:
        _, _, terminated, truncated, _ = env.step(batch)
        ended += int(np.count_nonzero(terminated | truncated))
    return actions.shape[0] * actions.shape[1], ended


def run(benchmark: Any, env: Any, actions: np.ndarray) -> tuple[int, int]:
    """Benchmark replaying ``actions`` from the seeded reset (the reset is not timed)."""

    def setup() -> None:
        env.reset(seed=SEED)

    started = time.perf_counter()
    result = benchmark.pedantic(
        lambda: replay(env, actions), setup=setup, rounds=ROUNDS, iterations=1, warmup_rounds=1
    )
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["drone_steps_per_s"] = result[0] / stats.stats.mean
        benchmark.extra_info["drone_steps_per_s_best_round"] = result[0] / stats.stats.min
    else:
        benchmark.extra_info["drone_steps_per_s"] = result[0] / (time.perf_counter() - started)
    return result


@pytest.fixture(scope="module")
def batched() -> Any:
    env = batched_env()
    yield env
    env.close()


@pytest.fixture(scope="module")
def recorded(batched: Any) -> np.ndarray:
    return record_actions(batched, STEPS)


@pytest.mark.benchmark(group="drone-batch")
def test_batched_hover_1024(benchmark: Any, batched: Any, recorded: np.ndarray) -> None:
    drone_steps, ended = run(benchmark, batched, recorded)
    assert drone_steps == NUM_ENVS * STEPS
    # The drones fly: every episode runs to its 8 s limit (step 240) and restarts, but
    # hardly any crashes.
    assert NUM_ENVS <= ended < 1.05 * NUM_ENVS


@pytest.mark.benchmark(group="drone-batch")
def test_batched_hover_1024_effects_randomization_wind(benchmark: Any) -> None:
    env = batched_env(physics="dyn_gnd_drag", domain_randomization=True, wind=True)
    actions = record_actions(env, STEPS)
    drone_steps, ended = run(benchmark, env, actions)
    assert drone_steps == NUM_ENVS * STEPS
    assert NUM_ENVS <= ended < 1.2 * NUM_ENVS
    env.close()


@pytest.mark.benchmark(group="drone-batch")
def test_batched_hover_1024_jax_backend(benchmark: Any, recorded: np.ndarray) -> None:
    """The same flight on the JAX backend (XLA on this machine's CPU)."""
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("jax")
    env = batched_env(vector_kwargs={"backend": "jax"})
    drone_steps, ended = run(benchmark, env, recorded)
    assert drone_steps == NUM_ENVS * STEPS
    assert NUM_ENVS <= ended < 1.05 * NUM_ENVS
    env.close()


def process_seconds(function: Callable[[], Any], setup: Callable[[], Any]) -> float:
    """CPU seconds one call of ``function`` takes, after an untimed ``setup``."""
    setup()
    started = time.process_time()
    function()
    return time.process_time() - started


@pytest.mark.benchmark(group="drone-batch-vs-sync")
def test_batched_against_sync_vector_env(
    benchmark: Any, batched: Any, recorded: np.ndarray
) -> None:
    seeds = derive_seeds(SEED, NUM_ENVS, "vector")[:SYNC_ENVS]
    sync = gymnasium.vector.SyncVectorEnv([lambda: envsuite.make(HOVER, physics="dyn")] * SYNC_ENVS)
    sync_actions = recorded[:SYNC_STEPS, :SYNC_ENVS]

    # The same work: the sync envs fly exactly the first envs of the batched env.
    batched.reset(seed=SEED)
    sync.reset(seed=seeds)
    for step in range(SYNC_STEPS):
        ours = batched.step(recorded[step])[0][:SYNC_ENVS]
        theirs = sync.step(sync_actions[step])[0]
        np.testing.assert_allclose(ours, theirs, rtol=2e-6, atol=2e-6)

    run(benchmark, batched, recorded)
    batched_best = sync_best = float("inf")
    for _ in range(timing_rounds(benchmark, ROUNDS)):
        batched_best = min(
            batched_best,
            process_seconds(lambda: replay(batched, recorded), lambda: batched.reset(seed=SEED))
            / (NUM_ENVS * STEPS),
        )
        sync_best = min(
            sync_best,
            process_seconds(
                lambda: replay(sync, sync_actions), lambda: sync.reset(seed=seeds)
            ) / (SYNC_ENVS * SYNC_STEPS),
        )  # fmt: skip
    benchmark.extra_info["batched_drone_steps_per_s_process"] = 1.0 / batched_best
    benchmark.extra_info["sync_drone_steps_per_s_process"] = 1.0 / sync_best
    benchmark.extra_info["ratio_per_drone_step"] = sync_best / batched_best
    sync.close()
    assert sync_best > 0.0 and batched_best > 0.0
