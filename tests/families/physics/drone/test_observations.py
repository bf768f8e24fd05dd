"""Observations: the kin layout, the action buffer, and camera images that work by default."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import pybullet as p

import envsuite
from envsuite.families.physics.drone.observations import KIN_SIZE, ActionBuffer, euler


def test_kin_layout_holds_the_true_state():
    env = envsuite.make("envsuite/DroneHover-v0")
    observation, _ = env.reset(seed=2)
    for _ in range(5):
        observation, *_ = env.step(np.array([0.1, -0.1, 0.1, -0.1], dtype=np.float32))
    position, quaternion, velocity, angular = env.unwrapped.drone_state()
    expected = np.array(
        [*position, *quaternion, *p.getEulerFromQuaternion(quaternion), *velocity, *angular],
        dtype=np.float32,
    )
    assert np.allclose(observation[:KIN_SIZE], expected, atol=1e-6)
    target = np.asarray(env.unwrapped.target, dtype=np.float32)
    assert np.allclose(observation[KIN_SIZE:], target - observation[:3], atol=1e-6)


@pytest.mark.parametrize("physics", ["pyb", "dyn"])
def test_reset_observation_is_the_state_in_the_engine(physics):
    env = envsuite.make("envsuite/DroneWaypoints-v0", physics=physics)
    observation, _ = env.reset(seed=5)
    position, quaternion, velocity, angular = env.unwrapped.drone_state()
    engine = np.array([*position, *quaternion], dtype=np.float32)
    assert np.array_equal(observation[:7], engine)
    assert not observation[10:16].any() and not np.any(velocity) and not np.any(angular)


def test_euler_matches_pybullet_everywhere():
    rng = np.random.default_rng(0)
    for _ in range(200):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        assert euler(q) == pytest.approx(p.getEulerFromQuaternion(q), abs=1e-9)


def test_action_buffer_keeps_the_last_actions_oldest_first():
    buffer = ActionBuffer(2, 3)
    assert buffer.values == [0.0] * 6
    buffer.push([1.0, 2.0, 3.0])
    buffer.push(None)
    buffer.push([4.0, 5.0, 6.0])
    assert buffer.values == [0.0, 0.0, 0.0, 4.0, 5.0, 6.0]
    env = envsuite.make("envsuite/DroneHover-v0", action_buffer=3)
    observation, _ = env.reset(seed=0)
    assert observation.shape == (KIN_SIZE + 3 + 12,)
    action = np.array([0.25, -0.5, 0.0, 0.75], dtype=np.float32)
    observation, *_ = env.step(action)
    assert np.array_equal(observation[-4:], action)


def test_onboard_camera_works_with_default_settings():
    env = envsuite.make("envsuite/DroneGate-v0", observation_type="rgb")
    observation, _ = env.reset(seed=0)
    assert observation.shape == (48, 64, 3) and observation.dtype == np.uint8
    assert env.observation_space.contains(observation)
    assert observation.std() > 5  # a scene (sky, ground, the first gate), not a blank
    # The first gate lies straight ahead: its (shaded) orange frame shows in the image.
    red, green, blue = (observation[..., i].astype(int) for i in range(3))
    orange = (red > green + 20) & (green > blue + 20)
    assert orange.sum() >= 10
    later, *_ = env.step(np.array([0.3, 0.3, -0.3, -0.3], dtype=np.float32))
    assert not np.array_equal(later, observation)


def test_images_repeat_exactly_and_come_with_kin_when_asked():
    def first_frame():
        env = envsuite.make("envsuite/DroneHover-v0", observation_type="kin_rgb")
        observation, _ = env.reset(seed=3)
        return observation

    a, b = first_frame(), first_frame()
    assert set(a) == {"kin", "rgb"}
    assert np.array_equal(a["rgb"], b["rgb"]) and np.array_equal(a["kin"], b["kin"])


def test_render_gives_a_chase_view():
    env = envsuite.make("envsuite/DroneHover-v0", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (240, 320, 3) and frame.std() > 5
