"""Aerodynamic effects beyond rigid-body thrust: ground effect, rotor drag and downwash.

The three models and their coefficients are those of gym-pybullet-drones (Panerati et al.
2021, section 3), vectorised over drones:

- Ground effect (after Shi et al. 2019): each propeller at height ``h`` gains thrust
  ``kf·ω²·c_gnd·(r_prop / 4h)²``, with ``h`` clipped from below where the model would
  exceed the thrust it is fitted to; applied only while the drone is upright.
- Drag (Förster 2015): a body-frame force ``−C ⊙ v_body · Σ 2πω/60`` proportional to the
  propellers' total angular speed. gym-pybullet-drones multiplies the coefficients with the
  world-frame velocity before rotating it; envsuite applies them in the body frame, where
  they were identified.
- Downwash (fitted at the Dynamic Systems Lab): a drone at ``Δz`` below another and ``Δxy``
  beside it is pushed down by ``c1·(r_prop / 4Δz)²·exp(−½(Δxy / β)²)``, ``β = c2·Δz + c3``.
  envsuite applies it along world −z (the reference applies it along the lower drone's body
  z) and, since the fit diverges as ``Δz → 0`` and ``β`` crosses zero at ``Δz ≈ 0.69 m``,
  keeps ``β`` at least one propeller radius and caps the peak push ``c1·(r_prop / 4Δz)²``
  (right below the upper drone) at the upper drone's thrust.
"""

from __future__ import annotations

import numpy as np

from envsuite.families.physics.drone.models import QuadModel

#: Drones further apart horizontally than this feel no downwash (m), as in the reference.
DOWNWASH_RANGE = 10.0


def ground_effect_clip(model: QuadModel) -> float:
    """Smallest propeller height the ground-effect model uses (m), as in the reference."""
    return float(
        0.25
        * model.prop_radius
        * np.sqrt(15 * model.max_rpm**2 * model.kf * model.ground_effect_coeff / model.max_thrust)
    )


def ground_effect_thrust(
    model: QuadModel,
    kf: np.ndarray,
    rpm_squared: np.ndarray,
    positions: np.ndarray,
    rotations: np.ndarray,
) -> np.ndarray:
    """Extra thrust of each propeller from the ground, ``(N, 4)`` (N).

    Args:
        model: The airframe.
        kf: Each drone's thrust coefficient ``(N,)``.
        rpm_squared: Squared motor RPMs ``(N, 4)``.
        positions: Drone positions ``(N, 3)``.
        rotations: Body-to-world rotations ``(N, 3, 3)``.
    """
    motors = np.zeros((4, 3))
    motors[:, :2] = np.asarray(model.motor_xy)
    heights = positions[:, 2:3] + np.einsum("nj,mj->nm", rotations[:, 2, :], motors)
    heights = np.maximum(heights, ground_effect_clip(model))
    extra = kf[:, None] * rpm_squared * model.ground_effect_coeff
    extra = extra * (model.prop_radius / (4.0 * heights)) ** 2
    # Upright (|roll| and |pitch| below 90°) exactly when body z points up.
    upright = (rotations[:, 2, 2] > 0.0) & (np.abs(rotations[:, 2, 0]) < 1.0)
    return np.where(upright[:, None], extra, 0.0)


def drag_force(
    model: QuadModel, rpm: np.ndarray, velocities: np.ndarray, rotations: np.ndarray
) -> np.ndarray:
    """Rotor drag in the body frame, ``(N, 3)`` (N)."""
    body_velocity = np.einsum("nji,nj->ni", rotations, velocities)
    spin = (2.0 * np.pi / 60.0) * rpm.sum(axis=1)
    return -np.asarray(model.drag_coeff) * body_velocity * spin[:, None]


def downwash_force(model: QuadModel, positions: np.ndarray, thrusts: np.ndarray) -> np.ndarray:
    """Downwash on each drone from every drone above it, world frame ``(N, 3)`` (N).

    Args:
        model: The airframe (all drones share it).
        positions: Drone positions ``(N, 3)``.
        thrusts: Each drone's total thrust ``(N,)``, the cap of the force it causes.
    """
    c1, c2, c3 = model.downwash_coeffs
    # delta[i, j]: drone j relative to drone i.
    delta = positions[None, :, :] - positions[:, None, :]
    dz = delta[..., 2]
    dxy = np.hypot(delta[..., 0], delta[..., 1])
    above = (dz > 0.0) & (dxy < DOWNWASH_RANGE)
    safe_dz = np.where(above, dz, 1.0)
    alpha = c1 * (model.prop_radius / (4.0 * safe_dz)) ** 2
    # The push right below a drone is at most that drone's thrust.
    alpha = np.minimum(alpha, np.maximum(thrusts, 0.0)[None, :])
    beta = np.maximum(np.abs(c2 * safe_dz + c3), model.prop_radius)
    push = alpha * np.exp(-0.5 * (dxy / beta) ** 2)
    force = np.zeros_like(positions)
    force[:, 2] = -np.where(above, push, 0.0).sum(axis=1)
    return force
