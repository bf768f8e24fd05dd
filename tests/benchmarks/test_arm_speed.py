"""Arm speed against the raw MuJoCo loop doing the same physics, in the same run.

Group ``arm-step``: one ArmPush episode (reset + ``STEPS`` steps of recorded oracle actions,
so the hand really pushes the cube) through ``envsuite.make`` (the wrappers users get),
through the unwrapped env, and as the raw engine loop: the same model, the same initial
state, and per step only the env's engine calls, ``mj_step(model, data,
nstep=frame_skip)`` then ``mj_kinematics`` (the env's way to observe the hand at the state
reached), with the inputs the env produced written into views bound once. Every pair
ends in the bit-identical state (asserted), so the ratio of an envsuite row to the raw row
is envsuite's overhead. The group also times ``gymnasium_floor``: the raw loop as the
leanest ``gymnasium.Env`` (``envsuite/bench/arm_floor.py``: no wrapper, no action check,
the same engine calls), what the API alone adds to the raw loop. It reaches the env's
state, observations and rewards to the bit (asserted).

Group ``arm-vector-8``: 8 ArmPush envs for ``VECTOR_STEPS`` steps of recorded oracle
actions: Gymnasium's ``SyncVectorEnv`` (what ``envsuite.make_vec`` builds by default), the
batched vector env on ``mujoco.batch.Batch`` (``make_vec(...,
vectorization_mode="vector_entry_point")``, as users get it), and the raw engine doing the
same physics: a loop over 8 ``MjData``, a ``Batch`` stepped directly, and that ``Batch``
also computing the position stage at the new state (``stage=mjSTAGE_POS``), which the
batched env needs to observe it: that row is the batched env without its Python. All
five end in the same state (asserted).

Group ``arm-vector-32``: SyncVectorEnv against the batched env with 32 envs and random
actions (the batched env's Python work is shared by every env, so its advantage grows
with their number).

Group ``gymnasium-pusher`` (when Gymnasium's MuJoCo envs import): Gymnasium's Pusher-v5
against its own raw loop, for the reference figure.

Measured on 2 cores at load average 8.9 (2026-11-29, the repo's shared machine busy with
other work), wall clock, five rounds, min / median: ``arm-vector-8`` SyncVectorEnv
660 / 759 ms, batched env (one thread, as ``nthread=0`` picked) 648 / 708 ms, raw
``Batch`` with the position stage 514 / 583 ms, raw ``Batch`` 625 / 692 ms (both on two
threads then; the raw batches now get the thread count the env picks, so that both do the
same work), raw loop 613 / 735 ms: at that load the spread between rounds is larger than
the differences.
The batched env's module docstring says where the time goes.

``pytest tests/benchmarks/test_arm_speed.py --benchmark-enable`` prints each group's
table, and every vector row puts ``env_steps_per_s`` (mean and best round) in its
``extra_info``. Time these groups by the wall clock, the default: ``--benchmark-timer=
time.process_time`` sums the CPU time of every thread, which hides what the batch's
threads gain. The repo's pytest config passes ``--benchmark-disable``, so in CI every
benchmark runs once as a plain test of its result. Nothing here asserts a time.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import mujoco
from mujoco import batch as mujoco_batch

import envsuite
from envsuite.bench.arm import (
    ARM,
    FRAME_SKIP,
    SEED,
    STEPS,
    Recording,
    env_episode,
    raw_batch_episode,
    raw_episode,
    raw_start,
    record,
)
from envsuite.bench.arm_floor import FloorArm
from envsuite.families.physics.arm.base_env import new_model
from envsuite.seeding import derive_seeds, make_generator

VECTOR_STEPS = 100
NUM_ENVS = 8


@pytest.fixture(scope="module")
def episode() -> Recording:
    return record(SEED, STEPS)


@pytest.fixture(scope="module")
def vector_episodes() -> list[Recording]:
    return [record(seed, VECTOR_STEPS) for seed in derive_seeds(SEED, NUM_ENVS, "vector")]


@pytest.mark.benchmark(group="arm-step")
def test_arm_step_raw_mj_step(benchmark: Any, episode: Recording) -> None:
    model = new_model()
    data = mujoco.MjData(model)
    assert benchmark(raw_episode, model, data, episode) == episode.final_qpos


@pytest.mark.benchmark(group="arm-step")
def test_arm_step_envsuite_make(benchmark: Any, episode: Recording) -> None:
    env = envsuite.make(ARM, max_episode_steps=10 * STEPS)
    assert benchmark(env_episode, env, episode.actions) == episode.final_qpos


@pytest.mark.benchmark(group="arm-step")
def test_arm_step_envsuite_unwrapped(benchmark: Any, episode: Recording) -> None:
    env = envsuite.make(ARM).unwrapped
    assert benchmark(env_episode, env, episode.actions) == episode.final_qpos


def integration_state(env: Any) -> bytes:
    """Everything MuJoCo integrates from (time, qpos, qvel, warm start, ctrl, mocap, ...)."""
    model, data = env.unwrapped.model, env.unwrapped.data
    kind = mujoco.mjtState.mjSTATE_INTEGRATION
    state = np.empty(mujoco.mj_stateSize(model, kind))
    mujoco.mj_getState(model, data, state, kind)
    return state.tobytes()


@pytest.mark.benchmark(group="arm-step")
def test_arm_step_gymnasium_floor(benchmark: Any, episode: Recording) -> None:
    floor = FloorArm()
    assert benchmark(env_episode, floor, episode.actions) == episode.final_qpos
    # Step by step beside the env: the same observations and rewards, bit for bit ...
    env = envsuite.make(ARM)
    env_first, floor_first = env.reset(seed=SEED)[0], floor.reset(seed=SEED)[0]
    assert floor_first.tobytes() == env_first.tobytes()
    for action in episode.actions:
        env_step, floor_step = env.step(action), floor.step(action)
        assert floor_step[0].tobytes() == env_step[0].tobytes()
        assert floor_step[1:4] == env_step[1:4]
        assert floor_step[4]["success"] == env_step[4]["success"]
        assert floor.observation_space.contains(floor_step[0])
    # ... and the same final state: what MuJoCo integrates from, and the observed positions.
    assert integration_state(floor) == integration_state(env)
    assert floor.data.site_xpos.tobytes() == env.unwrapped.data.site_xpos.tobytes()
    assert floor.data.xpos.tobytes() == env.unwrapped.data.xpos.tobytes()


# -- eight envs ------------------------------------------------------------------------------
def stacked_actions(recordings: list[Recording]) -> np.ndarray:
    return np.stack([np.stack(r.actions) for r in recordings], axis=1)


def expected_states(recordings: list[Recording]) -> bytes:
    return b"".join(r.final_qpos for r in recordings)


def vector_episode(env: Any, actions: np.ndarray, states: Any) -> bytes:
    env.reset(seed=SEED)
    for action in actions:
        env.step(action)
    return bytes(b"".join(q.tobytes() for q in states(env)))


def sync_states(vec: Any) -> list[np.ndarray]:
    """Each sub-env's qpos in ``envsuite.make_vec``'s SyncVectorEnv."""
    return [sub.unwrapped.data.qpos for sub in vec.env.envs]


def batched_states(vec: Any) -> list[np.ndarray]:
    """Each simulation's qpos in the batched vector env."""
    return list(vec.unwrapped.batch.bind("qpos"))


