"""The batched drone vector env gives what SyncVectorEnv over single ``dyn`` envs gives.

Same seeds and actions: the same observations, rewards, terminations, truncations and
infos (a float to within rounding, 1e-9 of float64 values; everything else equal), and the
drones' states agree to 1e-9, over hundreds of steps through autoresets, with domain
randomisation and wind on, and malformed rows.
"""

from __future__ import annotations

import math
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envsuite
from envsuite.families.physics.drone.batch_env import (
    DroneBatchedVectorEnv,
    DroneGateBatchedVectorEnv,
    DroneHoverBatchedVectorEnv,
    DroneWaypointsBatchedVectorEnv,
)
from envsuite.families.physics.drone.oracle import drone_oracle
from envsuite.seeding import derive_seeds
from envsuite.vector import DerivedSeedVectorEnv
from tests.families.physics.drone import flights  # noqa: F401  (skips without PyBullet)

CLASSES = {
    "envsuite/DroneHover-v0": DroneHoverBatchedVectorEnv,
    "envsuite/DroneWaypoints-v0": DroneWaypointsBatchedVectorEnv,
    "envsuite/DroneGate-v0": DroneGateBatchedVectorEnv,
}
N = 5


def assert_close(a: Any, b: Any, where: str) -> None:
    """Equal structure, types and dtypes; floats within 1e-9 (float32 within its rounding)."""
    assert type(a) is type(b), f"{where}: {type(a)} != {type(b)}"
    if isinstance(a, dict):
        assert a.keys() == b.keys(), f"{where}: keys {sorted(a)} != {sorted(b)}"
        for key in a:
            assert_close(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, np.ndarray):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), f"{where}: {a.dtype}{a.shape}"
        if a.dtype == object:
            for x, y in zip(a.tolist(), b.tolist(), strict=True):
                assert_close(x, y, where)
        elif a.dtype.kind == "f":
            tolerance = 2e-6 if a.dtype == np.float32 else 1e-9
            np.testing.assert_allclose(a, b, rtol=tolerance, atol=tolerance, err_msg=where)
        else:
            np.testing.assert_array_equal(a, b, err_msg=where)
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for x, y in zip(a, b, strict=True):
            assert_close(x, y, where)
    elif isinstance(a, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), f"{where}: {a} != {b}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def pair(env_id: str, **kwargs: Any) -> tuple[DroneBatchedVectorEnv, gymnasium.vector.VectorEnv]:
    batched = CLASSES[env_id](N, **kwargs)
    single = {"physics": "dyn", **kwargs}
    sync = gymnasium.vector.SyncVectorEnv([lambda: envsuite.make(env_id, **single)] * N)
    return batched, sync


