"""The arm's MJCF, written by envsuite, and the arm's geometry and inverse kinematics.

The robot is a 5-joint arm of the WidowX / LoCoBot kind — base yaw, shoulder, elbow and
wrist pitch, wrist roll — with a two-finger parallel gripper, on a table. Its hand is
driven the way Meta-World drives its Sawyer: a mocap body that the agent moves, welded
to the hand by a soft weld constraint, so MuJoCo's solver moves the real joints (with
damping, armature and gravity compensation) to follow it, and contact forces push back.

The scene holds one 4 cm cube (a free body) and a goal marker (a mocap body without
collision geometry), so all three tasks share one model and one observation layout.
Only the hand, the finger pads, the cube and the table collide; the arm's links are
visual (as the hand cannot reach them, this only saves contact tests).

Nothing here imports MuJoCo: :func:`arm_mjcf` returns the XML text and the kinematics are
plain numpy, so the oracle and the tests can use them without an engine.
"""

from __future__ import annotations

import math

import numpy as np

#: Physics timestep in seconds (``<option timestep>``).
TIMESTEP = 0.002
#: Height of the shoulder axis above the table top (the table top is z = 0).
SHOULDER_HEIGHT = 0.4
#: Upper arm and forearm lengths (shoulder to elbow, elbow to wrist axes).
UPPER_ARM = 0.45
FOREARM = 0.45
#: Distance from the wrist axis down to the tool centre point (TCP) between the fingers.
WRIST_TO_TCP = 0.1
#: Half the cube's edge; a cube at rest on the table has its centre at this height.
CUBE_HALF = 0.02
#: Largest travel of each finger; the gap between the finger pads is twice the travel.
FINGER_TRAVEL = 0.04
#: Largest gap between the finger pads.
MAX_GRIPPER_GAP = 2 * FINGER_TRAVEL
#: How far inside its joint limits the gripper servo's target stays: a target on a limit
#: would press the finger into MuJoCo's soft limit constraint.
FINGER_LIMIT_MARGIN = 0.001
#: Where the TCP starts every episode.
HOME_TCP = (0.45, 0.0, 0.2)
#: Box the TCP target is kept in: (low xyz, high xyz).
TCP_LOW = (0.2, -0.4, 0.015)
TCP_HIGH = (0.7, 0.4, 0.35)
#: Joint names, in qpos order after the cube's free joint.
ARM_JOINTS = ("base_yaw", "shoulder", "elbow", "wrist_pitch", "wrist_roll")
FINGER_JOINTS = ("finger_left", "finger_right")
#: Joint limits in radians (base yaw, shoulder, elbow, wrist pitch, wrist roll).
ARM_RANGES = ((-1.8, 1.8), (-1.2, 2.2), (0.0, 2.9), (-3.3, 1.2), (-3.2, 3.2))


#: Where each part of the state sits in ``qpos`` and ``qvel``: the cube's free joint comes
#: first (its qpos is the cube's position then quaternion, its qvel its linear then angular
#: velocity), then the five arm joints, then the two fingers.
CUBE_POS = slice(0, 3)
CUBE_QUAT = slice(3, 7)
ARM_QPOS = slice(7, 12)
FINGER_QPOS = slice(12, 14)
CUBE_LINVEL = slice(0, 3)
CUBE_ANGVEL = slice(3, 6)
ARM_QVEL = slice(6, 11)


