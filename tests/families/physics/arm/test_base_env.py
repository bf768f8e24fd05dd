"""The arm envs' contract: seeds, real physics stepping, actions, rewards, termination."""

from __future__ import annotations

import os
import pickle
import time

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import mujoco

import envsuite
from envsuite.families.physics.arm import model
from envsuite.families.physics.arm.base_env import TCP_SITE
from envsuite.families.physics.arm.batched_vector_env import (
    ArmPickPlaceBatchedVectorEnv,
    ArmPushBatchedVectorEnv,
    ArmReachBatchedVectorEnv,
)
from envsuite.families.physics.arm.observation import SLICES
from envsuite.families.physics.arm.pick_place import ArmPickPlaceEnv
from envsuite.families.physics.arm.push import ArmPushEnv
from envsuite.families.physics.arm.reach import ArmReachEnv
from envsuite.families.physics.arm.scripted_oracle import arm_oracle

IDS = ["envsuite/ArmReach-v0", "envsuite/ArmPush-v0", "envsuite/ArmPickPlace-v0"]
BATCHED = [ArmReachBatchedVectorEnv, ArmPushBatchedVectorEnv, ArmPickPlaceBatchedVectorEnv]


def rollout(env, seed: int, steps: int, actions_seed: int = 0) -> list[bytes]:
    rng = np.random.default_rng(actions_seed)
    obs, info = env.reset(seed=seed)
    trace = [obs.tobytes(), repr(info).encode()]
    for _ in range(steps):
        obs, reward, _, _, info = env.step(rng.uniform(-1, 1, 4))
        trace += [obs.tobytes(), np.float64(reward).tobytes(), repr(info).encode()]
    return trace


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_same_actions_give_identical_bytes(env_id: str):
    assert rollout(envsuite.make(env_id), 3, 40) == rollout(envsuite.make(env_id), 3, 40)
    assert rollout(envsuite.make(env_id), 3, 5) != rollout(envsuite.make(env_id), 4, 5)


@pytest.mark.parametrize("env_id", IDS)
def test_the_seed_draws_the_goal_and_the_cube(env_id: str):
    env = envsuite.make(env_id)
    layouts = set()
    for seed in range(10):
        obs, _ = env.reset(seed=seed)
        layouts.add((obs[SLICES["goal"]].tobytes(), obs[SLICES["cube_pos"]].tobytes()))
        np.testing.assert_allclose(env.unwrapped.data.mocap_pos[1], env.unwrapped.goal)
    assert len(layouts) == 10


def test_a_step_is_frame_skip_mj_steps_of_the_same_model():
    env = envsuite.make("envsuite/ArmPickPlace-v0", frame_skip=7)
    env.reset(seed=0)
    raw = env.unwrapped
    m, d = raw.model, mujoco.MjData(raw.model)
    mujoco.mj_copyData(d, m, raw.data)
    action = np.array([0.5, -0.3, -0.8, 1.0])
    env.step(action)
    d.mocap_pos[0] = np.array(model.HOME_TCP) + action[:3] * 0.02 + [0, 0, model.WRIST_TO_TCP]
    d.ctrl[0] = 0.0
    mujoco.mj_step(m, d, 7)
    assert raw.data.time == pytest.approx(7 * model.TIMESTEP)
    assert raw.data.qpos.tobytes() == d.qpos.tobytes()
    assert raw.data.qvel.tobytes() == d.qvel.tobytes()


def test_observation_reports_the_state_it_reached():
    env = envsuite.make("envsuite/ArmPush-v0")
    env.reset(seed=1)
    for _ in range(5):
        obs, *_ = env.step(np.array([1.0, 0.0, -1.0, 0.0]))
    d = env.unwrapped.data
    fresh = mujoco.MjData(env.unwrapped.model)
    fresh.qpos[:] = d.qpos
    fresh.mocap_pos[:] = d.mocap_pos
    mujoco.mj_kinematics(env.unwrapped.model, fresh)
    np.testing.assert_array_equal(
        obs[SLICES["tcp_pos"]], fresh.site_xpos[TCP_SITE].astype(np.float32)
    )
    np.testing.assert_array_equal(obs[SLICES["cube_pos"]], d.qpos[0:3].astype(np.float32))


