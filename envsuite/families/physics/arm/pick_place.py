"""ArmPickPlace: pick the cube up and hold it at a goal in the air."""

from __future__ import annotations

from typing import Any

import numpy as np

from envsuite.families.physics.arm import model
from envsuite.families.physics.arm.base_env import ArmEnv
from envsuite.families.physics.arm.task import ArmTask, Numerics, Point, nearness, uniform

#: Box the pick-and-place goal is drawn from (x, y, z).
PLACE_GOAL_LOW = (0.35, -0.25, 0.08)
PLACE_GOAL_HIGH = (0.6, 0.25, 0.25)
#: Lift (above the resting height) that earns the full lifting term of the shaping.
FULL_LIFT = 0.05


class PickPlaceTask(ArmTask):
    """Pick and place: the cube's centre within 5 cm of a goal 6 to 23 cm above its rest."""

    name = "pick_place"
    tcp_cube_weight = 0.2
    lift_weight = 0.2
    goal_weight = 0.4

    def draw_goal(self, rng: np.random.Generator) -> np.ndarray:
        """A point in the air above the table."""
        goal: np.ndarray = uniform(rng, PLACE_GOAL_LOW, PLACE_GOAL_HIGH)
        return goal

    def progress(self, tcp: Point, cube: Point, goal_distance: Any, xp: Numerics) -> Any:
        """0.2 × nearness(TCP, cube) + 0.2 × lift fraction + 0.4 × nearness(cube, goal)."""
        return (
            self.tcp_cube_weight * nearness(xp.distance(tcp, cube))
            + self.lift_weight * self.lift(cube, xp)
            + self.goal_weight * nearness(goal_distance)
        )

    def lift(self, cube: Point, xp: Numerics) -> Any:
        """The cube's height above its rest over :data:`FULL_LIFT`, clipped into [0, 1]."""
        return xp.clip01((xp.height(cube) - model.CUBE_HALF) / FULL_LIFT)


class ArmPickPlaceEnv(ArmEnv):
    """Robot arm pick and place: grasp a cube and hold it at a goal in the air (MuJoCo).

    Description:
        The arm scene of :class:`~envsuite.families.physics.arm.reach.ArmReachEnv` (a
        5-joint arm with a parallel gripper, written in MJCF by envsuite, stepped with
        ``mj_step(model, data, nstep=frame_skip)``). Each episode draws the 4 cm cube's
        start (x in [0.35, 0.55], y in [-0.15, 0.15] m) and a goal in the air (x in
        [0.35, 0.6], y in [-0.25, 0.25], z in [0.08, 0.25] m), at least 10 cm away in the
        plane, from ``self.np_random``. The cube must be grasped by friction between the
        finger pads — MuJoCo contact physics with elliptic friction cones — and carried.

    Observation:
        As ArmReach: ``Box(26,)`` float32 (TCP position and velocity, gripper gap, cube
        position, quaternion, linear and angular velocity, cube relative to the TCP,
        goal), clipped into the declared bounds; or, with ``observation_mode="goal_dict"``,
        a ``Dict`` whose ``achieved_goal`` is the cube's position (float64), with
        ``compute_reward`` as ArmReach's. The dense reward depends on where the gripper
        is, so ``compute_reward`` reads ``info["tcp_position"]``: hand HER the infos (SB3:
        ``replay_buffer_kwargs={"copy_info_dict": True}``); without them it raises a
        ValueError saying so (the sparse reward needs no info).

    Action:
        ``Box(-1, 1, (4,))``: hand target displacement (× ``action_scale`` metres) and
        gripper command (-1 open, +1 closed), clipped to [-1, 1]. A malformed action
        leaves target and grip unchanged, costs ``invalid_action_penalty`` off the step's
        reward and sets ``info["parse_error"]``.

    Reward:
        ``reward_type="dense"``: 1 when the cube is within 5 cm of the goal, else
        0.2 × s / (s + d_tcp_cube) + 0.2 × lift + 0.4 × s / (s + d_cube_goal), with
        s = 5 cm and lift the cube's height above its rest over 5 cm (at most 1); this is
        below 0.8, so the reward is 1 exactly when ``info["success"]`` is True.
        ``"sparse"``: 1 on success, else 0. ``info`` holds ``success``, ``score`` (the
        dense value) and ``goal_distance`` (cube to goal).

    Termination:
        With ``terminate_on_success=True`` the episode ends on the first step that
        succeeds; otherwise at the step limit (250 steps, Gymnasium's ``TimeLimit``),
        with ``info["success"]`` saying whether the cube is held at the goal then.

    Arguments:
        Each is checked when the env is made: a value of the wrong type (a bool where a
        number is expected, a string, None), NaN, an infinity or a value out of bounds
        raises a ValueError naming the argument. Python and numpy numbers are accepted.

        frame_skip: MuJoCo substeps (``nstep`` of ``mj_step``) per env step, an int in
            [1, 1000] (default 10; 2 ms each).
        reward_type: ``"dense"`` (default) or ``"sparse"``.
        observation_mode: ``"vector"`` (default) or ``"goal_dict"``.
        goal_observable: Whether the vector observation shows the goal, a bool (default
            True; must be True with ``"goal_dict"``).
        terminate_on_success: End the episode when the task succeeds, a bool (default
            False).
        action_scale: Metres the hand target moves for an action of 1, a real number in
            (0, 0.1] (default 0.02).
        invalid_action_penalty: Subtracted from the reward of a malformed action's step, a
            finite real number >= 0 (default 1).
        render_mode: ``"rgb_array"`` (offscreen, headless through EGL) or None (default).
        width: Width of rendered frames in pixels, an int in [1, 640] (the model's
            offscreen buffer width; default 480).
        height: Height of rendered frames in pixels, an int in [1, 480] (the model's
            offscreen buffer height; default 480).

    Version history:
        v0: Initial version.
    """

    task = PickPlaceTask()