def arm_ik(tcp: np.ndarray | tuple[float, float, float]) -> np.ndarray:
    """Joint angles that put the TCP at ``tcp`` with the gripper pointing straight down.

    The elbow-up solution, with the fingers opening along the world y axis (wrist roll
    cancels base yaw). Positions out of reach are pulled onto the reachable sphere.

    Args:
        tcp: Target (x, y, z) of the tool centre point, in metres.

    Returns:
        The five arm joint angles, in :data:`ARM_JOINTS` order.
    """
    x, y, z = (float(v) for v in tcp)
    yaw = math.atan2(y, x)
    reach = math.hypot(x, y)
    dr, dz = reach, z + WRIST_TO_TCP - SHOULDER_HEIGHT
    distance = math.hypot(dr, dz)
    longest = UPPER_ARM + FOREARM - 1e-6
    shortest = abs(UPPER_ARM - FOREARM) + 1e-6
    distance = min(max(distance, shortest), longest)
    cos_elbow = (distance**2 - UPPER_ARM**2 - FOREARM**2) / (2 * UPPER_ARM * FOREARM)
    elbow = math.acos(min(1.0, max(-1.0, cos_elbow)))
    # Angles are measured from the vertical; a positive pitch leans forward (+x).
    direction = math.atan2(dr, dz)
    shoulder = direction - math.atan2(
        FOREARM * math.sin(elbow), UPPER_ARM + FOREARM * math.cos(elbow)
    )
    wrist = -(shoulder + elbow)
    return np.array([yaw, shoulder, elbow, wrist, -yaw])


def arm_fk(joints: np.ndarray) -> np.ndarray:
    """The TCP position for the five arm joint angles (the inverse of :func:`arm_ik`).

    Exact for any wrist pitch: the hand direction is the sum of the three pitches.
    """
    yaw, shoulder, elbow, wrist = (float(v) for v in joints[:4])
    r = (
        UPPER_ARM * math.sin(shoulder)
        + FOREARM * math.sin(shoulder + elbow)
        - WRIST_TO_TCP * math.sin(shoulder + elbow + wrist)
    )
    z = (
        SHOULDER_HEIGHT
        + UPPER_ARM * math.cos(shoulder)
        + FOREARM * math.cos(shoulder + elbow)
        - WRIST_TO_TCP * math.cos(shoulder + elbow + wrist)
    )
    return np.array([r * math.cos(yaw), r * math.sin(yaw), z])


def _vec(values: tuple[float, ...] | np.ndarray) -> str:
    return " ".join(f"{float(v):.10g}" for v in values)