def test_actions_move_the_hand_and_close_the_gripper():
    env = envsuite.make("envsuite/ArmReach-v0")
    obs, _ = env.reset(seed=0)
    start = obs[SLICES["tcp_pos"]].copy()
    for _ in range(10):
        obs, *_ = env.step(np.array([0.0, 1.0, 0.0, 1.0]))
    assert obs[SLICES["tcp_vel"]][1] == pytest.approx(1.0, abs=0.1)  # 2 cm per 20 ms
    assert obs[SLICES["gripper_gap"]][0] < 0.005  # closed on nothing
    for _ in range(10):
        obs, *_ = env.step(np.array([0.0, 0.0, 0.0, -1.0]))
    moved = obs[SLICES["tcp_pos"]] - start
    assert moved[1] == pytest.approx(0.2, abs=0.003)  # the hand caught up with the target
    assert abs(moved[0]) < 0.003 and abs(moved[2]) < 0.003
    assert 0.07 < obs[SLICES["gripper_gap"]][0] <= model.MAX_GRIPPER_GAP


def test_out_of_range_actions_are_clipped_not_penalised():
    a, b = envsuite.make("envsuite/ArmReach-v0"), envsuite.make("envsuite/ArmReach-v0")
    a.reset(seed=0)
    b.reset(seed=0)
    big = a.step(np.array([5.0, -7.0, 3.0, 9.0]))
    clipped = b.step(np.array([1.0, -1.0, 1.0, 1.0]))
    assert big[0].tobytes() == clipped[0].tobytes() and big[1] == clipped[1]
    assert big[4]["parse_error"] is None


@pytest.mark.parametrize(
    "action",
    [np.array([np.nan, 0, 0, 0]), np.array([0, 0, np.inf, 0]), np.zeros(3), "up", None, [1, 2]],
    ids=["nan", "inf", "short", "text", "none", "short-list"],
)
def test_malformed_actions_hold_still_and_cost_the_penalty(action):
    env = envsuite.make("envsuite/ArmPush-v0", invalid_action_penalty=0.5)
    twin = envsuite.make("envsuite/ArmPush-v0", invalid_action_penalty=0.5)
    env.reset(seed=2)
    twin.reset(seed=2)
    env.step(np.array([1.0, 1.0, -1.0, 1.0]))
    twin.step(np.array([1.0, 1.0, -1.0, 1.0]))
    obs, reward, terminated, truncated, info = env.step(action)
    # The same as repeating nothing: target and grip unchanged, physics still advances.
    obs2, reward2, *_ = twin.step(np.array([0.0, 0.0, 0.0, 1.0]))
    assert obs.tobytes() == obs2.tobytes()
    assert reward == pytest.approx(reward2 - 0.5)
    assert isinstance(info["parse_error"], str) and info["parse_error"]
    assert not terminated and not truncated


@pytest.mark.parametrize("env_id", IDS)
def test_terminate_on_success_ends_the_episode_at_the_first_success(env_id: str):
    env = envsuite.make(env_id, terminate_on_success=True)
    oracle = arm_oracle(env)
    obs, info = env.reset(seed=5)
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(oracle.act(obs, info))
        steps += 1
        if terminated or truncated:
            break
        assert not info["success"]
    assert terminated and info["success"] and reward == 1.0
    assert steps < env.spec.max_episode_steps


@pytest.mark.parametrize("env_id", IDS)
def test_without_terminate_on_success_the_episode_runs_to_the_step_limit(env_id: str):
    env = envsuite.make(env_id)
    oracle = arm_oracle(env)
    obs, info = env.reset(seed=5)
    rewards = []
    for _ in range(env.spec.max_episode_steps):
        obs, reward, terminated, truncated, info = env.step(oracle.act(obs, info))
        rewards.append(reward)
        assert not terminated
    assert truncated and info["success"]
    assert rewards[-1] == 1.0 and min(rewards) < 1.0


