"""``compute_reward`` of the arm's goal_dict mode: the step reward of any goal pair.

Hindsight experience replay (HER, e.g. SB3's ``HerReplayBuffer``) replaces the desired
goal of stored transitions by goals achieved later, and asks the env what the reward
would have been. That answer must be the env's own reward function, whatever
``reward_type`` is: for a transition as it happened, ``compute_reward(
next_obs["achieved_goal"], obs["desired_goal"], info)`` equals the step's reward, bit
for bit. The achieved and desired goals of a goal_dict observation are float64 (the
simulator's numbers, not rounded to float32) so that this holds.

What the reward needs beyond the two goals comes from ``info``: whether the step's
action was malformed (``parse_error``; the penalty is subtracted), and, for the dense
reward of Push and PickPlace, where the TCP was (``info["tcp_position"]``), because their
shaping rewards the gripper for nearing the cube. An empty info (SB3's HER passes empty
ones unless ``copy_info_dict=True``) counts as a well-formed action; where the TCP is
needed and missing, a ValueError says how to pass the infos.

Gymnasium's convention (``GoalEnv``): only goal-conditioned envs have ``compute_reward``,
so the arm envs expose it in goal_dict mode alone; SB3 tells goal envs apart by it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from envsuite.families.physics.arm.task import ARRAY, ArmTask

#: The info key holding the TCP position (goal_dict mode), which dense shaping needs.
TCP_KEY = "tcp_position"
#: The error of ``compute_reward`` outside goal_dict mode.
NOT_GOAL_CONDITIONED = (
    "compute_reward exists only with observation_mode='goal_dict' (goal-conditioned "
    "envs, as Gymnasium's GoalEnv convention and SB3's HER expect)"
)


def _goals(name: str, value: Any) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0 or array.shape[-1] != 3:
        raise ValueError(f"{name} must hold (x, y, z) points, shape (..., 3); got {array.shape}")
    return array


def _infos(info: Any, count: int) -> list[Mapping[str, Any]] | Mapping[str, Any]:
    """One info for every pair (a Mapping), or a list of ``count`` infos."""
    if info is None:
        return {}
    if isinstance(info, Mapping):
        return info
    infos = list(np.asarray(info, dtype=object).reshape(-1))
    if len(infos) != count or not all(isinstance(one, Mapping | None) for one in infos):
        raise ValueError(f"info must be one dict or {count} dicts (one per goal pair)")
    return [one or {} for one in infos]


def _malformed(infos: list[Mapping[str, Any]] | Mapping[str, Any], count: int) -> np.ndarray:
    if isinstance(infos, Mapping):
        errors = infos.get("parse_error")
        if errors is None or isinstance(errors, str):
            return np.full(count, bool(errors))
        return np.array([bool(error) for error in errors], dtype=bool).reshape(count)
    return np.array([bool(one.get("parse_error")) for one in infos], dtype=bool)


def _tcp(infos: list[Mapping[str, Any]] | Mapping[str, Any], count: int, env: str) -> np.ndarray:
    try:
        if isinstance(infos, Mapping):
            positions = np.asarray(infos[TCP_KEY], dtype=np.float64)
        else:
            positions = np.array([one[TCP_KEY] for one in infos], dtype=np.float64)
        return np.broadcast_to(positions, (count, 3))
    except KeyError:
        raise ValueError(
            f"the dense reward of {env} depends on where the gripper is, which "
            f"compute_reward reads from info[{TCP_KEY!r}]; pass each transition's info "
            "(SB3's HER: replay_buffer_kwargs={'copy_info_dict': True}) or use "
            "reward_type='sparse'"
        ) from None


def goal_reward(
    task: ArmTask,
    reward_type: str,
    invalid_action_penalty: float,
    achieved_goal: Any,
    desired_goal: Any,
    info: Any,
) -> Any:
    """The step reward of each (achieved, desired) goal pair (see the module docstring).

    Args:
        task: The env's task.
        reward_type: ``"dense"`` or ``"sparse"``.
        invalid_action_penalty: Subtracted where ``info`` has a ``parse_error``.
        achieved_goal: Achieved goals, shape ``(..., 3)``.
        desired_goal: Desired goals, shape ``(..., 3)`` (broadcast against the achieved).
        info: None, one info dict for every pair, or one per pair (a list or array).

    Returns:
        A float for one pair; otherwise a float64 array of the goals' batch shape.
    """
    achieved = _goals("achieved_goal", achieved_goal)
    desired = _goals("desired_goal", desired_goal)
    shape = np.broadcast_shapes(achieved.shape, desired.shape)[:-1]
    count = math.prod(shape)
    achieved = np.broadcast_to(achieved, (*shape, 3)).reshape(count, 3)
    desired = np.broadcast_to(desired, (*shape, 3)).reshape(count, 3)
    infos = _infos(info, count)
    if task.name == "reach" or reward_type == "sparse":
        tcp = achieved  # Reach's achieved goal is the TCP; the sparse reward ignores it
    else:
        tcp = _tcp(infos, count, f"Arm{task.name.title().replace('_', '')}")
    score, success, _ = task.evaluate(tcp, achieved, desired, ARRAY)
    reward = np.array(score if reward_type == "dense" else success, dtype=np.float64)
    reward[_malformed(infos, count)] -= invalid_action_penalty
    return float(reward[0]) if shape == () else reward.reshape(shape)
