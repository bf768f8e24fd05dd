"""The batched drone engine: 1,024 quadcopters a step, against its raw physics and SyncVectorEnv.

The loops are :mod:`envsuite.bench.drone_batch`'s, the ones ``envsuite bench --rows
drone-batch`` times (the policy, the recording and the replays live there, once).

Group ``drone-batch``: DroneHover-v0 as ``envsuite.make_vec(..., num_envs=1024,
vectorization_mode="vector_entry_point")`` builds it (explicit ``dyn`` physics, RPM
actions), replaying recorded actions of an altitude-and-attitude-hold policy with a little
motor noise (so drones fly, tilt and turn; the policy's own time is left out), ``STEPS``
steps a round from the same seeded reset: a whole 8 s episode (240 steps), the restart of
every env (NEXT_STEP autoreset) and 9 steps of the next episode.

- ``test_batched_hover_1024``: still air, nominal airframes;
- ``test_batched_hover_1024_raw_physics``: the raw limit, the batched engine's own control
  step called on its arrays with the commands and restarts the env gave it (no Gymnasium
  layer: no action checks, crash rule, rewards, observations or infos); it ends in the
  env's state to the last bit (checked);
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

Measured with ``envsuite bench --rows drone-batch`` (the same loops, in turns on the CPU
clock; rates: best rounds; ratios: best round to median round) on 2026-11-29, three runs
on the repository's 2-core x86_64 machine shared with other jobs (load average 5.5): the
batched env 1.11-1.28 million drone-steps/s at 1,024 drones (the goal: 1 million),
1,260-1,520x SyncVectorEnv of single ``dyn`` envs per drone-step (828-968 drone-steps/s;
the goal: 50x), and 1.46-1.53x the time of its raw physics (1.67-1.87 million
drone-steps/s). The effects and JAX benchmarks are not in the bench row: run them here.

``pytest tests/benchmarks/test_drone_batch_speed.py --benchmark-enable`` prints each group's
table and the ``extra_info``. The repo's pytest config passes ``--benchmark-disable``, so in
CI every benchmark runs once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

from envsuite.bench.drone_batch import (
    NUM_ENVS,
    STEPS,
    SYNC_ENVS,
    SYNC_STEPS,
    RawPhysics,
    Replay,
    batched_env,
    prepared_cpu_seconds,
    record_actions,
    record_flight,
    sync_env,
)
from envsuite.bench.timing import interleaved
from tests.benchmarks.paired_timing import timing_rounds

ROUNDS = 5


def run(benchmark: Any, loop: Replay | RawPhysics) -> Any:
    """Benchmark ``loop`` from its seeded start (the reset is not timed)."""
    started = time.perf_counter()
    result = benchmark.pedantic(
        loop, setup=loop.prepare, rounds=ROUNDS, iterations=1, warmup_rounds=1
    )
    drone_steps = NUM_ENVS * STEPS
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["drone_steps_per_s"] = drone_steps / stats.stats.mean
        benchmark.extra_info["drone_steps_per_s_best_round"] = drone_steps / stats.stats.min
    else:
        benchmark.extra_info["drone_steps_per_s"] = drone_steps / (time.perf_counter() - started)
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
    drone_steps, ended = run(benchmark, Replay(batched, recorded))
    assert drone_steps == NUM_ENVS * STEPS
    # The drones fly: every episode runs to its 8 s limit (step 240) and restarts, but
    # hardly any crashes.
    assert NUM_ENVS <= ended < 1.05 * NUM_ENVS


@pytest.mark.benchmark(group="drone-batch")
def test_batched_hover_1024_raw_physics(benchmark: Any, batched: Any, recorded: np.ndarray) -> None:
    """The engine's control step alone, fed what the env fed it: the env's flight, bit for bit."""
    flight = record_flight(batched, recorded)
    assert [restart.step for restart in flight.restarts][-1] == 240
    assert flight.restarts[-1].ids.size > 0.9 * NUM_ENVS
    final = run(benchmark, RawPhysics(batched, flight))
    np.testing.assert_array_equal(final, flight.final_position)
    # The check sees a difference: without the restarts the drones end elsewhere.
    flight.restarts.clear()
    assert not np.array_equal(RawPhysics(batched, flight)(), flight.final_position)


def test_raw_physics_refuses_effects_randomization_and_wind() -> None:
    for kwargs in ({"physics": "dyn_gnd"}, {"domain_randomization": True}, {"wind": True}):
        env = batched_env(4, **kwargs)
        actions = record_actions(env, 2)
        with pytest.raises(ValueError, match="plain 'dyn' physics"):
            RawPhysics(env, record_flight(env, actions))
        env.close()


@pytest.mark.benchmark(group="drone-batch")
def test_batched_hover_1024_effects_randomization_wind(benchmark: Any) -> None:
    env = batched_env(physics="dyn_gnd_drag", domain_randomization=True, wind=True)
    drone_steps, ended = run(benchmark, Replay(env, record_actions(env, STEPS)))
    assert drone_steps == NUM_ENVS * STEPS
    assert NUM_ENVS <= ended < 1.2 * NUM_ENVS
    env.close()


@pytest.mark.benchmark(group="drone-batch")
def test_batched_hover_1024_jax_backend(benchmark: Any, recorded: np.ndarray) -> None:
    """The same flight on the JAX backend (XLA on this machine's CPU)."""
    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("jax")
    env = batched_env(vector_kwargs={"backend": "jax"})
    drone_steps, ended = run(benchmark, Replay(env, recorded))
    assert drone_steps == NUM_ENVS * STEPS
    assert NUM_ENVS <= ended < 1.05 * NUM_ENVS
    env.close()


@pytest.mark.benchmark(group="drone-batch-vs-sync")
def test_batched_against_sync_vector_env(
    benchmark: Any, batched: Any, recorded: np.ndarray
) -> None:
    sync = sync_env(SYNC_ENVS)
    ours, theirs = Replay(batched, recorded), Replay(sync, recorded[:SYNC_STEPS, :SYNC_ENVS])

    # The same work: the sync envs fly exactly the first envs of the batched env.
    ours.prepare()
    theirs.prepare()
    for step in range(SYNC_STEPS):
        batched_observations = batched.step(recorded[step])[0][:SYNC_ENVS]
        sync_observations = sync.step(theirs.actions[step])[0]
        np.testing.assert_allclose(batched_observations, sync_observations, rtol=2e-6, atol=2e-6)

    run(benchmark, ours)
    times = interleaved(
        {"batched": ours, "sync": theirs}, timing_rounds(benchmark, ROUNDS), prepared_cpu_seconds
    )
    batched_best = min(times["batched"]) / (NUM_ENVS * STEPS)
    sync_best = min(times["sync"]) / (SYNC_ENVS * SYNC_STEPS)
    benchmark.extra_info["batched_drone_steps_per_s_process"] = 1.0 / batched_best
    benchmark.extra_info["sync_drone_steps_per_s_process"] = 1.0 / sync_best
    benchmark.extra_info["ratio_per_drone_step"] = sync_best / batched_best
    sync.close()
    assert sync_best > 0.0 and batched_best > 0.0
