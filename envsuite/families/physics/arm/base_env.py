"""The base of the arm envs: MuJoCo model, action handling, observations and rewards.

A concrete task env only names its :class:`~envsuite.families.physics.arm.task.ArmTask`
and carries the docstring; everything else lives here (template method, as in Minigrid).
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces

from envsuite import arguments
from envsuite.env_base import EnvsuiteEnv, InvalidAction
from envsuite.families.physics.arm import model, observation
from envsuite.families.physics.arm.goal_reward import NOT_GOAL_CONDITIONED, TCP_KEY, goal_reward
from envsuite.families.physics.arm.rendering import OffscreenRenderer, frame_size
from envsuite.families.physics.arm.task import ArmTask
from envsuite.registry import import_optional

#: The parse error of an action holding NaN or infinite values.
NOT_FINITE = "the action holds NaN or infinite values"

RewardType = Literal["dense", "sparse"]
ObservationMode = Literal["vector", "goal_dict"]

#: Largest ``frame_skip``: 1000 substeps of 2 ms, 2 s of simulated time per env step.
MAX_FRAME_SKIP = 1000
#: Largest ``action_scale``, in metres per env step.
MAX_ACTION_SCALE = 0.1

#: Index of the TCP site, and of the hand-target and goal mocap bodies (checked on load).
TCP_SITE = 0
HAND_MOCAP = 0
GOAL_MOCAP = 1
#: Box the TCP target is kept in.
TCP_LOW = model.TCP_LOW
TCP_HIGH = model.TCP_HIGH


def mujoco_module() -> Any:
    """The ``mujoco`` module, or a MissingExtraError naming the ``physics`` extra."""
    return import_optional("mujoco", extra="physics")


@functools.cache
def _compiled_model() -> Any:
    mujoco = mujoco_module()
    compiled = mujoco.MjModel.from_xml_string(model.arm_mjcf())
    if compiled.site(TCP_SITE).name != "tcp" or compiled.nq != 14 or compiled.nmocap != 2:
        raise RuntimeError("the arm MJCF does not have the layout the env expects")
    return compiled


def new_model() -> Any:
    """A fresh copy of the arm's compiled ``MjModel`` (the XML is compiled once a process)."""
    return copy.copy(_compiled_model())


def goal_bounds(low: np.ndarray, high: np.ndarray, task: ArmTask) -> tuple[np.ndarray, np.ndarray]:
    """Bounds (float64) of the achieved goal: the TCP's (Reach) or the cube's position."""
    achieved = observation.SLICES["tcp_pos" if task.name == "reach" else "cube_pos"]
    return low[achieved].astype(np.float64), high[achieved].astype(np.float64)


def hand_position(tcp_target: list[float]) -> tuple[float, float, float]:
    """Where the hand frame (the mocap body) goes to put the TCP at ``tcp_target``."""
    return (tcp_target[0], tcp_target[1], tcp_target[2] + model.WRIST_TO_TCP)


#: Half the finger travel the gripper command spans, inside the joint limits.
HALF_GRIPPER_SPAN = (model.FINGER_TRAVEL - 2 * model.FINGER_LIMIT_MARGIN) * 0.5


def gripper_control(command: Any) -> Any:
    """Finger target for gripper commands in [-1, 1] (-1 fully open, +1 fully closed)."""
    return model.FINGER_LIMIT_MARGIN + HALF_GRIPPER_SPAN * (1.0 - command)