def test_sparse_reward_is_success_and_compute_reward_relabels():
    env = envsuite.make(
        "envsuite/ArmPickPlace-v0", reward_type="sparse", observation_mode="goal_dict"
    )
    oracle = arm_oracle(env)
    obs, info = env.reset(seed=0)
    seen = set()
    for _ in range(60):
        obs, reward, _, _, info = env.step(oracle.act(obs, info))
        assert reward == float(info["success"])
        relabelled = env.unwrapped.compute_reward(obs["achieved_goal"], obs["desired_goal"], info)
        assert relabelled == reward
        seen.add(reward)
    assert seen == {0.0, 1.0}
    batch = env.unwrapped.compute_reward(
        np.stack([obs["achieved_goal"], obs["achieved_goal"] + 1]),
        np.stack([obs["desired_goal"]] * 2),
        None,
    )
    assert batch.tolist() == [1.0, 0.0]


def test_hidden_goal_shows_zeros_but_the_task_is_the_same():
    shown = envsuite.make("envsuite/ArmReach-v0")
    hidden = envsuite.make("envsuite/ArmReach-v0", goal_observable=False)
    a, info_a = shown.reset(seed=4)
    b, info_b = hidden.reset(seed=4)
    assert not b[SLICES["goal"]].any() and a[SLICES["goal"]].any()
    assert np.array_equal(a[: SLICES["goal"].start], b[: SLICES["goal"].start])
    assert info_a == info_b


def test_a_pickled_env_continues_identically_and_can_render_again():
    env = envsuite.make("envsuite/ArmPickPlace-v0")
    env.reset(seed=8)
    for _ in range(20):
        env.step(np.array([0.3, 0.1, -0.5, 0.2]))
    twin = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        a = env.step(np.array([-0.2, 0.4, 0.1, -1.0]))
        b = twin.step(np.array([-0.2, 0.4, 0.1, -1.0]))
        assert a[0].tobytes() == b[0].tobytes() and a[1] == b[1] and a[4] == b[4]
    assert (
        env.unwrapped.data.qacc_warmstart.tobytes() == twin.unwrapped.data.qacc_warmstart.tobytes()
    )


BAD_ARGUMENTS = [
    ({"frame_skip": 0}, "frame_skip"),
    ({"frame_skip": 1001}, "frame_skip"),
    ({"frame_skip": 10**7}, r"frame_skip must be an int in \[1, 1000\], got 10000000"),
    ({"frame_skip": True}, "frame_skip"),
    ({"frame_skip": 10.0}, "frame_skip"),
    ({"frame_skip": "10"}, "frame_skip"),
    ({"frame_skip": None}, "frame_skip"),
    ({"reward_type": "shaped"}, "reward_type"),
    ({"reward_type": None}, "reward_type"),
    ({"reward_type": ["dense"]}, "reward_type"),
    ({"observation_mode": "pixels"}, "observation_mode"),
    ({"observation_mode": 0}, "observation_mode"),
    ({"observation_mode": "goal_dict", "goal_observable": False}, "goal_dict"),
    ({"goal_observable": "no"}, "goal_observable must be a bool"),
    ({"goal_observable": 1}, "goal_observable"),
    ({"goal_observable": None}, "goal_observable"),
    ({"terminate_on_success": "yes"}, "terminate_on_success must be a bool"),
    ({"terminate_on_success": 0}, "terminate_on_success"),
    ({"action_scale": 1.0}, "action_scale"),
    ({"action_scale": 0.0}, "action_scale"),
    ({"action_scale": None}, "action_scale"),
    ({"action_scale": "0.02"}, "action_scale"),
    ({"action_scale": True}, "action_scale"),
    ({"action_scale": float("nan")}, "action_scale"),
    ({"action_scale": float("inf")}, "action_scale"),
    ({"invalid_action_penalty": "1"}, "invalid_action_penalty"),
    ({"invalid_action_penalty": None}, "invalid_action_penalty"),
    ({"invalid_action_penalty": True}, "invalid_action_penalty"),
    ({"invalid_action_penalty": -1.0}, "invalid_action_penalty"),
    ({"invalid_action_penalty": float("nan")}, "invalid_action_penalty"),
    ({"invalid_action_penalty": float("inf")}, "invalid_action_penalty"),
    ({"render_mode": "human"}, "render_mode"),
    ({"render_mode": True}, "render_mode"),
    ({"width": 0, "height": 0}, "width"),
    ({"width": 641}, r"width must be an int in \[1, 640\] \(the model's offscreen buffer"),
    ({"height": 481}, r"height must be an int in \[1, 480\] \(the model's offscreen buffer"),
    ({"width": -5}, "width"),
    ({"width": "abc"}, "width"),
    ({"width": float("nan")}, "width"),
    ({"width": 160.0}, "width"),
    ({"height": True}, "height"),
    ({"height": None}, "height"),
]