def arm_mjcf() -> str:
    """The scene's MJCF: table, arm, gripper, cube, goal marker, lights and camera.

    The keyframe ``home`` puts the TCP at :data:`HOME_TCP` with the gripper open.
    """
    home = arm_ik(HOME_TCP)
    home_qpos = np.concatenate(
        [
            [0.5, 0.0, CUBE_HALF, 1.0, 0.0, 0.0, 0.0],
            home,
            [FINGER_TRAVEL - FINGER_LIMIT_MARGIN] * 2,
        ]
    )
    ranges = [f"{lo:.10g} {hi:.10g}" for lo, hi in ARM_RANGES]
    hand_home = _vec((HOME_TCP[0], HOME_TCP[1], HOME_TCP[2] + WRIST_TO_TCP))
    return f"""<mujoco model="envsuite-arm">
  <compiler angle="radian" autolimits="true"/>
  <option timestep="{TIMESTEP}" integrator="implicitfast" cone="elliptic" impratio="10"/>
  <visual>
    <global offwidth="640" offheight="480"/>
    <quality shadowsize="1024"/>
  </visual>
  <default>
    <joint damping="2" armature="0.05"/>
    <geom solref="0.005 1" friction="1 0.005 0.0001"/>
    <default class="link">
      <geom type="capsule" size="0.035" contype="0" conaffinity="0" rgba="0.82 0.84 0.88 1"/>
    </default>
    <default class="finger">
      <joint type="slide" damping="1" armature="0.01" range="0 {FINGER_TRAVEL}"
             solreflimit="0.004 1"/>
      <geom type="box" size="0.01 0.008 0.03" friction="2 0.01 0.0001" condim="4"
            rgba="0.2 0.2 0.22 1" mass="0.05"/>
    </default>
  </default>
  <asset>
    <texture name="grid" type="2d" builtin="checker" width="256" height="256"
             rgb1="0.55 0.45 0.35" rgb2="0.5 0.4 0.3"/>
    <material name="table" texture="grid" texrepeat="8 8"/>
  </asset>
  <worldbody>
    <light name="top" pos="0.4 0 1.5" dir="0 0 -1" diffuse="0.8 0.8 0.8"/>
    <camera name="front" pos="1.35 0 0.75" xyaxes="0 1 0 -0.45 0 0.9"/>
    <geom name="table" type="plane" size="1.2 1.2 0.05" material="table"/>
    <body name="cube" pos="0.5 0 {CUBE_HALF}">
      <freejoint name="cube"/>
      <geom name="cube" type="box" size="{CUBE_HALF} {CUBE_HALF} {CUBE_HALF}" mass="0.05"
            friction="1 0.005 0.0001" condim="4" rgba="0.85 0.2 0.2 1"/>
    </body>
    <body name="base" pos="0 0 0">
      <geom name="pedestal" type="cylinder" size="0.08 0.05" pos="0 0 0.05"
            contype="0" conaffinity="0" rgba="0.25 0.25 0.28 1"/>
      <body name="turret" pos="0 0 0.1" gravcomp="1">
        <joint name="base_yaw" axis="0 0 1" range="{ranges[0]}"/>
        <geom class="link" fromto="0 0 0 0 0 {SHOULDER_HEIGHT - 0.1:.10g}" size="0.05"/>
        <body name="upper_arm" pos="0 0 {SHOULDER_HEIGHT - 0.1:.10g}" gravcomp="1">
          <joint name="shoulder" axis="0 1 0" range="{ranges[1]}"/>
          <geom class="link" fromto="0 0 0 0 0 {UPPER_ARM:.10g}"/>
          <body name="forearm" pos="0 0 {UPPER_ARM:.10g}" gravcomp="1">
            <joint name="elbow" axis="0 1 0" range="{ranges[2]}"/>
            <geom class="link" fromto="0 0 0 0 0 {FOREARM:.10g}" size="0.03"/>
            <body name="wrist" pos="0 0 {FOREARM:.10g}" gravcomp="1">
              <joint name="wrist_pitch" axis="0 1 0" range="{ranges[3]}"/>
              <geom class="link" fromto="0 0 0 0 0 -0.02" size="0.03"/>
              <body name="hand" gravcomp="1">
                <joint name="wrist_roll" axis="0 0 1" range="{ranges[4]}"/>
                <geom name="palm" type="box" size="0.02 0.05 0.012" pos="0 0 -0.035"
                      rgba="0.3 0.3 0.33 1" mass="0.2"/>
                <site name="tcp" pos="0 0 {-WRIST_TO_TCP:.10g}" size="0.006"
                      rgba="1 0.5 0 0.6"/>
                <body name="finger_left" pos="0 0 -0.077" gravcomp="1">
                  <joint name="finger_left" class="finger" axis="0 1 0"/>
                  <geom name="pad_left" class="finger" pos="0 0.008 0"/>
                </body>
                <body name="finger_right" pos="0 0 -0.077" gravcomp="1">
                  <joint name="finger_right" class="finger" axis="0 -1 0"/>
                  <geom name="pad_right" class="finger" pos="0 -0.008 0"/>
                </body>
              </body>
            </body>
          </body>
        </body>
      </body>
    </body>
    <body name="hand_target" mocap="true" pos="{hand_home}"/>
    <body name="goal" mocap="true" pos="0.5 0.2 0.1">
      <site name="goal" type="sphere" size="0.02" rgba="0.1 0.8 0.2 0.5"/>
    </body>
  </worldbody>
  <contact>
    <exclude body1="finger_left" body2="finger_right"/>
  </contact>
  <equality>
    <weld name="hand_to_target" body1="hand_target" body2="hand" relpose="0 0 0 1 0 0 0"
          solref="0.02 1"/>
    <joint name="fingers_together" joint1="finger_right" joint2="finger_left"/>
  </equality>
  <actuator>
    <position name="gripper" joint="finger_left" kp="150" kv="5"
              ctrlrange="{FINGER_LIMIT_MARGIN} {FINGER_TRAVEL - FINGER_LIMIT_MARGIN:.10g}"
              forcerange="-15 15"/>
  </actuator>
  <keyframe>
    <key name="home" qpos="{_vec(home_qpos)}" ctrl="{FINGER_TRAVEL - FINGER_LIMIT_MARGIN:.10g}"
         mpos="{hand_home} 0.5 0.2 0.1"/>
  </keyframe>
</mujoco>
"""