def batched_vector_env(num_envs: int) -> Any:
    """The batched vector env as users get it: ``make_vec``'s ``vector_entry_point``."""
    return envsuite.make_vec(ARM, num_envs, vectorization_mode="vector_entry_point")


def batched_threads() -> int:
    """The thread count the batched env picks here now, which the raw batches get too."""
    return int(batched_vector_env(NUM_ENVS).unwrapped.nthread)


def record_rate(benchmark: Any, env_steps: int) -> None:
    """Put the env steps per second of the mean and of the best round in ``extra_info``."""
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # None when benchmarks are disabled
        benchmark.extra_info["env_steps_per_s"] = env_steps / stats.stats.mean
        benchmark.extra_info["env_steps_per_s_best_round"] = env_steps / stats.stats.min


def raw_loop_episode(model: Any, datas: list[Any], recordings: list[Recording]) -> bytes:
    for data, recording in zip(datas, recordings, strict=True):
        raw_start(model, data, recording)
    for t in range(VECTOR_STEPS):
        for data, recording in zip(datas, recordings, strict=True):
            data.mocap_pos[0] = recording.hand[t]
            data.ctrl[0] = recording.ctrl[t]
            mujoco.mj_step(model, data, FRAME_SKIP)
    return b"".join(data.qpos.tobytes() for data in datas)


@pytest.mark.benchmark(group="arm-vector-8")
def test_vector_raw_mj_step_loop(benchmark: Any, vector_episodes: list[Recording]) -> None:
    model = new_model()
    datas = [mujoco.MjData(model) for _ in range(NUM_ENVS)]
    result = benchmark(raw_loop_episode, model, datas, vector_episodes)
    assert result == expected_states(vector_episodes)
    record_rate(benchmark, NUM_ENVS * VECTOR_STEPS)


@pytest.mark.benchmark(group="arm-vector-8")
def test_vector_raw_mujoco_batch(benchmark: Any, vector_episodes: list[Recording]) -> None:
    batch = mujoco_batch.Batch(new_model(), NUM_ENVS, batched_threads())
    result = benchmark(raw_batch_episode, batch, vector_episodes, mujoco.mjtStage.mjSTAGE_NONE)
    assert result == expected_states(vector_episodes)
    record_rate(benchmark, NUM_ENVS * VECTOR_STEPS)


