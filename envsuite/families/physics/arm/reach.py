"""ArmReach: bring the gripper to a point in space."""

from __future__ import annotations

from typing import Any

import numpy as np

from envsuite.families.physics.arm import model
from envsuite.families.physics.arm.base_env import ArmEnv
from envsuite.families.physics.arm.task import (
    SCALAR,
    ArmTask,
    Numerics,
    Point,
    distance,
    nearness,
    uniform,
)

#: Box the reach goal is drawn from (x, y, z).
REACH_GOAL_LOW = (0.3, -0.25, 0.08)
REACH_GOAL_HIGH = (0.6, 0.25, 0.3)


class ReachTask(ArmTask):
    """Reach: the TCP within 5 cm of a goal drawn in the air above the table."""

    name = "reach"
    goal_weight = 0.8

    def draw_goal(self, rng: np.random.Generator) -> np.ndarray:
        """A point in the reach box."""
        goal: np.ndarray = uniform(rng, REACH_GOAL_LOW, REACH_GOAL_HIGH)
        return goal

    def acceptable(self, cube_xy: np.ndarray, goal: np.ndarray) -> bool:
        """The goal is away from the start pose, and the gripper can hang there over the cube."""
        target = (float(goal[0]), float(goal[1]), float(goal[2]))
        cube = (float(cube_xy[0]), float(cube_xy[1]), model.CUBE_HALF)
        return bool(
            distance(target, model.HOME_TCP, SCALAR) >= self.min_travel
            and distance(target, cube, SCALAR) >= 0.08
        )

    def achieved(self, tcp: Point, cube: Point) -> Point:
        """The TCP's position."""
        return tcp

    def progress(self, tcp: Point, cube: Point, goal_distance: Any, xp: Numerics) -> Any:
        """0.8 × nearness of the TCP to the goal."""
        return self.goal_weight * nearness(goal_distance)


class ArmReachEnv(ArmEnv):
    """Robot arm reaching: move the gripper to a goal point (MuJoCo).

    Description:
        A 5-joint arm with a parallel gripper stands at the edge of a table, written in
        MJCF by envsuite (:mod:`envsuite.families.physics.arm.model`) and simulated by
        MuJoCo with ``mj_step(model, data, nstep=frame_skip)`` per env step (timestep
        2 ms, so 20 ms per step by default). As in Meta-World, the agent moves a target
        that the hand is welded to; MuJoCo's solver drives the joints to follow it, with
        joint damping and contacts pushing back. Each episode draws a goal point above the
        table from ``self.np_random`` (x in [0.3, 0.6], y in [-0.25, 0.25], z in
        [0.08, 0.3] m, at least 10 cm from the start pose); a 4 cm cube lies on the table
        as a distractor, at a drawn position, so all arm tasks share one scene and one
        observation layout (useful for multi-task learning).

    Observation:
        ``observation_mode="vector"``: ``Box(26,)`` float32: TCP position (3), TCP
        velocity (3), gripper gap (1), cube position (3) and quaternion (4), cube linear
        (3) and angular (3) velocity, cube position relative to the TCP (3), goal (3).
        Every value is clipped into the declared bounds, so observations always lie in
        ``observation_space``. With ``goal_observable=False`` the goal entries are 0 (a
        hidden-goal task, as Meta-World's partially observable mode).
        ``observation_mode="goal_dict"``: a ``Dict`` with ``observation`` (the first 23
        numbers), ``achieved_goal`` (the TCP position) and ``desired_goal`` (the goal),
        both float64 (the simulator's numbers), for hindsight experience replay (HER).
        In this mode only, ``compute_reward(achieved_goal, desired_goal, info)`` gives the
        reward of any goal pairs (batched: shape ``(..., 3)``) for the env's
        ``reward_type``; for a transition as it happened it equals the step's reward
        exactly. ``info`` also holds ``tcp_position`` (float64).

    Action:
        ``Box(-1, 1, (4,))``: the hand target moves by ``action[:3] * action_scale``
        metres (kept inside the workspace box), and ``action[3]`` sets the gripper (-1
        open, +1 closed). Values outside [-1, 1] are clipped. A malformed action (wrong
        shape or type, NaN or infinite values) leaves the target and grip unchanged, costs
        ``invalid_action_penalty`` off the step's reward, and sets ``info["parse_error"]``.

    Reward:
        ``reward_type="dense"``: 1 when the task is solved, else 0.8 × s / (s + d) with d
        the TCP-goal distance and s = 5 cm; so the reward is 1 exactly when
        ``info["success"]`` is True. ``"sparse"``: 1 on success, else 0. ``info`` holds
        ``success`` (the TCP is within 5 cm of the goal now), ``score`` (the dense value,
        in [0, 1]) and ``goal_distance``.

    Termination:
        With ``terminate_on_success=True`` the episode ends on the first step that
        succeeds; otherwise it runs until the step limit (200 steps, applied by
        Gymnasium's ``TimeLimit``), and ``info["success"]`` at the last step says whether
        the goal is held then.

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

    task = ReachTask()