@pytest.mark.parametrize("env_class", [ArmReachEnv, ArmPushEnv, ArmPickPlaceEnv])
@pytest.mark.parametrize(("kwargs", "message"), BAD_ARGUMENTS)
def test_bad_arguments_are_refused_with_their_name(env_class, kwargs, message):
    with pytest.raises(ValueError, match=message):
        env_class(**kwargs)


@pytest.mark.parametrize("env_id", IDS)
def test_make_refuses_bad_arguments_before_any_step(env_id: str):
    with pytest.raises(ValueError, match="frame_skip"):
        envsuite.make(env_id, frame_skip=10**7)
    with pytest.raises(ValueError, match="offscreen buffer"):
        envsuite.make(env_id, render_mode="rgb_array", width=641)


@pytest.mark.parametrize("env_class", BATCHED)
def test_the_batched_vector_env_refuses_bad_arguments_too(env_class):
    with pytest.raises(ValueError, match="frame_skip"):
        env_class(2, frame_skip=10**7)
    with pytest.raises(ValueError, match="invalid_action_penalty"):
        env_class(2, invalid_action_penalty="1")


def test_numpy_arguments_are_accepted_as_python_values():
    env = ArmReachEnv(
        frame_skip=np.int64(5),
        reward_type=np.str_("sparse"),
        goal_observable=np.bool_(False),
        terminate_on_success=np.bool_(True),
        action_scale=np.float32(0.05),
        invalid_action_penalty=np.int32(2),
        width=np.int16(64),
        height=np.uint16(48),
    )
    assert type(env.frame_skip) is int and env.frame_skip == 5
    assert type(env.reward_type) is str and env.reward_type == "sparse"
    assert env.goal_observable is False and env.terminate_on_success is True
    assert type(env.action_scale) is float and env.action_scale == float(np.float32(0.05))
    assert type(env.invalid_action_penalty) is float and env.invalid_action_penalty == 2.0
    assert (env.width, env.height) == (64, 48) and type(env.width) is int


def test_the_bounds_themselves_are_accepted_and_step_quickly():
    env = envsuite.make("envsuite/ArmReach-v0", frame_skip=1000, action_scale=0.1)
    assert env.unwrapped.control_dt == pytest.approx(2.0)
    assert env.metadata["render_fps"] >= 1
    env.reset(seed=0)
    start = time.perf_counter()
    env.step(np.zeros(4))
    assert time.perf_counter() - start < 10.0
    env = ArmReachEnv(frame_skip=1, invalid_action_penalty=0.0, width=640, height=480)
    assert env.unwrapped.frame_skip == 1 and (env.width, env.height) == (640, 480)
    assert ArmReachEnv(width=1, height=1).width == 1