@pytest.mark.benchmark(group="arm-vector-8")
def test_vector_raw_mujoco_batch_observed(benchmark: Any, vector_episodes: list[Recording]) -> None:
    """The raw Batch that also brings positions to the new state, as the env must.

    ``stage=mjSTAGE_POS`` runs ``mj_fwdPosition`` after the substeps, where the single env
    runs ``mj_kinematics``: this row is what the batched env costs without its Python.
    """
    batch = mujoco_batch.Batch(new_model(), NUM_ENVS, batched_threads())
    stage = mujoco.mjtStage.mjSTAGE_POS
    result = benchmark(raw_batch_episode, batch, vector_episodes, stage)
    assert result == expected_states(vector_episodes)
    record_rate(benchmark, NUM_ENVS * VECTOR_STEPS)


@pytest.mark.benchmark(group="arm-vector-8")
def test_vector_sync_vector_env(benchmark: Any, vector_episodes: list[Recording]) -> None:
    env = envsuite.make_vec(ARM, NUM_ENVS)
    actions = stacked_actions(vector_episodes)
    result = benchmark(vector_episode, env, actions, sync_states)
    assert result == expected_states(vector_episodes)
    record_rate(benchmark, NUM_ENVS * VECTOR_STEPS)


@pytest.mark.benchmark(group="arm-vector-8")
def test_vector_envsuite_batched(benchmark: Any, vector_episodes: list[Recording]) -> None:
    env = batched_vector_env(NUM_ENVS)
    actions = stacked_actions(vector_episodes)
    result = benchmark(vector_episode, env, actions, batched_states)
    assert result == expected_states(vector_episodes)
    record_rate(benchmark, NUM_ENVS * VECTOR_STEPS)


# -- more envs: the batched env's Python work is shared by all of them -----------------------
MANY_ENVS = 32
MANY_ACTIONS = make_generator(0, "arm-benchmark").uniform(-1, 1, (VECTOR_STEPS, MANY_ENVS, 4))


@pytest.mark.benchmark(group="arm-vector-32")
def test_vector_32_sync_vector_env(benchmark: Any) -> None:
    env = envsuite.make_vec(ARM, MANY_ENVS)
    expected = vector_episode(env, MANY_ACTIONS, sync_states)
    assert benchmark(vector_episode, env, MANY_ACTIONS, sync_states) == expected
    record_rate(benchmark, MANY_ENVS * VECTOR_STEPS)


@pytest.mark.benchmark(group="arm-vector-32")
def test_vector_32_envsuite_batched(benchmark: Any) -> None:
    env = batched_vector_env(MANY_ENVS)
    expected = vector_episode(envsuite.make_vec(ARM, MANY_ENVS), MANY_ACTIONS, sync_states)
    assert benchmark(vector_episode, env, MANY_ACTIONS, batched_states) == expected
    record_rate(benchmark, MANY_ENVS * VECTOR_STEPS)


# -- Gymnasium's own MuJoCo env, for reference ---------------------------------------------
PUSHER_ACTIONS = [np.random.default_rng(0).uniform(-2, 2, 7) for _ in range(STEPS)]


@pytest.fixture(scope="module")
def pusher() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("imageio")  # Gymnasium's MuJoCo envs import it
    return gymnasium.make("Pusher-v5")


def pusher_episode(env: Any) -> bytes:
    env.reset(seed=SEED)
    for action in PUSHER_ACTIONS:
        env.step(action)
    return bytes(env.unwrapped.data.qpos.tobytes())


def pusher_raw_episode(env: Any, start: tuple[np.ndarray, np.ndarray]) -> bytes:
    model, data = env.unwrapped.model, env.unwrapped.data
    mujoco.mj_resetData(model, data)
    data.qpos[:], data.qvel[:] = start
    mujoco.mj_forward(model, data)
    for action in PUSHER_ACTIONS:
        data.ctrl[:] = action
        mujoco.mj_step(model, data, env.unwrapped.frame_skip)
    return bytes(data.qpos.tobytes())


@pytest.mark.benchmark(group="gymnasium-pusher")
def test_gymnasium_pusher_v5(benchmark: Any, pusher: Any) -> None:
    final = benchmark(pusher_episode, pusher)
    assert final == pusher_episode(pusher)


@pytest.mark.benchmark(group="gymnasium-pusher")
def test_gymnasium_pusher_raw_mj_step(benchmark: Any, pusher: Any) -> None:
    pusher.reset(seed=SEED)
    start = (pusher.unwrapped.data.qpos.copy(), pusher.unwrapped.data.qvel.copy())
    expected = pusher_episode(pusher)
    assert benchmark(pusher_raw_episode, pusher, start) == expected
