"""The batched vector env gives exactly what SyncVectorEnv over the made envs gives.

Compared byte for byte (a float is equal only to the same bits), through autoresets,
malformed rows and float32, float64 and integer action arrays.
"""

from __future__ import annotations

import os
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import envsuite
from envsuite.families.physics.arm import batched_vector_env as batched
from envsuite.families.physics.arm.batched_vector_env import (
    ArmBatchedVectorEnv,
    ArmPickPlaceBatchedVectorEnv,
    ArmPushBatchedVectorEnv,
    ArmReachBatchedVectorEnv,
)
from envsuite.families.physics.arm.scripted_oracle import arm_oracle
from envsuite.seeding import derive_seeds
from envsuite.vector import DerivedSeedVectorEnv

CLASSES = {
    "envsuite/ArmReach-v0": ArmReachBatchedVectorEnv,
    "envsuite/ArmPush-v0": ArmPushBatchedVectorEnv,
    "envsuite/ArmPickPlace-v0": ArmPickPlaceBatchedVectorEnv,
}
N = 4


def pair(
    env_id: str, max_steps: int, **kwargs
) -> tuple[ArmBatchedVectorEnv, gymnasium.vector.VectorEnv]:
    batched = CLASSES[env_id](N, max_episode_steps=max_steps, nthread=2, **kwargs)
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: envsuite.make(env_id, max_episode_steps=max_steps, **kwargs)] * N
    )
    return batched, sync