def assert_same_states(batched: DroneBatchedVectorEnv, sync: Any, where: str) -> None:
    position, quaternion, velocity, rates = batched.drone_states()
    for i, env in enumerate(sync.envs):
        single = env.unwrapped.dynamics
        for name, ours, theirs in (
            ("position", position[i], single.explicit.position[0]),
            ("quaternion", quaternion[i], single.explicit.quaternion[0]),
            ("velocity", velocity[i], single.explicit.velocity[0]),
            ("body rates", rates[i], single.body_rates[0]),
        ):
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9, err_msg=f"{where} {name}")


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("envsuite/DroneHover-v0", {"episode_len_sec": 2.0}),
        ("envsuite/DroneHover-v0", {"episode_len_sec": 1.5, "physics": "dyn_gnd_drag_dw",
                                    "action_buffer": 2, "action_type": "one_d_rpm"}),
        ("envsuite/DroneWaypoints-v0", {"num_waypoints": 2, "hold_sec": 0.2}),
        ("envsuite/DroneGate-v0", {"num_gates": 2, "episode_len_sec": 6.0}),
    ],
    ids=["hover", "hover-effects-1d", "waypoints", "gate"],
)  # fmt: skip
def test_matches_sync_vector_env_of_single_dyn_envs(env_id: str, kwargs: dict) -> None:
    kwargs = {"domain_randomization": True, "wind": True, **kwargs}
    batched, sync = pair(env_id, **kwargs)
    seeds = derive_seeds(11, N, "vector")
    observations, info = batched.reset(seed=seeds)
    expected = sync.reset(seed=seeds)
    assert_close(observations, expected[0], "reset observation")
    assert_close(info, expected[1], "reset info")
    oracles = [drone_oracle(env) for env in sync.envs]
    rng = np.random.default_rng(0)
    ends = crashes = 0
    for t in range(330):
        # The oracle flies (so gates are passed and waypoints reached), with noisy rows
        # (crashes), NaN rows, out-of-range values, float32 and integer arrays.
        actions = np.stack([oracle.act(None, {}) for oracle in oracles]).astype(np.float64)
        noisy = rng.random(N) < 0.15
        actions[noisy] += rng.normal(0.0, 0.8, (int(noisy.sum()), actions.shape[1]))
        if t % 29 == 7:
            actions = np.rint(actions).astype(np.int64)
        elif t % 11 == 3:
            actions[t % N, 0] = np.nan
        if t % 3 == 1:
            actions = actions.astype(np.float32)
        out = batched.step(actions)
        out_sync = sync.step(actions)
        for name, ours, theirs in zip(
            ("observation", "reward", "terminated", "truncated", "info"), out, out_sync, strict=True
        ):
            assert_close(ours, theirs, f"step {t} {name}")
        assert_same_states(batched, sync, f"step {t}")
        done = out[2] | out[3]
        ends += int(done.sum())
        if "crash" in out[4]:
            crashes += sum(reason is not None for reason in out[4]["crash"][out[4]["_crash"]])
        for i in np.flatnonzero(done).tolist():
            oracles[i].reset()
    assert ends >= 2 * N  # every env went through autoresets
    if kwargs.get("action_type") != "one_d_rpm":  # thrust alone keeps the drones level
        assert crashes >= 1


def test_engine_matches_flight_dynamics_of_a_swarm_with_downwash_and_wind() -> None:
    """Two groups of three drones against two 3-drone single-env engines (``dw`` acts)."""
    from envsuite.families.physics.drone.batch_dynamics import BatchDynamics
    from envsuite.families.physics.drone.dynamics import FlightDynamics
    from envsuite.families.physics.drone.models import get_model
    from envsuite.families.physics.drone.randomization import (
        RandomizationConfig,
        sample_parameters,
    )
    from envsuite.families.physics.drone.wind import WindConfig
    from envsuite.families.physics.drone.world import DroneWorld
    from envsuite.seeding import make_generator

    model = get_model("cf2x")
    physics, wind = "dyn_gnd_drag_dw", WindConfig(max_speed=2.0, gust_std=0.5)
    singles = []
    batch = BatchDynamics(model, 6, physics, 240, 30, wind, group_size=3)
    no_downwash = BatchDynamics(model, 6, "dyn_gnd_drag", 240, 30, wind, group_size=3)
    for group in range(2):
        single = FlightDynamics(DroneWorld(model, 3, 240), physics, 30, wind)
        parameters = sample_parameters(
            model, RandomizationConfig(), 3, make_generator(group, "parameters")
        )
        single.set_parameters(parameters)
        # Stacked drones 0.3 m apart: the lower ones sit in the upper ones' downwash.
        positions = np.array([[0.0, 0.0, 1.0], [0.02, 0.0, 1.3], [0.0, 0.03, 1.6]]) + group
        quaternions = np.tile([0.0, 0.0, 0.0, 1.0], (3, 1))
        single.start(positions, quaternions)
        single.wind.reset(make_generator(group, "wind"))
        ids = np.arange(3) + 3 * group
        for engine in (batch, no_downwash):
            engine.set_parameters(ids, parameters)
            engine.start(ids, positions, quaternions)
            assert engine.wind is not None
            for drone in ids.tolist():
                engine.wind.reset(drone, make_generator(group, "wind"))
        singles.append(single)
    # Every drone of a group shares one air mass in the single env: same draws here.
    rng = np.random.default_rng(3)
    sank = np.zeros(6)
    for step in range(90):
        rpm = model.hover_rpm * (1.0 + rng.normal(0.0, 0.003, (6, 4)))
        batch.advance(rpm.T.copy())
        no_downwash.advance(rpm.T.copy())
        if step == 9:  # a third of a second in, every drone still near its start
            sank = no_downwash.position[2] - batch.position[2]
        for group, single in enumerate(singles):
            single.advance(rpm[3 * group : 3 * group + 3].copy())
            rows = slice(3 * group, 3 * group + 3)
            state = single.explicit
            np.testing.assert_allclose(batch.position.T[rows], state.position, atol=1e-9)
            np.testing.assert_allclose(batch.velocity.T[rows], state.velocity, atol=1e-9)
            np.testing.assert_allclose(batch.quaternion.T[rows], state.quaternion, atol=1e-9)
            np.testing.assert_allclose(batch.body_rates.T[rows], single.body_rates, atol=1e-9)
    # The downwash pushed the lower drones of each stack down (and the top ones not at all).
    assert (sank[[0, 1, 3, 4]] > 1e-4).all()
    np.testing.assert_allclose(sank[[2, 5]], 0.0, atol=1e-12)
    for single in singles:
        single.close()


