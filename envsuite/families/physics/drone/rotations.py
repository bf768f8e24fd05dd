"""Quaternion and rotation-matrix helpers (PyBullet's (x, y, z, w) quaternion order)."""

from __future__ import annotations

import math

import numpy as np


def rotation_matrix(quaternion: np.ndarray) -> np.ndarray:
    """Body-to-world rotation matrices of quaternions ``(..., 4)`` as ``(..., 3, 3)``."""
    q = np.asarray(quaternion, dtype=np.float64)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz = x * y, x * z, y * z
    wx, wy, wz = w * x, w * y, w * z
    out = np.empty((*q.shape[:-1], 3, 3))
    out[..., 0, 0] = 1 - 2 * (yy + zz)
    out[..., 0, 1] = 2 * (xy - wz)
    out[..., 0, 2] = 2 * (xz + wy)
    out[..., 1, 0] = 2 * (xy + wz)
    out[..., 1, 1] = 1 - 2 * (xx + zz)
    out[..., 1, 2] = 2 * (yz - wx)
    out[..., 2, 0] = 2 * (xz - wy)
    out[..., 2, 1] = 2 * (yz + wx)
    out[..., 2, 2] = 1 - 2 * (xx + yy)
    return out


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross products of 3-vectors ``(..., 3)`` (``np.cross`` is slow on small arrays)."""
    out = np.empty(np.broadcast_shapes(np.shape(a), np.shape(b)))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def euler_from_quaternion(quaternion: np.ndarray) -> np.ndarray:
    """Roll, pitch, yaw (rad, extrinsic x-y-z as PyBullet's) of quaternions ``(..., 4)``."""
    x, y, z, w = np.moveaxis(np.asarray(quaternion, dtype=np.float64), -1, 0)
    roll = np.arctan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = np.arcsin(np.clip(2 * (w * y - z * x), -1.0, 1.0))
    yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return np.stack([roll, pitch, yaw], axis=-1)


def quaternion_from_euler(roll: float, pitch: float, yaw: float) -> tuple[float, ...]:
    """The (x, y, z, w) quaternion of roll, pitch, yaw (rad)."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )


def quaternion_from_yaw(yaw: float) -> tuple[float, float, float, float]:
    """The (x, y, z, w) quaternion of a level attitude with heading ``yaw`` (rad)."""
    half = 0.5 * yaw
    return (0.0, 0.0, math.sin(half), math.cos(half))


def integrate_quaternion(quaternion: np.ndarray, body_rates: np.ndarray, dt: float) -> np.ndarray:
    """Rotate quaternions ``(N, 4)`` by body rates ``(N, 3)`` held for ``dt``.

    Exact for constant rates; the result is renormalised.
    """
    angle = np.linalg.norm(body_rates, axis=-1) * dt
    half = 0.5 * angle
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(angle > 1e-12, np.sin(half) / np.where(angle > 0, angle, 1.0), 0.5)
    axis = body_rates * dt * scale[..., None]
    dq = np.concatenate([axis, np.cos(half)[..., None]], axis=-1)
    result = quaternion_multiply(quaternion, dq)
    return result / np.linalg.norm(result, axis=-1, keepdims=True)


def quaternion_multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton products ``a ⊗ b`` of (x, y, z, w) quaternions."""
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )
