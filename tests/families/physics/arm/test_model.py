"""The arm's MJCF compiles, and its kinematics agree with MuJoCo's."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import mujoco

from envsuite.families.physics.arm import model
from envsuite.families.physics.arm.base_env import TCP_SITE, new_model

CORNERS = [
    np.array(point) for point in itertools.product(*zip(model.TCP_LOW, model.TCP_HIGH, strict=True))
]


def home_data() -> tuple[mujoco.MjModel, mujoco.MjData]:
    m = new_model()
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    mujoco.mj_forward(m, d)
    return m, d


def test_the_mjcf_compiles_with_the_layout_the_envs_index():
    m = mujoco.MjModel.from_xml_string(model.arm_mjcf())
    assert m.joint(0).name == "cube" and m.joint(0).type == mujoco.mjtJoint.mjJNT_FREE
    assert [m.joint(i).name for i in range(1, 6)] == list(model.ARM_JOINTS)
    assert [m.joint(i).name for i in range(6, 8)] == list(model.FINGER_JOINTS)
    assert m.jnt_qposadr[1] == model.ARM_QPOS.start
    assert m.jnt_qposadr[6] == model.FINGER_QPOS.start
    assert m.jnt_dofadr[1] == model.ARM_QVEL.start
    assert m.body(m.body_mocapid.tolist().index(0)).name == "hand_target"
    assert m.body(m.body_mocapid.tolist().index(1)).name == "goal"
    assert m.opt.timestep == model.TIMESTEP


def test_home_keyframe_puts_the_tcp_home_with_the_hand_pointing_down():
    _, d = home_data()
    np.testing.assert_allclose(d.site_xpos[TCP_SITE], model.HOME_TCP, atol=1e-9)
    np.testing.assert_allclose(d.body("hand").xquat, [1, 0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(
        d.body("hand_target").xpos, d.body("hand").xpos, atol=1e-9
    )  # the weld starts satisfied: no jerk at reset


@pytest.mark.parametrize("corner", CORNERS, ids=lambda c: ",".join(f"{v:g}" for v in c))
def test_ik_reaches_every_workspace_corner_within_the_joint_limits(corner: np.ndarray):
    joints = model.arm_ik(corner)
    for angle, (low, high) in zip(joints, model.ARM_RANGES, strict=True):
        assert low < angle < high
    np.testing.assert_allclose(model.arm_fk(joints), corner, atol=1e-9)


def test_fk_matches_mujoco_kinematics():
    m, d = home_data()
    rng = np.random.default_rng(0)
    for _ in range(20):
        joints = rng.uniform([r[0] for r in model.ARM_RANGES], [r[1] for r in model.ARM_RANGES])
        d.qpos[model.ARM_QPOS] = joints
        mujoco.mj_kinematics(m, d)
        np.testing.assert_allclose(model.arm_fk(joints), d.site_xpos[TCP_SITE], atol=1e-9)


def test_the_weld_drives_the_real_joints_to_a_moved_target():
    m, d = home_data()
    goal = np.array([0.6, -0.3, 0.1])
    d.mocap_pos[0] = goal + np.array([0.0, 0.0, model.WRIST_TO_TCP])
    mujoco.mj_step(m, d, 1000)
    mujoco.mj_kinematics(m, d)
    np.testing.assert_allclose(d.site_xpos[TCP_SITE], goal, atol=2e-3)
    np.testing.assert_allclose(d.qpos[model.ARM_QPOS], model.arm_ik(goal), atol=2e-2)


def test_an_unsupported_cube_falls_onto_the_table():
    m, d = home_data()
    d.qpos[0:3] = [0.5, 0.2, 0.3]
    mujoco.mj_step(m, d, 1000)
    assert d.qpos[2] == pytest.approx(model.CUBE_HALF, abs=2e-3)
