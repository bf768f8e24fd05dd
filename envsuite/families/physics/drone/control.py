"""envsuite's quadcopter controller: a cascaded PID / geometric (SE(3)) controller.

Position loop: a PID on the position error (with velocity and acceleration feed-forward)
gives the force the airframe should produce; its direction sets the desired body z axis,
the commanded yaw the rest of the desired attitude, and its projection on the current
body z axis the collective thrust. Attitude loop: the geometric attitude error of Lee,
Leok and McClamroch (2010), ``e_R = ½ vee(R_dᵀR − RᵀR_d)``, and the body-rate error give
the body torques, ``τ = J(−k_R e_R − k_ω e_ω) + ω × Jω``. The motor mixer turns thrust and
torques into motor speeds, clipped to the motors' range.

The gains are accelerations per unit error, so one set flies every airframe; they are tuned
for the slowest loop envsuite runs the controller at, the default 30 Hz control rate. The
controller uses the airframe's nominal constants, never the randomised ones of an episode,
so domain randomisation tests it as it would a real drone.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from envsuite.families.physics.drone.models import GRAVITY, QuadModel
from envsuite.families.physics.drone.rotations import cross, rotation_matrix
from envsuite.families.physics.drone.vector_math import dot3, inverse, norm3, transpose_times3


@dataclasses.dataclass(frozen=True)
class ControllerGains:
    """Gains of :class:`GeometricController` (per axis x, y, z where there are three).

    Attributes:
        position: Position gain (1/s²).
        velocity: Velocity gain (1/s).
        integral: Position-integral gain (1/s³).
        integral_limit: Largest integral-term acceleration (m/s²).
        integral_zone: The error is integrated on an axis only while it is smaller (m), so
            that long approaches do not wind the integral up.
        integral_speed: ... and while the speed along it is below this (m/s), so that the
            integral only learns steady offsets (a mass or thrust error), not approaches.
        attitude: Attitude gain k_R (1/s²) for roll, pitch, yaw.
        rate: Body-rate gain k_ω (1/s) for roll, pitch, yaw.
        ctbr_attitude: Gain from attitude error to commanded body rate (1/s), CTBR output.
    """

    position: tuple[float, float, float] = (8.0, 8.0, 8.0)
    velocity: tuple[float, float, float] = (4.5, 4.5, 4.5)
    integral: tuple[float, float, float] = (3.0, 3.0, 4.0)
    integral_limit: float = 2.0
    integral_zone: float = 0.3
    integral_speed: float = 0.15
    attitude: tuple[float, float, float] = (90.0, 90.0, 20.0)
    rate: tuple[float, float, float] = (15.0, 15.0, 7.0)
    ctbr_attitude: tuple[float, float, float] = (7.0, 7.0, 3.0)


class GeometricController:
    """Cascaded position / geometric attitude controller for one quadcopter.

    Args:
        model: The airframe (nominal constants).
        dt: Period at which :meth:`compute` is called (s); integrates the position error.
        gains: Controller gains.
    """

    def __init__(self, model: QuadModel, dt: float, gains: ControllerGains | None = None) -> None:
        self.model = model
        self.dt = float(dt)
        self.gains = gains or ControllerGains()
        self.inertia = np.asarray(model.inertia, dtype=np.float64)
        self.mixer_inverse = inverse(model.mixer())
        self.max_rpm_squared = model.max_rpm**2
        self.kp = np.asarray(self.gains.position)
        self.kd = np.asarray(self.gains.velocity)
        self.ki = np.asarray(self.gains.integral)
        self.k_attitude = np.asarray(self.gains.attitude)
        self.k_rate = np.asarray(self.gains.rate)
        self.k_ctbr = np.asarray(self.gains.ctbr_attitude)
        self.integral = np.zeros(3)
        self.max_tan_tilt = math.tan(model.max_tilt)

    def reset(self) -> None:
        """Forget the integrated position error."""
        self.integral = np.zeros(3)

    # -- the two loops -----------------------------------------------------------------
    def desired_force(
        self,
        position: np.ndarray,
        velocity: np.ndarray,
        target_position: np.ndarray,
        target_velocity: np.ndarray | None = None,
        target_acceleration: np.ndarray | None = None,
    ) -> np.ndarray:
        """The world-frame force (N) the position loop asks for (integrates its error)."""
        error = np.asarray(target_position, dtype=np.float64) - position
        velocity_error = -velocity if target_velocity is None else target_velocity - velocity
        inside = (np.abs(error) < self.gains.integral_zone) & (
            np.abs(velocity) < self.gains.integral_speed
        )
        self.integral = self.integral + np.where(inside, error, 0.0) * self.dt
        limit = self.gains.integral_limit / np.maximum(self.ki, 1e-9)
        self.integral = np.clip(self.integral, -limit, limit)
        acceleration = self.kp * error + self.kd * velocity_error + self.ki * self.integral
        if target_acceleration is not None:
            acceleration = acceleration + target_acceleration
        acceleration[2] = max(acceleration[2] + GRAVITY, 0.2 * GRAVITY)
        horizontal = math.hypot(acceleration[0], acceleration[1])
        largest = acceleration[2] * self.max_tan_tilt
        if horizontal > largest:
            acceleration[:2] *= largest / horizontal
        return np.asarray(self.model.mass * acceleration)

    def attitude_errors(
        self, quaternion: np.ndarray, force: np.ndarray, yaw: float
    ) -> tuple[np.ndarray, float, np.ndarray]:
        """Rotation matrix, collective thrust along the current body z, attitude error e_R.

        The products are written out (:mod:`~envsuite.families.physics.drone.vector_math`),
        not left to numpy's BLAS, so that they round alike on every CPU.
        """
        rotation = rotation_matrix(quaternion)
        z_desired = force / max(norm3(force), 1e-9)
        x_course = np.array([math.cos(yaw), math.sin(yaw), 0.0])
        y_desired = cross(z_desired, x_course)
        y_desired /= max(norm3(y_desired), 1e-9)
        x_desired = cross(y_desired, z_desired)
        xd, yd, zd = x_desired.tolist(), y_desired.tolist(), z_desired.tolist()
        xb, yb, zb = rotation.T.tolist()  # the body axes in the world frame: R's columns
        thrust = float(dot3(force, zb))
        # Entry (i, j) of R_dᵀR is desired axis i · body axis j, and RᵀR_d is its transpose:
        # the vee of their difference takes entries (2, 1), (0, 2) and (1, 0).
        error = 0.5 * np.array(
            [
                dot3(zd, yb) - dot3(zb, yd),
                dot3(xd, zb) - dot3(xb, zd),
                dot3(yd, xb) - dot3(yb, xd),
            ]
        )
        return rotation, thrust, error

    def compute(
        self,
        position: ArrayLike,
        quaternion: ArrayLike,
        velocity: ArrayLike,
        angular_velocity: ArrayLike,
        target_position: ArrayLike,
        target_velocity: ArrayLike | None = None,
        target_yaw: float = 0.0,
        target_acceleration: ArrayLike | None = None,
    ) -> np.ndarray:
        """Motor RPMs (4,) that steer the drone to the target.

        Args:
            position: Current position (world frame, m).
            quaternion: Current orientation, (x, y, z, w).
            velocity: Current velocity (world frame, m/s).
            angular_velocity: Current angular velocity (world frame, rad/s).
            target_position: Where to go (m).
            target_velocity: Velocity to hold there (m/s); zero when None.
            target_yaw: Heading to hold (rad).
            target_acceleration: Feed-forward acceleration (m/s²).
        """
        force = self.desired_force(
            np.asarray(position, dtype=np.float64),
            np.asarray(velocity, dtype=np.float64),
            np.asarray(target_position, dtype=np.float64),
            None if target_velocity is None else np.asarray(target_velocity, dtype=np.float64),
            None
            if target_acceleration is None
            else np.asarray(target_acceleration, dtype=np.float64),
        )
        rotation, thrust, error = self.attitude_errors(
            np.asarray(quaternion, dtype=np.float64), force, target_yaw
        )
        omega = np.asarray(angular_velocity, dtype=np.float64).tolist()
        rates = np.array(transpose_times3(rotation.tolist(), omega))  # body rates Rᵀω
        torque = self.inertia * (-self.k_attitude * error - self.k_rate * rates) + cross(
            rates, self.inertia * rates
        )
        return self.motor_speeds(thrust, torque)

    def compute_ctbr(
        self,
        position: ArrayLike,
        quaternion: ArrayLike,
        velocity: ArrayLike,
        target_position: ArrayLike,
        target_velocity: ArrayLike | None = None,
        target_yaw: float = 0.0,
        target_acceleration: ArrayLike | None = None,
    ) -> tuple[float, np.ndarray]:
        """Collective thrust (N) and body rates (rad/s) that steer the drone to the target."""
        force = self.desired_force(
            np.asarray(position, dtype=np.float64),
            np.asarray(velocity, dtype=np.float64),
            np.asarray(target_position, dtype=np.float64),
            None if target_velocity is None else np.asarray(target_velocity, dtype=np.float64),
            None
            if target_acceleration is None
            else np.asarray(target_acceleration, dtype=np.float64),
        )
        _, thrust, error = self.attitude_errors(
            np.asarray(quaternion, dtype=np.float64), force, target_yaw
        )
        return thrust, -self.k_ctbr * error

    def motor_speeds(self, thrust: float, torque: np.ndarray) -> np.ndarray:
        """RPMs producing ``thrust`` and ``torque`` as nearly as the motors allow.

        Yaw has the lowest priority: when the motors cannot give everything, the yaw torque
        is scaled down first, so that saturation never costs roll and pitch control.
        """
        return allocate(self.mixer_inverse, self.max_rpm_squared, thrust, torque)


def allocate(
    mixer_inverse: np.ndarray, max_rpm_squared: float, thrust: float, torque: np.ndarray
) -> np.ndarray:
    """Motor RPMs for a thrust and body torques, giving up yaw torque first if saturated.

    In plain floats: each motor's command is summed thrust, roll, then pitch term, as
    :meth:`RateController.motor_speeds_single` does, and both give the same floats (a BLAS
    product here would round per CPU, and numpy's calls cost more than this arithmetic).
    """
    tx, ty, tz = float(torque[0]), float(torque[1]), float(torque[2])
    rows = mixer_inverse.tolist()
    base = [m[0] * thrust + m[1] * tx + m[2] * ty for m in rows]
    yaw = [m[3] * tz for m in rows]
    scale = 1.0
    for command, part in zip(base, yaw, strict=True):
        if part > 0.0 and max_rpm_squared - command < part * scale:
            scale = max((max_rpm_squared - command) / part, 0.0)
        elif part < 0.0 and -command > part * scale:
            scale = max(-command / part, 0.0)
    wanted = [command + scale * part for command, part in zip(base, yaw, strict=True)]
    return np.sqrt(np.clip(wanted, 0.0, max_rpm_squared))


class RateController:
    """Body-rate loop of the CTBR action, run at the physics rate: ``τ = J k (ω_d − ω) + ω × Jω``.

    Args:
        model: The airframe (nominal constants).
        gain: Rate gain per axis (1/s).

    Attributes:
        damping: ``J k`` per axis, plain floats (the one-drone loops in pure Python).
        inertia_diagonal: ``J`` per axis, plain floats.
        mixer_inverse_rows: The inverse mixer's rows, plain floats: each motor's squared
            RPM per unit of thrust, roll, pitch and yaw torque.
    """

    def __init__(self, model: QuadModel, gain: Sequence[float] = (60.0, 60.0, 30.0)) -> None:
        self.inertia = np.asarray(model.inertia, dtype=np.float64)
        self.gain = np.asarray(gain, dtype=np.float64)
        self.mixer_inverse = inverse(model.mixer())
        self.max_rpm_squared = model.max_rpm**2
        self.damping: list[float] = (self.inertia * self.gain).tolist()
        self.inertia_diagonal: list[float] = self.inertia.tolist()
        self.mixer_inverse_rows: list[list[float]] = self.mixer_inverse.tolist()

    def motor_speeds_single(
        self,
        thrust: float,
        rates: tuple[float, float, float],
        desired: tuple[float, float, float],
    ) -> tuple[float, float, float, float]:
        """:meth:`motor_speeds` for one drone, in scalar Python (the per-physics-step path).

        The same control law and allocation as :meth:`motor_speeds` and :func:`allocate`,
        the same operations in the same order: the same floats. The drone envs' CTBR fast path
        (:meth:`FlightDynamics.advance_single_rates
        <envsuite.families.physics.drone.dynamics.FlightDynamics.advance_single_rates>`)
        runs this law written out inline, bit for bit.
        """
        p, q, r = rates
        (kx, ky, kz), (jx, jy, jz) = self.damping, self.inertia_diagonal
        hx, hy, hz = jx * p, jy * q, jz * r  # angular momentum Jω
        tx = kx * (desired[0] - p) + (q * hz - r * hy)
        ty = ky * (desired[1] - q) + (r * hx - p * hz)
        tz = kz * (desired[2] - r) + (p * hy - q * hx)
        limit = self.max_rpm_squared
        # The four motors unrolled; ``0.0 if v < 0.0 else v`` is ``max(v, 0.0)`` exactly
        # (NaN and signed zeros included), without the call.
        m0, m1, m2, m3 = self.mixer_inverse_rows
        b0, y0 = m0[0] * thrust + m0[1] * tx + m0[2] * ty, m0[3] * tz
        b1, y1 = m1[0] * thrust + m1[1] * tx + m1[2] * ty, m1[3] * tz
        b2, y2 = m2[0] * thrust + m2[1] * tx + m2[2] * ty, m2[3] * tz
        b3, y3 = m3[0] * thrust + m3[1] * tx + m3[2] * ty, m3[3] * tz
        scale = 1.0  # give up yaw torque first when a motor saturates
        for base, part in ((b0, y0), (b1, y1), (b2, y2), (b3, y3)):
            if part > 0.0 and limit - base < part * scale:
                value = (limit - base) / part
                scale = 0.0 if value < 0.0 else value
            elif part < 0.0 and -base > part * scale:
                value = -base / part
                scale = 0.0 if value < 0.0 else value
        w0, w1, w2, w3 = b0 + scale * y0, b1 + scale * y1, b2 + scale * y2, b3 + scale * y3
        w0 = 0.0 if w0 < 0.0 else limit if limit < w0 else w0
        w1 = 0.0 if w1 < 0.0 else limit if limit < w1 else w1
        w2 = 0.0 if w2 < 0.0 else limit if limit < w2 else w2
        w3 = 0.0 if w3 < 0.0 else limit if limit < w3 else w3
        return math.sqrt(w0), math.sqrt(w1), math.sqrt(w2), math.sqrt(w3)

    def motor_speeds(
        self, thrust: np.ndarray, rates: np.ndarray, desired: np.ndarray
    ) -> np.ndarray:
        """RPMs ``(N, 4)`` for thrusts ``(N,)``, body rates ``(N, 3)``, desired rates ``(N, 3)``."""
        inertia = self.inertia
        torque = inertia * self.gain * (desired - rates) + cross(rates, inertia * rates)
        return np.stack(
            [
                allocate(self.mixer_inverse, self.max_rpm_squared, float(t), tau)
                for t, tau in zip(thrust, torque, strict=True)
            ]
        )
