"""Observations: declared bounds that hold, clipping only as a safety net, one layout."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import mujoco

import envsuite
from envsuite.families.physics.arm import model, observation
from envsuite.families.physics.arm.base_env import TCP_SITE
from envsuite.families.physics.arm.observation import SLICES
from envsuite.testing.rollout import ActionChooser, MixedPolicy

IDS = ["envsuite/ArmReach-v0", "envsuite/ArmPush-v0", "envsuite/ArmPickPlace-v0"]


def unclipped(env) -> np.ndarray:
    """The observation's values before clipping, computed from MuJoCo's state."""
    raw = env.unwrapped
    d = raw.data
    tcp = d.site_xpos[TCP_SITE]
    values = np.concatenate(
        [
            tcp,
            (tcp - raw.previous_tcp) / raw.control_dt,
            [d.qpos[12] + d.qpos[13]],
            d.qpos[0:7],
            d.qvel[0:6],
            d.qpos[0:3] - tcp,
            raw.goal,
        ]
    )
    return values


def test_the_layout_names_every_entry_once():
    assert observation.SIZE == 26
    covered = np.zeros(observation.SIZE, dtype=int)
    for name, size in observation.FIELDS:
        covered[SLICES[name]] += 1
        assert SLICES[name].stop - SLICES[name].start == size
    assert covered.tolist() == [1] * observation.SIZE
    low, high = observation.bounds(True)
    assert np.all(low < high)
    hidden_low, hidden_high = observation.bounds(False)
    assert np.all(hidden_low[SLICES["goal"]] <= 0) and np.all(hidden_high[SLICES["goal"]] >= 0)


@pytest.mark.parametrize("env_id", IDS)
def test_normal_play_stays_inside_the_bounds_unclipped(env_id: str):
    """The bounds are not a lie covered by clipping: nothing reaches them in play."""
    env = envsuite.make(env_id)
    spec = envsuite.spec(env_id)
    low, high = observation.bounds(True)
    for seed in range(4):
        policy = MixedPolicy(spec, env, ActionChooser(seed), oracle_share=0.5 if seed else 1.0)
        policy.reset(seed)
        obs, info = env.reset(seed=seed)
        for _ in range(env.spec.max_episode_steps):
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
            values = unclipped(env)
            assert np.all(values >= low) and np.all(values <= high), values
            np.testing.assert_array_equal(obs, values.astype(np.float32))
            if terminated or truncated:
                break


def test_clipping_keeps_a_runaway_cube_inside_the_space():
    env = envsuite.make("envsuite/ArmPush-v0")
    env.reset(seed=0)
    d = env.unwrapped.data
    d.qpos[0:3] = [3.0, -2.0, 0.02]
    d.qvel[0:6] = [40.0, 0.0, 0.0, 0.0, 0.0, 500.0]
    obs, *_ = env.step(np.zeros(4))
    assert env.observation_space.contains(obs)
    low, high = observation.bounds(True)
    assert obs[SLICES["cube_pos"]][0] == np.float32(high[SLICES["cube_pos"]][0])
    assert obs[SLICES["cube_pos"]][1] == np.float32(low[SLICES["cube_pos"]][1])


def test_single_and_batched_writers_give_the_same_bits():
    rng = np.random.default_rng(0)
    n = 64
    low, high = observation.bounds(True)
    tcp = rng.uniform(0.0, 0.8, (n, 3))
    previous = tcp + rng.normal(0.0, 0.05, (n, 3))  # some speeds beyond the bound
    qpos = rng.normal(0.3, 0.5, (n, 14))
    qvel = rng.normal(0.0, 10.0, (n, 13))
    goal = rng.uniform(0.0, 0.5, (n, 3))
    rows = observation.observation_rows(tcp, previous, qpos, qvel, goal, 0.02, low, high)
    for i in range(n):
        one = observation.observation_row(
            tcp[i].tolist(), previous[i].tolist(), qpos[i].tolist(), qvel[i].tolist(),
            goal[i].tolist(), 0.02, low, high,
        )  # fmt: skip
        assert one.tobytes() == rows[i].tobytes()
    assert (rows == low.astype(np.float32)).any() and (rows == high.astype(np.float32)).any()


def test_goal_dict_mode_splits_the_same_numbers_with_unrounded_goals():
    vector = envsuite.make("envsuite/ArmPickPlace-v0")
    goal_dict = envsuite.make("envsuite/ArmPickPlace-v0", observation_mode="goal_dict")
    a, _ = vector.reset(seed=3)
    b, _ = goal_dict.reset(seed=3)
    for _ in range(10):
        a, *_ = vector.step(np.array([0.1, 0.2, -0.3, 1.0]))
        b, *_ = goal_dict.step(np.array([0.1, 0.2, -0.3, 1.0]))
    assert goal_dict.observation_space.contains(b)
    np.testing.assert_array_equal(b["observation"], a[: observation.STATE_SIZE])
    # The goals are the simulator's float64 numbers (compute_reward needs them exactly).
    assert b["achieved_goal"].dtype == b["desired_goal"].dtype == np.float64
    np.testing.assert_array_equal(b["achieved_goal"], goal_dict.unwrapped.data.qpos[0:3])
    np.testing.assert_array_equal(b["desired_goal"], goal_dict.unwrapped.goal)
    np.testing.assert_array_equal(b["achieved_goal"].astype(np.float32), a[SLICES["cube_pos"]])
    np.testing.assert_array_equal(b["desired_goal"].astype(np.float32), a[SLICES["goal"]])
    reach = envsuite.make("envsuite/ArmReach-v0", observation_mode="goal_dict")
    c, _ = reach.reset(seed=3)
    tcp = c["achieved_goal"].astype(np.float32)
    np.testing.assert_array_equal(tcp, c["observation"][SLICES["tcp_pos"]])


def test_the_cube_quaternion_is_reported_as_simulated():
    env = envsuite.make("envsuite/ArmPush-v0")
    env.reset(seed=0)
    d = env.unwrapped.data
    quat = np.array([np.cos(0.3), 0.0, 0.0, np.sin(0.3)])
    d.qpos[3:7] = quat
    mujoco.mj_forward(env.unwrapped.model, d)
    obs, *_ = env.step(np.zeros(4))
    np.testing.assert_allclose(obs[SLICES["cube_quat"]], d.qpos[3:7], atol=1e-6)
    assert obs[SLICES["cube_pos"]][2] == pytest.approx(model.CUBE_HALF, abs=2e-3)
