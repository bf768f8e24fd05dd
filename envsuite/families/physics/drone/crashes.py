"""When a drone has crashed: the rules every drone task shares.

A drone crashes when it touches the ground (its centre comes within half its collision
height plus 1 cm of the floor), tilts more than :data:`CRASH_TILT`, or leaves the task's
flight box. Drones collide when their centres come closer than twice the collision radius.
All rules are geometric, so they hold alike in every physics mode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from envsuite.families.physics.drone.models import QuadModel

#: Largest tilt (angle between body z and world z) before a drone counts as crashed.
CRASH_TILT = math.radians(75.0)
_COS_CRASH_TILT = math.cos(CRASH_TILT)

GROUND = "ground"
TILT = "tilt"
OUT_OF_BOUNDS = "out_of_bounds"
COLLISION = "collision"
GATE_FRAME = "gate_frame"


class CrashRule:
    """The crash test of one airframe in one flight box (its limits worked out once).

    Args:
        model: The airframe.
        half_width: The flight box spans ``[-half_width, half_width]`` in x and y (m).
        ceiling: The flight box's top (m).
    """

    __slots__ = ("ceiling", "floor", "half_width")

    def __init__(self, model: QuadModel, half_width: float, ceiling: float) -> None:
        self.floor = 0.5 * model.collision_height + 0.01
        self.half_width = half_width
        self.ceiling = ceiling

    def reason(self, position: Sequence[float], quaternion: Sequence[float]) -> str | None:
        """Why a drone at this pose (quaternion x, y, z, w) has crashed, or None."""
        x, y, z = position
        qx, qy = quaternion[0], quaternion[1]
        if z < self.floor:
            return GROUND
        # Body z's world z component is 1 - 2(qx² + qy²).
        if 1.0 - 2.0 * (qx * qx + qy * qy) < _COS_CRASH_TILT:
            return TILT
        half_width = self.half_width
        if x > half_width or x < -half_width or y > half_width or y < -half_width:
            return OUT_OF_BOUNDS
        if z > self.ceiling:
            return OUT_OF_BOUNDS
        return None


def pairwise_distances(positions: np.ndarray) -> np.ndarray:
    """Distances between drones ``(N, N)`` (m), infinite on the diagonal."""
    distance = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    np.fill_diagonal(distance, np.inf)
    return distance


def colliding_pairs(
    model: QuadModel,
    positions: np.ndarray,
    active: np.ndarray,
    distance: np.ndarray | None = None,
) -> set[int]:
    """Indices of active drones closer than two collision radii to another active drone.

    Args:
        model: The airframe.
        positions: Drone positions ``(N, 3)``.
        active: Which drones still fly ``(N,)``.
        distance: :func:`pairwise_distances` of ``positions``, if already computed.
    """
    if len(positions) < 2:
        return set()
    if distance is None:
        distance = pairwise_distances(positions)
    close = (distance < 2.0 * model.collision_radius) & active[:, None] & active[None, :]
    return {int(i) for i in np.flatnonzero(close.any(axis=1))}