def test_make_vec_builds_it_with_next_step_autoreset_and_derived_seeds() -> None:
    env = envsuite.make_vec("envsuite/DroneHover-v0", 3, vectorization_mode="vector_entry_point")
    assert isinstance(env, DerivedSeedVectorEnv)
    native = env.unwrapped
    assert isinstance(native, DroneHoverBatchedVectorEnv)
    assert native.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.observation_space.shape == (3, 19)
    assert env.action_space.shape == (3, 4)
    observations, _ = env.reset(seed=4)
    again, _ = native.reset(seed=derive_seeds(4, 3, "vector"))
    np.testing.assert_array_equal(observations, again)
    assert observations.dtype == np.float32 and observations.shape == (3, 19)
    # Resetting some envs leaves the others where they are.
    env.step(np.zeros((3, 4)))
    before = native.drone_states()[0]
    env.reset(options={"reset_mask": np.array([True, False, False])})
    after = native.drone_states()[0]
    np.testing.assert_array_equal(before[1:], after[1:])
    env.close()


def test_an_ended_episode_restarts_on_the_next_step_with_its_reset_info() -> None:
    env = DroneHoverBatchedVectorEnv(2, episode_len_sec=0.1, hold_sec=0.1)  # 3 steps
    env.reset(seed=[1, 2])
    for _ in range(3):
        _, reward, terminated, truncated, info = env.step(np.zeros((2, 4)))
    assert truncated.all() and not terminated.any()
    assert info["_success"].all() and info["_score"].all() and info["_crash"].all()
    _, reward, terminated, truncated, info = env.step(np.ones((2, 4)))
    assert (reward == 0.0).all() and not (terminated | truncated).any()
    assert info["_target"].all() and "distance" not in info
    assert (env.steps == 0).all()


def test_malformed_rows_and_batches_cost_the_documented_penalty() -> None:
    env = DroneHoverBatchedVectorEnv(3)
    env.reset(seed=[5, 6, 7])
    actions = np.zeros((3, 4))
    actions[1, 2] = np.inf
    _, reward, _, _, info = env.step(actions)
    assert info["parse_error"].tolist() == [None, "the action holds NaN or infinite values", None]
    distance = info["distance"]
    np.testing.assert_allclose(reward, np.exp(-4.0 * distance) - [0.0, 1.0, 0.0], atol=1e-12)
    for bad in (np.zeros((3, 5)), np.zeros((2, 4)), "up", None, [[object()] * 4] * 3):
        _, reward, _, _, info = env.step(bad)
        assert all("expected numeric actions of shape (3, 4)" in e for e in info["parse_error"])
        assert (reward < 0.0).all()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"physics": "pyb"}, "physics must be 'dyn'"),
        ({"action_type": "pid"}, "flies 'rpm' and 'one_d_rpm' actions"),
        ({"observation_type": "rgb"}, "observes 'kin' vectors"),
        ({"render_mode": "rgb_array"}, "does not render"),
        ({"ctrl_freq": 7}, "multiple of ctrl_freq"),
    ],
)
def test_refuses_what_it_cannot_run(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        DroneHoverBatchedVectorEnv(2, **kwargs)
