"""Scripted oracles for the arm tasks: feedback controllers on the observation.

Each oracle decides from the current observation alone which phase it is in (approach,
descend, grasp, carry; or approach behind the cube and push), so it recovers when it is
disturbed — the conformance kit mixes its actions with random ones. It reads the goal
from the observation; when the goal is hidden (``goal_observable=False``) it reads the
env's goal directly, as a privileged reference policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.families.physics.arm import model
from envsuite.families.physics.arm.observation import SLICES

#: Fraction of the remaining distance the oracle asks the hand target to cover per step.
GAIN = 0.6
#: Height above the cube at which the hand travels when it is not carrying or pushing.
HOVER = 0.08
#: TCP height while pushing (the lowest the hand target goes).
PUSH_HEIGHT = model.TCP_LOW[2]
#: Distance behind the cube's centre, along the push direction, where pushing starts.
PUSH_OFFSET = 0.05
#: Gripper gap under which a cube between the fingers counts as held.
HELD_GAP = 2 * model.CUBE_HALF + 0.006
#: Largest action while pushing: slow pushes keep the cube from tipping or skidding away.
PUSH_SPEED = 0.3
OPEN, CLOSED = -1.0, 1.0


class ArmOracle:
    """The scripted policy for one arm env (reach, push or pick-and-place).

    Args:
        env: The env (any wrapper of an :class:`ArmEnv`); read for its task and its
            action scale, and for the goal only when the observation hides it.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self.task_name: str = self.env.task.name
        self.scale: float = self.env.action_scale

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: the oracle acts on the current observation alone."""

    def act(self, observation: Any, info: Mapping[str, Any]) -> np.ndarray:
        """The action for this observation."""
        if isinstance(observation, Mapping):
            state = np.asarray(observation["observation"], dtype=np.float64)
            goal = np.asarray(observation["desired_goal"], dtype=np.float64)
        else:
            state = np.asarray(observation, dtype=np.float64)
            goal = state[SLICES["goal"]]
            if not self.env.goal_observable:
                goal = np.array(self.env.goal, dtype=np.float64)
        tcp = state[SLICES["tcp_pos"]]
        cube = state[SLICES["cube_pos"]]
        gap = float(state[SLICES["gripper_gap"]][0])
        if self.task_name == "reach":
            return self._toward(tcp, goal, OPEN)
        if self.task_name == "push":
            return self._push(tcp, cube, goal)
        return self._pick_place(tcp, cube, gap, goal)

    def _toward(
        self, tcp: np.ndarray, target: np.ndarray, grip: float, speed: float = 1.0
    ) -> np.ndarray:
        delta = np.clip(GAIN * (target - tcp) / self.scale, -speed, speed)
        return np.array([delta[0], delta[1], delta[2], grip], dtype=np.float32)

    def _pick_place(
        self, tcp: np.ndarray, cube: np.ndarray, gap: float, goal: np.ndarray
    ) -> np.ndarray:
        offset = cube - tcp
        planar = float(np.hypot(offset[0], offset[1]))
        height = abs(float(offset[2]))
        if planar < 0.02 and height < 0.03 and gap < HELD_GAP:
            return self._toward(tcp, tcp + (goal - cube), CLOSED)  # carry
        if planar < 0.012 and height < 0.012:
            return self._toward(tcp, cube, CLOSED)  # grasp
        if planar < 0.012:
            return self._toward(tcp, cube, OPEN)  # descend, fingers open
        hover = np.array([cube[0], cube[1], cube[2] + HOVER])
        if tcp[2] < cube[2] + HOVER / 2 and planar < 0.06:
            hover[:2] = tcp[:2]  # rise clear of the cube before moving over it
        return self._toward(tcp, hover, OPEN)

    def _push(self, tcp: np.ndarray, cube: np.ndarray, goal: np.ndarray) -> np.ndarray:
        to_goal = goal[:2] - cube[:2]
        remaining = float(np.hypot(to_goal[0], to_goal[1]))
        if remaining < 0.015:
            return np.array([0.0, 0.0, 0.0, CLOSED], dtype=np.float32)  # there: keep still
        direction = to_goal / remaining
        relative = tcp[:2] - cube[:2]
        along = float(relative @ direction)
        lateral = float(relative[0] * direction[1] - relative[1] * direction[0])
        behind = cube[:2] - direction * PUSH_OFFSET
        if along < -0.03 and abs(lateral) < 0.012 and tcp[2] < PUSH_HEIGHT + 0.02:
            ahead = cube[:2] - direction * PUSH_OFFSET + direction * min(remaining, 0.05)
            target = np.array([ahead[0], ahead[1], PUSH_HEIGHT])
            return self._toward(tcp, target, CLOSED, speed=PUSH_SPEED)
        if float(np.hypot(*(tcp[:2] - behind))) < 0.012:
            return self._toward(tcp, np.array([behind[0], behind[1], PUSH_HEIGHT]), CLOSED)
        target = np.array([behind[0], behind[1], cube[2] + HOVER])
        if tcp[2] < cube[2] + HOVER / 2 and float(np.hypot(*relative)) < 0.07:
            target[:2] = tcp[:2]  # rise clear of the cube before going round it
        return self._toward(tcp, target, CLOSED)


def arm_oracle(env: Any) -> ArmOracle:
    """The oracle factory named by the arm specs."""
    return ArmOracle(env)
