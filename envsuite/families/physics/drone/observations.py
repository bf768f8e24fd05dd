"""Observation types of the drone envs: kinematic vectors, camera images, or both.

``kin`` (the default) is a float32 vector::

    [0:3]    position (m, world frame)
    [3:7]    orientation quaternion (x, y, z, w)
    [7:10]   roll, pitch, yaw (rad)
    [10:13]  linear velocity (m/s, world frame)
    [13:16]  angular velocity (rad/s, world frame)
    [16:..]  the task's features (each env documents them)
    [..]     with ``action_buffer=k``: the last k actions, oldest first (zeros at reset)

``rgb`` is the drone's onboard camera, ``(height, width, 3)`` uint8, one frame per control
step at any frequencies (gym-pybullet-drones needs its capture rate to divide the control
rate and exits otherwise). ``kin_rgb`` is a ``Dict`` with both, under ``"kin"`` and ``"rgb"``.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.families.physics.drone.arguments import action_buffer_length
from envsuite.families.physics.drone.world import pybullet_module

OBSERVATION_TYPES = ("kin", "rgb", "kin_rgb")
#: Length of the kinematic part of a ``kin`` observation.
KIN_SIZE = 16
#: Default onboard camera resolution (width, height), as gym-pybullet-drones'.
DEFAULT_IMAGE_SIZE = (64, 48)


def validate_observation_type(observation_type: Any) -> str:
    """Return ``observation_type`` or raise ValueError."""
    if observation_type not in OBSERVATION_TYPES:
        raise ValueError(
            f"observation_type must be one of {OBSERVATION_TYPES}, got {observation_type!r}"
        )
    return str(observation_type)


def validate_image_size(image_size: Any) -> tuple[int, int]:
    """Return ``(width, height)`` or raise ValueError."""
    message = f"image_size must be (width, height), two ints in [8, 1024], got {image_size!r}"
    if isinstance(image_size, str | bytes) or not isinstance(image_size, Sequence | np.ndarray):
        raise ValueError(message)
    sides = list(image_size)
    if len(sides) != 2 or not all(
        isinstance(v, int | np.integer) and not isinstance(v, bool) and 8 <= v <= 1024
        for v in sides
    ):
        raise ValueError(message)
    return int(sides[0]), int(sides[1])


def kinematic_space(task_size: int, buffer: int, action_size: int) -> spaces.Box:
    """The ``kin`` observation space (quaternion and Euler angles bounded, the rest not)."""
    size = KIN_SIZE + task_size + buffer * action_size
    low = np.full(size, -np.inf, dtype=np.float32)
    high = np.full(size, np.inf, dtype=np.float32)
    low[3:7], high[3:7] = -1.0, 1.0
    low[7:10], high[7:10] = -math.pi, math.pi
    if buffer:
        low[KIN_SIZE + task_size :], high[KIN_SIZE + task_size :] = -1.0, 1.0
    return spaces.Box(low, high, dtype=np.float32)


def image_space(width: int, height: int) -> spaces.Box:
    """The ``rgb`` observation space."""
    return spaces.Box(0, 255, (height, width, 3), np.uint8)


def observation_space(
    observation_type: str,
    task_size: int,
    buffer: int,
    action_size: int,
    image_size: tuple[int, int],
) -> spaces.Space[Any]:
    """The observation space of one drone."""
    if observation_type == "kin":
        return kinematic_space(task_size, buffer, action_size)
    if observation_type == "rgb":
        return image_space(*image_size)
    return spaces.Dict(
        {
            "kin": kinematic_space(task_size, buffer, action_size),
            "rgb": image_space(*image_size),
        }
    )


#: Roll, pitch, yaw (rad) of an (x, y, z, w) quaternion: PyBullet's own conversion, in C.
euler = pybullet_module().getEulerFromQuaternion


def kinematic_vector(
    position: Sequence[float],
    quaternion: Sequence[float],
    velocity: Sequence[float],
    angular_velocity: Sequence[float],
    task: Sequence[float],
    buffer: Sequence[float] = (),
) -> np.ndarray:
    """One ``kin`` observation.

    The values are packed as float32 by :mod:`struct` (the same IEEE rounding as numpy's
    cast, in one C call) into a fresh buffer the array owns; a value too large for float32,
    which ``struct`` refuses, takes numpy's cast (to infinity) instead.
    """
    values = (*position, *quaternion, *euler(quaternion), *velocity, *angular_velocity, *task,
              *buffer)  # fmt: skip
    packer = _PACKERS.get(len(values))
    if packer is None:
        packer = _PACKERS[len(values)] = struct.Struct(f"={len(values)}f")
    try:
        return np.frombuffer(bytearray(packer.pack(*values)), np.float32)
    except (OverflowError, struct.error):
        return np.array(values, np.float32)


#: float32 packers by observation length (a handful of lengths occur).
_PACKERS: dict[int, struct.Struct] = {}


class Float32Packer:
    """Packs ``size`` floats as float32 bytes (``pack``), as :func:`kinematic_vector` does.

    An env keeps one for its observation length; unlike a :class:`struct.Struct`, it
    pickles (by its length).

    Args:
        size: Number of values packed.
    """

    __slots__ = ("pack", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.pack = struct.Struct(f"={size}f").pack

    def __reduce__(self) -> tuple[type[Float32Packer], tuple[int]]:
        return Float32Packer, (self.size,)


def neighbour_features(
    positions: np.ndarray, velocities: np.ndarray, count: int, distance: np.ndarray | None = None
) -> list[list[float]]:
    """Every drone's ``count`` nearest others: ``6 · count`` values per drone.

    Each neighbour's position and velocity relative to the drone, nearest first (ties
    broken by index). ``distance``: the drones' pairwise distances, infinite on the
    diagonal, if already computed.
    """
    drones = len(positions)
    if not count:
        return [[] for _ in range(drones)]
    if distance is None:
        distance = np.linalg.norm(positions[None, :, :] - positions[:, None, :], axis=-1)
        np.fill_diagonal(distance, np.inf)
    nearest = np.argsort(distance, axis=1, kind="stable")[:, :count]
    relative = np.concatenate(
        [
            positions[nearest] - positions[:, None, :],
            velocities[nearest] - velocities[:, None, :],
        ],
        axis=2,
    )
    return relative.reshape(drones, 6 * count).tolist()


class ActionBuffer:
    """The last ``length`` actions of one drone, flattened oldest first.

    Args:
        length: How many actions to keep, in ``[0, 100]``.
        action_size: Values per action.

    Raises:
        ValueError: ``length`` is not an int in ``[0, 100]``.
    """

    def __init__(self, length: int, action_size: int) -> None:
        self.length = action_buffer_length(length)
        self.action_size = action_size
        self.values: list[float] = [0.0] * (length * action_size)

    def clear(self) -> None:
        """Forget every action (zeros)."""
        self.values = [0.0] * (self.length * self.action_size)

    def push(self, action: Sequence[float] | None) -> None:
        """Append an action (a malformed one is recorded as zeros)."""
        if self.length:
            row = list(action) if action is not None else [0.0] * self.action_size
            self.values = self.values[self.action_size :] + row