def same_bits(a, b) -> bool:
    """Equal to the bit: same types, keys, dtypes and shapes, and the same bytes."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_bits(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype == object:
            return all(same_bits(x, y) for x, y in zip(a.ravel(), b.ravel(), strict=True))
        return a.tobytes() == b.tobytes()  # -0.0 is not 0.0 here, and NaN equals NaN
    return bool(a == b)


def assert_same(a, b, what: str) -> None:
    assert data_equivalence(a, b, exact=True), f"{what} differs:\n{a}\n{b}"
    assert same_bits(a, b), f"{what} differs in its bits:\n{a!r}\n{b!r}"


def oracle_actions(env_id: str, observations, kwargs) -> np.ndarray:
    oracle = arm_oracle(envsuite.make(env_id, **kwargs))
    if isinstance(observations, dict):
        rows = [{k: v[i] for k, v in observations.items()} for i in range(N)]
    else:
        rows = list(observations)
    return np.stack([oracle.act(row, {}) for row in rows])


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"terminate_on_success": True},
        {"observation_mode": "goal_dict", "reward_type": "sparse"},
    ],
    ids=["default", "terminate", "goal_dict"],
)
@pytest.mark.parametrize("env_id", list(CLASSES))
def test_bit_identical_to_sync_vector_env_through_autoresets(env_id: str, kwargs: dict):
    batched, sync = pair(env_id, 40, **kwargs)
    seeds = derive_seeds(17, N, "vector")
    obs, info = batched.reset(seed=seeds)
    obs_sync, info_sync = sync.reset(seed=seeds)
    assert_same(obs, obs_sync, "reset observation")
    assert_same(info, info_sync, "reset info")
    rng = np.random.default_rng(0)
    ended = 0
    for t in range(130):
        # Oracle actions (so episodes succeed and terminate), some random and malformed rows.
        actions = oracle_actions(env_id, obs, kwargs).astype(np.float64)
        noisy = rng.random(N) < 0.3
        actions[noisy] = rng.uniform(-1.5, 1.5, (int(noisy.sum()), 4))
        if t % 9 == 4:
            actions[t % N, 1] = np.nan
        if t % 3 == 1:
            actions = actions.astype(np.float32)  # what the oracle and the space give
        elif t % 7 == 2:
            actions = np.rint(actions).astype(np.int64)
        out = batched.step(actions)
        out_sync = sync.step(actions)
        for name, a, b in zip(
            ("obs", "reward", "terminated", "truncated", "info"), out, out_sync, strict=True
        ):
            assert_same(a, b, f"step {t} {name}")
        obs = out[0]
        ended += int(out[2].sum() + out[3].sum())
    assert ended >= N  # every sub-env went through at least one autoreset
    if kwargs.get("terminate_on_success"):
        assert batched.elapsed.max() < 40


def edge_actions() -> list[np.ndarray]:
    """Batches whose finiteness the common step must judge as the single env does."""
    rng = np.random.default_rng(5)
    batches = []
    for bad in (np.inf, -np.inf, np.nan):
        actions = rng.uniform(-1.2, 1.2, (N, 4))
        actions[1, 2] = bad
        batches.append(actions)
    both = rng.uniform(-1, 1, (N, 4))
    both[0, 0], both[2, 3] = np.inf, -np.inf  # their sum is NaN, their product with 0 too
    batches.append(both)
    huge = np.full((N, 4), np.finfo(np.float32).max, dtype=np.float32)  # a sum overflows
    huge[1] *= -1
    batches.append(huge)
    batches.append(rng.uniform(-2, 2, (N, 4)).astype(np.float16))
    batches.append(np.array([[127, -128, 0, 1]] * N, dtype=np.int8))
    batches.append(np.array([[2**64 - 1, 0, 1, 2**63]] * N, dtype=np.uint64))
    batches.append(np.array([[-(2**63), 2**63 - 1, 0, -1]] * N, dtype=np.int64))
    wide = np.zeros((N, 4), dtype=np.longdouble)  # beyond float64 where long doubles are
    wide[0, 1] = np.longdouble(np.finfo(np.float64).max) * 4
    wide[1] = 0.5
    batches.append(wide)
    batches.append(np.asfortranarray(rng.uniform(-1, 1, (N, 4))))  # strided rows
    return batches


class LongWay(np.ndarray):
    """An array the batched env does not take as a plain one: its rows are parsed one by one."""


def test_the_common_step_judges_extreme_actions_as_the_parsed_way_does():
    """Infinities, NaN, overflowing sums and every dtype: the fast path's finiteness test
    and widening against the row-by-row parse (which the sync test holds to the single
    env), bit for bit, with no warning from either."""
    envs = [ArmPushBatchedVectorEnv(N, max_episode_steps=200, nthread=1) for _ in range(2)]
    for env in envs:
        env.reset(seed=derive_seeds(4, N, "vector"))
    errors = []
    with np.errstate(over="ignore"):  # the long double's cast to float64 overflows
        for t, actions in enumerate(edge_actions() * 2):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                fast = envs[0].step(actions)
            parsed = envs[1].step(actions.view(LongWay))
            for name, a, b in zip(
                ("obs", "reward", "terminated", "truncated", "info"), fast, parsed, strict=True
            ):
                assert_same(a, b, f"step {t} ({actions.dtype}) {name}")
            errors.append([e is not None for e in fast[4]["parse_error"]])
    assert errors[:4] == [[False, True, False, False]] * 3 + [[True, False, True, False]]
    assert errors[9] == [True, False, False, False]  # the long double beyond float64
    assert not any(any(row) for row in errors[4:9] + errors[10:11])


def test_extreme_actions_give_the_sync_vector_env_observations_and_errors():
    batched, sync = pair("envsuite/ArmPush-v0", 200)
    seeds = derive_seeds(4, N, "vector")
    batched.reset(seed=seeds)
    sync.reset(seed=seeds)
    with np.errstate(over="ignore"):
        for t, actions in enumerate(edge_actions()):
            out, out_sync = batched.step(actions), sync.step(actions)
            assert_same(out[0], out_sync[0], f"step {t} ({actions.dtype}) obs")
            assert_same(out[4]["parse_error"], out_sync[4]["parse_error"], f"step {t} parse_error")


def test_success_on_the_last_step_both_terminates_and_truncates_as_time_limit_does():
    """Zero actions, then the oracle, tuned so that the first success lands on the limit."""
    kwargs = {"terminate_on_success": True}
    limit = 25
    # How many steps the oracle needs from the start, per env (the same seeds each time).
    seeds = derive_seeds(3, N, "vector")
    probe, _ = pair("envsuite/ArmReach-v0", 10_000, **kwargs)
    obs, _ = probe.reset(seed=seeds)
    needed = np.full(N, -1)
    for t in range(200):
        out = probe.step(oracle_actions("envsuite/ArmReach-v0", obs, kwargs))
        obs = out[0]
        needed[(needed < 0) & out[2]] = t + 1
    assert (needed > 0).all() and needed.max() < limit
    batched, sync = pair("envsuite/ArmReach-v0", limit, **kwargs)
    obs, _ = batched.reset(seed=seeds)
    obs_sync, _ = sync.reset(seed=seeds)
    assert_same(obs, obs_sync, "reset observation")
    idle = limit - needed  # steps of zero actions first, so success comes at the limit
    for t in range(limit):
        actions = oracle_actions("envsuite/ArmReach-v0", obs, kwargs)
        actions[t < idle] = 0.0
        out, out_sync = batched.step(actions), sync.step(actions)
        for name, a, b in zip(
            ("obs", "reward", "terminated", "truncated", "info"), out, out_sync, strict=True
        ):
            assert_same(a, b, f"step {t} {name}")
        obs = out[0]
    assert out[3].all()  # the limit truncated every env ...
    assert out[2].any()  # ... and some of them succeeded on that very step


def test_spaces_match_the_single_env():
    env = envsuite.make("envsuite/ArmPush-v0")
    batched = ArmPushBatchedVectorEnv(3, max_episode_steps=200)
    assert batched.single_observation_space == env.observation_space
    assert batched.single_action_space == env.action_space
    obs, _ = batched.reset(seed=0)
    assert batched.observation_space.contains(obs)
    assert obs.shape == (3, 26) and obs.dtype == np.float32


def test_an_int_seed_derives_the_per_env_seeds_as_make_vec_does():
    batched = ArmReachBatchedVectorEnv(N, max_episode_steps=200)
    sync = DerivedSeedVectorEnv(
        gymnasium.vector.SyncVectorEnv([lambda: envsuite.make("envsuite/ArmReach-v0")] * N)
    )
    a, _ = batched.reset(seed=5)
    b, _ = sync.reset(seed=5)
    assert a.tobytes() == b.tobytes()
    assert len({row.tobytes() for row in a}) == N  # not the same episode N times
    c, _ = batched.reset(seed=6)
    assert not np.array_equal(a[1:], c[:-1])  # no seed + index overlap between runs


def test_thread_count_does_not_change_the_results():
    results = []
    for nthread in (1, 2):
        env = ArmPickPlaceBatchedVectorEnv(6, max_episode_steps=30, nthread=nthread)
        obs, _ = env.reset(seed=3)
        rng = np.random.default_rng(1)
        trace = [obs.tobytes()]
        for _ in range(50):
            obs, reward, *_ = env.step(rng.uniform(-1, 1, (6, 4)))
            trace += [obs.tobytes(), reward.tobytes()]
        results.append(trace)
    assert results[0] == results[1]


def test_reset_mask_resets_only_the_masked_envs():
    env = ArmPushBatchedVectorEnv(3, max_episode_steps=200)
    first, _ = env.reset(seed=[1, 2, 3])
    for _ in range(5):
        moved, *_ = env.step(np.tile([1.0, 0.0, -1.0, 1.0], (3, 1)))
    again, info = env.reset(
        seed=[1, None, None], options={"reset_mask": np.array([True, False, False])}
    )
    assert again[0].tobytes() == first[0].tobytes()
    assert info["_success"].tolist() == [True, False, False]
    assert again[1].tobytes() == moved[1].tobytes() and again[2].tobytes() == moved[2].tobytes()


@pytest.mark.parametrize("actions", [np.zeros((N, 3)), "left", None, np.zeros((N + 1, 4))])
def test_malformed_batches_never_raise_and_cost_every_env_the_penalty(actions):
    env = ArmReachBatchedVectorEnv(N, max_episode_steps=200)
    env.reset(seed=0)
    baseline = ArmReachBatchedVectorEnv(N, max_episode_steps=200)
    baseline.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(actions)
    obs2, reward2, *_ = baseline.step(np.tile([0.0, 0.0, 0.0, -1.0], (N, 1)))
    assert obs.tobytes() == obs2.tobytes()
    np.testing.assert_allclose(reward, reward2 - 1.0)
    assert all(isinstance(e, str) and e for e in info["parse_error"])
    assert not terminated.any() and not truncated.any()


def test_render_mode_is_refused():
    with pytest.raises(ValueError, match="render"):
        ArmReachBatchedVectorEnv(2, render_mode="rgb_array")


@pytest.mark.parametrize(
    ("load", "cores", "expected"),
    [(0.2, 2, 2), (1.0, 2, 2), (2.0, 2, 1), (14.0, 2, 1), (2.6, 8, 6), (1.0, 1, 1)],
)
def test_free_cores_follow_the_load(
    monkeypatch: pytest.MonkeyPatch, load: float, cores: int, expected: int
) -> None:
    monkeypatch.setattr(batched.os, "sched_getaffinity", lambda _: set(range(cores)))
    monkeypatch.setattr(batched.os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(batched, "idle_cores", lambda cpus: None)  # no /proc/stat
    assert batched.free_cores() == expected


@pytest.mark.parametrize(("idle", "expected"), [(1.98, 2), (1.8, 2), (1.6, 1), (1.0, 1), (0.1, 1)])
def test_free_cores_follow_the_cores_idle_now(
    monkeypatch: pytest.MonkeyPatch, idle: float, expected: int
) -> None:
    """A machine that just got busy: the load average still says idle, /proc/stat not."""
    monkeypatch.setattr(batched.os, "sched_getaffinity", lambda _: {0, 1})
    monkeypatch.setattr(batched.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    monkeypatch.setattr(batched, "idle_cores", lambda cpus: idle)
    assert batched.free_cores() == expected


def test_idle_cores_reads_the_usable_cpus_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = iter(
        [
            {0: (100, 1000), 1: (50, 1000), 2: (0, 1000)},
            {0: (190, 1100), 1: (60, 1100), 2: (0, 1100)},
        ]
    )
    monkeypatch.setattr(batched, "_cpu_times", lambda cpus: next(samples))
    idle = batched.idle_cores({0, 1, 2}, seconds=0.0)
    assert idle == pytest.approx(0.9 + 0.1 + 0.0)
    monkeypatch.undo()
    if os.path.exists("/proc/stat"):
        real = batched._cpu_times(set(os.sched_getaffinity(0)))
        assert real and all(total >= idle for idle, total in real.values())


def test_free_cores_without_a_load_average(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr(batched.os, "sched_getaffinity", lambda _: {0, 1, 2})
    monkeypatch.setattr(batched.os, "getloadavg", unknown)
    monkeypatch.setattr(batched, "idle_cores", lambda cpus: None)
    assert batched.free_cores() == 3


def test_default_thread_count_is_the_free_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batched, "free_cores", lambda: 2)
    assert ArmPushBatchedVectorEnv(4).nthread == 2
    assert ArmPushBatchedVectorEnv(1).nthread == 1  # never more threads than simulations
    assert ArmPushBatchedVectorEnv(4, nthread=1).nthread == 1
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="nthread"):
            ArmPushBatchedVectorEnv(4, nthread=bad)
