"""Cameras: the drone's onboard camera (observations) and a chase camera (``render``).

Both use PyBullet's CPU TinyRenderer, which works in DIRECT mode without a display or GPU
and gives the same pixels for the same scene.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envsuite.families.physics.drone.rotations import rotation_matrix

#: Field of view of both cameras (degrees), as gym-pybullet-drones'.
FIELD_OF_VIEW = 60.0
#: Chase-camera resolution (width, height) of ``render()``.
RENDER_SIZE = (320, 240)


def _image(p: Any, client: int, width: int, height: int, view: Any, projection: Any) -> np.ndarray:
    _, _, pixels, _, _ = p.getCameraImage(
        width,
        height,
        viewMatrix=view,
        projectionMatrix=projection,
        renderer=p.ER_TINY_RENDERER,
        flags=p.ER_NO_SEGMENTATION_MASK,
        physicsClientId=client,
    )
    rgba = np.asarray(pixels, dtype=np.uint8).reshape(height, width, 4)
    return np.ascontiguousarray(rgba[:, :, :3])


def onboard_image(
    p: Any,
    client: int,
    position: Sequence[float],
    quaternion: Sequence[float],
    size: tuple[int, int],
    arm: float,
) -> np.ndarray:
    """What a forward-looking camera on the drone sees, ``(height, width, 3)`` uint8.

    The camera sits one arm length ahead of the centre of mass, looks along the body x
    axis, and rolls and pitches with the drone.
    """
    rotation = rotation_matrix(np.asarray(quaternion, dtype=np.float64))
    forward, up = rotation[:, 0], rotation[:, 2]
    eye = np.asarray(position, dtype=np.float64) + arm * forward
    width, height = size
    view = p.computeViewMatrix(
        cameraEyePosition=eye.tolist(),
        cameraTargetPosition=(eye + forward).tolist(),
        cameraUpVector=up.tolist(),
        physicsClientId=client,
    )
    projection = p.computeProjectionMatrixFOV(
        fov=FIELD_OF_VIEW, aspect=width / height, nearVal=0.5 * arm, farVal=100.0
    )
    return _image(p, client, width, height, view, projection)


def chase_image(
    p: Any,
    client: int,
    target: Sequence[float],
    distance: float,
    size: tuple[int, int] = RENDER_SIZE,
) -> np.ndarray:
    """A view of ``target`` from behind and above, ``(height, width, 3)`` uint8."""
    width, height = size
    view = p.computeViewMatrixFromYawPitchRoll(
        cameraTargetPosition=[float(v) for v in target],
        distance=distance,
        yaw=-30.0,
        pitch=-30.0,
        roll=0.0,
        upAxisIndex=2,
        physicsClientId=client,
    )
    projection = p.computeProjectionMatrixFOV(
        fov=FIELD_OF_VIEW, aspect=width / height, nearVal=0.05, farVal=100.0
    )
    return _image(p, client, width, height, view, projection)