class ArmEnv(EnvsuiteEnv[Any, np.ndarray, list[float]]):
    """Base class of the arm tasks (see :class:`ArmReachEnv` for the full documentation)."""

    task: ClassVar[ArmTask]
    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 50}
    record_metrics = ("goal_distance",)

    def __init__(
        self,
        frame_skip: int = 10,
        reward_type: RewardType = "dense",
        observation_mode: ObservationMode = "vector",
        goal_observable: bool = True,
        terminate_on_success: bool = False,
        action_scale: float = 0.02,
        invalid_action_penalty: float = 1.0,
        render_mode: str | None = None,
        width: int = 480,
        height: int = 480,
    ) -> None:
        super().__init__()
        # Every argument is checked here, once; the per-step path trusts the stored values.
        self.frame_skip = arguments.integer_in("frame_skip", frame_skip, 1, MAX_FRAME_SKIP)
        self.reward_type: RewardType = arguments.one_of(
            "reward_type", reward_type, ("dense", "sparse")
        )
        self.observation_mode: ObservationMode = arguments.one_of(
            "observation_mode", observation_mode, ("vector", "goal_dict")
        )
        self.goal_observable = arguments.boolean("goal_observable", goal_observable)
        if self.observation_mode == "goal_dict" and not self.goal_observable:
            raise ValueError("goal_dict observations always carry the goal (goal_observable)")
        self.terminate_on_success = arguments.boolean("terminate_on_success", terminate_on_success)
        self.action_scale = arguments.real_in(
            "action_scale", action_scale, 0.0, MAX_ACTION_SCALE, low_open=True
        )
        self.invalid_action_penalty = arguments.real_in(
            "invalid_action_penalty", invalid_action_penalty, 0.0, math.inf
        )
        self.render_mode = arguments.one_of("render_mode", render_mode, (None, "rgb_array"))
        self._dense = self.reward_type == "dense"
        self._vector = self.observation_mode == "vector"
        self.mujoco = mujoco_module()
        self.model = new_model()
        self.width, self.height = frame_size(self.model, width, height)

        self.data = self.mujoco.MjData(self.model)
        self.control_dt = self.model.opt.timestep * self.frame_skip
        self.metadata = {**self.metadata, "render_fps": max(1, round(1.0 / self.control_dt))}
        self.low, self.high = observation.bounds(self.goal_observable)
        self.achieved_low, self.achieved_high = goal_bounds(self.low, self.high, self.task)
        self.observation_space = self._observation_space()
        self.action_space = spaces.Box(-1.0, 1.0, (4,), np.float32)

        self.goal = np.zeros(3)
        self._goal = [0.0, 0.0, 0.0]  # the goal as floats, for the per-step arithmetic
        self.target = list(model.HOME_TCP)
        self.previous_tcp = list(model.HOME_TCP)
        self._renderer: Any = None
        self._bind_views()

    def _bind_views(self) -> None:
        # MjData's arrays live as long as the MjData; holding views saves a lookup a step.
        self._qpos = self.data.qpos
        self._qvel = self.data.qvel
        self._ctrl = self.data.ctrl
        self._mocap_pos = self.data.mocap_pos
        self._site_xpos = self.data.site_xpos
        self._hand = self.data.mocap_pos[HAND_MOCAP]
        self._tcp = self.data.site_xpos[TCP_SITE]
        self._cube_qvel = self.data.qvel[model.CUBE_LINVEL.start : model.CUBE_ANGVEL.stop]

    def _observation_space(self) -> spaces.Space[Any]:
        box = spaces.Box(self.low, self.high)
        if self.observation_mode == "vector":
            return box
        state = slice(0, observation.STATE_SIZE)
        # The goals are float64, the simulator's own numbers, so that compute_reward gives
        # the step's reward exactly (see goal_reward).
        goal = observation.SLICES["goal"]
        return spaces.Dict(
            {
                "observation": spaces.Box(box.low[state], box.high[state]),
                "achieved_goal": spaces.Box(
                    self.achieved_low, self.achieved_high, dtype=np.float64
                ),
                "desired_goal": spaces.Box(
                    self.low[goal].astype(np.float64),
                    self.high[goal].astype(np.float64),
                    dtype=np.float64,
                ),
            }
        )

    # -- episode -----------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Put the arm home, draw the cube's start and the goal from ``self.np_random``."""
        mujoco, m, d = self.mujoco, self.model, self.data
        cube_xy, goal = self.task.sample(self.np_random)
        self.goal = goal
        self._goal = [float(v) for v in goal]
        mujoco.mj_resetDataKeyframe(m, d, 0)
        d.qpos[0:2] = cube_xy
        d.mocap_pos[GOAL_MOCAP] = goal
        self.target = list(model.HOME_TCP)
        self._hand[:] = hand_position(self.target)
        mujoco.mj_forward(m, d)
        self.previous_tcp = self._tcp.tolist()
        observation_, _, _, info = self._outcome(0.0)
        return observation_, info

    # -- actions -----------------------------------------------------------------------
    def parse_action(self, action: Any) -> list[float]:
        """Four finite numbers, each clipped to [-1, 1]."""
        if isinstance(action, np.ndarray):
            kind = action.dtype.kind
            if action.shape != (4,) or kind not in "fiu":
                raise InvalidAction(
                    f"expected a numeric array of shape (4,), got {action.dtype} {action.shape}"
                )
            values = action.tolist()
            if kind == "f":
                # The common case: floats already in range (a chained comparison is False
                # for NaN and infinities), which the loop below would return unchanged.
                a0, a1, a2, a3 = values
                if (
                    -1.0 <= a0 <= 1.0
                    and -1.0 <= a1 <= 1.0
                    and -1.0 <= a2 <= 1.0
                    and -1.0 <= a3 <= 1.0
                ):
                    return values
        elif (
            isinstance(action, list | tuple)
            and len(action) == 4
            and all(
                isinstance(v, int | float | np.number) and not isinstance(v, bool | np.bool_)
                for v in action
            )
        ):
            values = list(action)
        else:
            raise InvalidAction(
                f"expected 4 numbers (dx, dy, dz, grip), got {type(action).__name__}"
            )
        parsed = []
        for value in values:
            number = float(value)
            if not math.isfinite(number):
                raise InvalidAction(NOT_FINITE)
            parsed.append(min(max(number, -1.0), 1.0))
        return parsed

    def apply_action(self, parsed: list[float]) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Move the hand target by ``action[:3] * action_scale``, set the grip, simulate."""
        scale = self.action_scale
        (x, y, z), (lx, ly, lz), (hx, hy, hz) = self.target, TCP_LOW, TCP_HIGH
        # min(max(v, low), high), unrolled (the same comparisons, without the calls).
        x, y, z = x + parsed[0] * scale, y + parsed[1] * scale, z + parsed[2] * scale
        x = lx if lx > x else x
        y = ly if ly > y else y
        z = lz if lz > z else z
        x = hx if hx < x else x
        y = hy if hy < y else y
        z = hz if hz < z else z
        self.target = [x, y, z]
        # Element by element: cheaper than numpy's conversion of a sequence.
        hand = self._hand
        hand[0], hand[1], hand[2] = x, y, z + model.WRIST_TO_TCP  # hand_position's sum
        # gripper_control's arithmetic, inlined (a call saved on every step).
        self._ctrl[0] = model.FINGER_LIMIT_MARGIN + HALF_GRIPPER_SPAN * (1.0 - parsed[3])
        return self._simulate(0.0)

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Penalty: the hand target and grip stay as they were, and the reward is reduced."""
        return self._simulate(self.invalid_action_penalty)

    def _simulate(self, penalty: float) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.previous_tcp = self._tcp.tolist()
        self.mujoco.mj_step(self.model, self.data, self.frame_skip)
        # mj_step leaves positions one substep behind; observe the state it reached.
        self.mujoco.mj_kinematics(self.model, self.data)
        observation_, reward, success, info = self._outcome(penalty)
        return observation_, reward, self.terminate_on_success and success, False, info

    # -- observations and rewards ------------------------------------------------------
    def _outcome(self, penalty: float) -> tuple[Any, float, bool, dict[str, Any]]:
        tcp = self._tcp.tolist()
        qpos = self._qpos.tolist()
        vector = observation.observation_row(
            tcp,
            self.previous_tcp,
            qpos,
            self._cube_qvel.tolist(),
            self._goal if self.goal_observable else None,
            self.control_dt,
            self.low,
            self.high,
        )
        score, success, goal_distance = self.task.evaluate_point(tcp, qpos[0:3], self._goal)
        reward = score if self._dense else float(success)
        info: dict[str, Any] = {
            "success": success,
            "score": score,
            "goal_distance": goal_distance,
            "parse_error": None,
        }
        if self._vector:
            return vector, reward - penalty, success, info
        info[TCP_KEY] = np.array(tcp)
        achieved = np.array(self.task.achieved(tcp, qpos[0:3]))
        np.clip(achieved, self.achieved_low, self.achieved_high, out=achieved)  # a safety net
        goal_dict = {
            "observation": vector[: observation.STATE_SIZE].copy(),
            "achieved_goal": achieved,
            "desired_goal": self.goal.copy(),
        }
        return goal_dict, reward - penalty, success, info

    @property
    def compute_reward(self) -> Callable[[Any, Any, Any], Any]:
        """The step reward of (achieved, desired) goal pairs, for hindsight relabelling.

        Only in ``observation_mode="goal_dict"`` (elsewhere an AttributeError, so SB3 does
        not take the env for a goal env). ``compute_reward(achieved_goal, desired_goal,
        info)`` takes one pair or batches of shape ``(..., 3)`` and ``info`` as one dict
        or one per pair, and gives exactly the step's reward for the same transition,
        for either ``reward_type`` (see :mod:`~envsuite.families.physics.arm.goal_reward`).
        """
        if self.observation_mode != "goal_dict":
            raise AttributeError(NOT_GOAL_CONDITIONED)
        return functools.partial(
            goal_reward, self.task, self.reward_type, self.invalid_action_penalty
        )

    # -- rendering and pickling --------------------------------------------------------
    def render(self) -> np.ndarray | None:
        """``"rgb_array"``: an ``(height, width, 3)`` uint8 frame from the front camera."""
        if self.render_mode != "rgb_array":
            return None
        if self._renderer is None:
            self._renderer = OffscreenRenderer(self.model, self.width, self.height)
        frame: np.ndarray = self._renderer.render(self.data, camera="front")
        return frame

    def close(self) -> None:
        """Release the renderer's OpenGL context."""
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the renderer and the module handle (MjModel/MjData pickle)."""
        views = (
            *("_qpos", "_qvel", "_ctrl", "_mocap_pos", "_site_xpos", "_hand", "_tcp"),
            *("_cube_qvel", "_renderer", "mujoco"),
        )
        return {k: v for k, v in self.__dict__.items() if k not in views}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore the state; the renderer is made again when first needed."""
        self.__dict__.update(state)
        self.mujoco = mujoco_module()
        self._renderer = None
        self._bind_views()
