"""Flight dynamics: motors, physics modes and advancing the world by one control step.

Physics modes (the ``physics`` argument of every drone env), named as in
gym-pybullet-drones:

=================  ==========================================================================
``pyb``            PyBullet rigid body: each physics step applies the motors' wrench (total
                   thrust and body torques) and calls ``stepSimulation``.
``dyn``            Explicit dynamics, no ``stepSimulation``: Newton–Euler equations integrated
                   by envsuite (semi-implicit Euler, exact quaternion update); the ground is an
                   inelastic floor and drones pass through each other (collisions are still
                   detected by the tasks). Poses are written to PyBullet once per control
                   step, for cameras and rendering.
``pyb_gnd``        ``pyb`` plus ground effect.
``pyb_drag``       ``pyb`` plus rotor drag.
``pyb_dw``         ``pyb`` plus downwash between drones.
``pyb_gnd_drag_dw``  all three effects together.
=================  ==========================================================================

Any engine (``pyb``, ``dyn``) may be followed by any of ``gnd``, ``drag``, ``dw`` in that
order (``dyn_gnd_drag_dw`` is explicit dynamics with every effect). Wind, motor lag and the
CTBR body-rate loop work in every mode. The ``dyn`` equations for thousands of drones at
once, as arrays, are :mod:`~envsuite.families.physics.drone.batch_dynamics` (the engine of
the drone tasks' batched vector env). See :mod:`~envsuite.families.physics.drone.aerodynamics`
for the effect models.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from envsuite.families.physics.drone import aerodynamics
from envsuite.families.physics.drone.control import RateController
from envsuite.families.physics.drone.models import GRAVITY, QuadModel
from envsuite.families.physics.drone.randomization import DroneParameters
from envsuite.families.physics.drone.rotations import (
    cross,
    integrate_quaternion,
    rotation_matrix,
)
from envsuite.families.physics.drone.vector_math import matvec_columns, times3
from envsuite.families.physics.drone.wind import Wind, WindConfig
from envsuite.families.physics.drone.world import DroneWorld, pybullet_module

ENGINES = ("pyb", "dyn")
EFFECTS = ("gnd", "drag", "dw")
#: Lowest and highest physics frequency accepted (Hz).
PHYSICS_FREQ_RANGE = (60, 20_000)

FREQUENCY_NOT_INT = "{name} must be a positive int (Hz), got {value!r}"
FREQUENCY_RANGE = "physics_freq must lie in [{low}, {high}] Hz, got {value}"
FREQUENCY_ORDER = "ctrl_freq ({ctrl} Hz) must not exceed physics_freq ({physics} Hz)"
FREQUENCY_DIVISIBLE = (
    "physics_freq ({physics} Hz) must be a multiple of ctrl_freq ({ctrl} Hz), so that every "
    "control step holds a whole number of physics steps; e.g. physics_freq={suggestion}"
)
UNKNOWN_PHYSICS = (
    "physics must be an engine ('pyb' or 'dyn') optionally followed by effects in the order "
    "'_gnd', '_drag', '_dw' (e.g. 'pyb_gnd_drag_dw'), got {value!r}"
)


class FrequencyError(ValueError):
    """The physics and control frequencies do not fit together."""


def validate_frequencies(physics_freq: Any, ctrl_freq: Any) -> int:
    """Check the two frequencies and return the physics steps per control step.

    Raises:
        FrequencyError: a frequency is not a positive int, physics_freq is outside
            :data:`PHYSICS_FREQ_RANGE`, ctrl_freq exceeds it, or does not divide it.
    """
    for name, value in (("physics_freq", physics_freq), ("ctrl_freq", ctrl_freq)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value <= 0:
            raise FrequencyError(FREQUENCY_NOT_INT.format(name=name, value=value))
    low, high = PHYSICS_FREQ_RANGE
    if not low <= physics_freq <= high:
        raise FrequencyError(FREQUENCY_RANGE.format(low=low, high=high, value=physics_freq))
    if ctrl_freq > physics_freq:
        raise FrequencyError(FREQUENCY_ORDER.format(ctrl=ctrl_freq, physics=physics_freq))
    if physics_freq % ctrl_freq:
        suggestion = ctrl_freq * math.ceil(physics_freq / ctrl_freq)
        raise FrequencyError(
            FREQUENCY_DIVISIBLE.format(physics=physics_freq, ctrl=ctrl_freq, suggestion=suggestion)
        )
    return int(physics_freq // ctrl_freq)


def parse_physics(physics: Any) -> tuple[str, frozenset[str]]:
    """Split a physics mode into its engine and its effects.

    Raises:
        ValueError: not a known engine followed by effects in canonical order.
    """
    if not isinstance(physics, str):
        raise ValueError(UNKNOWN_PHYSICS.format(value=physics))
    engine, *effects = physics.split("_")
    ordered = [e for e in EFFECTS if e in effects]
    if engine not in ENGINES or effects != ordered or len(set(effects)) != len(effects):
        raise ValueError(UNKNOWN_PHYSICS.format(value=physics))
    return engine, frozenset(effects)


@dataclasses.dataclass
class FlightState:
    """Kinematic state of N drones (world frame; arrays over drones)."""

    position: np.ndarray
    quaternion: np.ndarray
    velocity: np.ndarray
    angular_velocity: np.ndarray


#: One drone's position, quaternion (x, y, z, w), velocity and angular velocity (world).
SingleState = tuple[Sequence[float], Sequence[float], Sequence[float], Sequence[float]]

#: An onboard loop run every physics step: state -> motor RPM commands (N, 4).
OnboardLoop = Callable[[FlightState], np.ndarray]


class FlightDynamics:
    """Advances the drones of a :class:`DroneWorld` by one control step.

    Args:
        world: The PyBullet world.
        physics: Physics mode (see the module docstring).
        ctrl_freq: Control steps per second; ``world.physics_freq`` must be a multiple.
        wind: Wind settings, or None for still air.
    """

    def __init__(
        self, world: DroneWorld, physics: str, ctrl_freq: int, wind: WindConfig | None
    ) -> None:
        self.world = world
        self.model: QuadModel = world.model
        self.engine, self.effects = parse_physics(physics)
        self.substeps = validate_frequencies(world.physics_freq, ctrl_freq)
        self.dt = 1.0 / world.physics_freq
        self.count = world.num_drones
        self.wind = None if wind is None else Wind(wind, 1.0 / ctrl_freq)
        self.set_parameters(DroneParameters.nominal(self.model, self.count))
        #: Motor speeds (N, 4), RPM.
        self.rpm = np.full((self.count, 4), self.model.hover_rpm)
        zeros = np.zeros((self.count, 3))
        self.explicit = FlightState(zeros.copy(), np.tile([0.0, 0.0, 0.0, 1.0], (self.count, 1)),
                                    zeros.copy(), zeros.copy())  # fmt: skip
        self.body_rates = zeros.copy()
        self.motor_xy = np.asarray(self.model.motor_xy, dtype=np.float64)

    # -- episode set-up ----------------------------------------------------------------
    def set_parameters(self, parameters: DroneParameters) -> None:
        """Use these motor coefficients and motor lags from now on.

        The PyBullet bodies get the parameters' masses and inertias from
        :meth:`apply_inertials`.
        """
        self.parameters = parameters
        self.mixers = np.stack(
            [
                self.model.mixer(float(kf), float(km))
                for kf, km in zip(parameters.kf, parameters.km, strict=True)
            ]
        )
        lag = parameters.motor_lag
        self.lag_alpha = np.where(lag > 0, -np.expm1(-self.dt / np.maximum(lag, 1e-12)), 1.0)
        self.has_lag = bool(np.any(lag > 0))
        #: Whether a control step needs no state inside it (the common, fastest case).
        self.fast = (
            self.engine == "pyb" and not self.effects and self.wind is None and not self.has_lag
        )
        self._mix0 = self.mixers[0].tolist()

    def apply_inertials(self) -> None:
        """Give the PyBullet bodies this episode's masses and inertias."""
        for drone in range(self.count):
            self.world.set_inertial(
                drone, self.parameters.mass[drone], self.parameters.inertia[drone]
            )

    def start(self, positions: np.ndarray, quaternions: np.ndarray) -> None:
        """Put the drones at rest at these poses, motors at hover speed."""
        self.rpm = np.full((self.count, 4), self.model.hover_rpm)
        for drone, body in enumerate(self.world.drones):
            self.world.place(body, positions[drone].tolist(), quaternions[drone].tolist())
        self.explicit.position = np.array(positions, dtype=np.float64)
        self.explicit.quaternion = np.array(quaternions, dtype=np.float64)
        self.explicit.velocity = np.zeros((self.count, 3))
        self.body_rates = np.zeros((self.count, 3))

    def start_single(self, position: Sequence[float], quaternion: Sequence[float]) -> None:
        """:meth:`start` for a world with one drone (the common case, made quick)."""
        if not self.fast:  # the fast path neither reads nor keeps the motor speeds
            self.rpm = np.full((1, 4), self.model.hover_rpm)
        body, cid = self.world.drones[0], self.world.client
        _RESET_POSE(body, position, quaternion, cid)
        _RESET_VELOCITY(body, _ORIGIN, _ORIGIN, cid)
        if self.engine == "dyn":
            self.explicit.position = np.array([position], dtype=np.float64)
            self.explicit.quaternion = np.array([quaternion], dtype=np.float64)
            self.explicit.velocity = np.zeros((1, 3))
            self.body_rates = np.zeros((1, 3))

    # -- state -------------------------------------------------------------------------
    def states(self) -> FlightState:
        """Every drone's state."""
        if self.engine == "dyn":
            state = self.explicit
            rotations = rotation_matrix(state.quaternion)
            return FlightState(
                state.position.copy(),
                state.quaternion.copy(),
                state.velocity.copy(),
                np.einsum("nij,nj->ni", rotations, self.body_rates),
            )
        cid = self.world.client
        rows = []
        for body in self.world.drones:
            (position, quaternion), (velocity, angular) = (
                _GET_POSE(body, cid),
                _GET_VELOCITY(body, cid),
            )
            rows.append((*position, *quaternion, *velocity, *angular))
        table = np.array(rows)  # one array, (N, 13); the state's fields are views of it
        return FlightState(table[:, 0:3], table[:, 3:7], table[:, 7:10], table[:, 10:13])

    def single_state(self, drone: int = 0) -> SingleState:
        """One drone's position, quaternion, velocity and angular velocity (world frame)."""
        if self.engine == "pyb":
            body, cid = self.world.drones[drone], self.world.client
            position, quaternion = _GET_POSE(body, cid)
            velocity, angular = _GET_VELOCITY(body, cid)
            return position, quaternion, velocity, angular
        state = self.explicit
        rotation = rotation_matrix(state.quaternion[drone]).tolist()
        return (
            state.position[drone].tolist(),
            state.quaternion[drone].tolist(),
            state.velocity[drone].tolist(),
            list(times3(rotation, self.body_rates[drone].tolist())),  # world frame: R ω_body
        )

    # -- stepping ----------------------------------------------------------------------
    def advance_single(self, r0: float, r1: float, r2: float, r3: float) -> SingleState:
        """Fast path for one drone with constant motor commands (requires :attr:`fast`).

        Returns the drone's state after the control step, as :meth:`single_state` would.
        Nothing in the fast physics reads the motor speeds, so :attr:`rpm` is not kept up
        to date here (it is whenever motor lag or drag need it). The wrench (thrust and body
        torques through the mixer) is computed inline, in scalar Python: the per-step hot
        path.
        """
        m0, m1, m2, m3 = self._mix0
        w0, w1, w2, w3 = r0 * r0, r1 * r1, r2 * r2, r3 * r3
        force = [0.0, 0.0, m0[0] * w0 + m0[1] * w1 + m0[2] * w2 + m0[3] * w3]
        torque = [
            m1[0] * w0 + m1[1] * w1 + m1[2] * w2 + m1[3] * w3,
            m2[0] * w0 + m2[1] * w1 + m2[2] * w2 + m2[3] * w3,
            m3[0] * w0 + m3[1] * w1 + m3[2] * w2 + m3[3] * w3,
        ]
        # Positional arguments: PyBullet parses keywords about twice as slowly.
        apply_force, apply_torque, step = _APPLY_FORCE, _APPLY_TORQUE, _STEP
        body, cid = self.world.drones[0], self.world.client
        for _ in range(self.substeps):
            apply_force(body, -1, force, _ORIGIN, _LINK_FRAME, cid)
            apply_torque(body, -1, torque, _LINK_FRAME, cid)
            step(cid)
        position, quaternion = _GET_POSE(body, cid)
        velocity, angular = _GET_VELOCITY(body, cid)
        return position, quaternion, velocity, angular

    def advance_single_rates(
        self, thrust: float, desired: tuple[float, float, float], loop: RateController
    ) -> SingleState:
        """Fast path of the CTBR action for one drone (requires :attr:`fast`).

        Every physics step reads the drone's attitude and angular velocity, turns the
        angular velocity into body rates (``Rᵀω``), runs ``loop``'s control law and motor
        allocation and applies the motors' wrench, all in scalar Python: numpy's per-call
        cost is larger than this arithmetic on 3-vectors. The law is
        :meth:`RateController.motor_speeds_single
        <envsuite.families.physics.drone.control.RateController.motor_speeds_single>`
        written out inline (a call per physics step costs more than the law's arithmetic);
        the tests check that both give the same motor speeds to the last bit. Returns the
        state after the control step, as :meth:`single_state` would.
        """
        apply_force, apply_torque, step = _APPLY_FORCE, _APPLY_TORQUE, _STEP
        get_pose, get_velocity, sqrt = _GET_POSE, _GET_VELOCITY, math.sqrt
        body, cid = self.world.drones[0], self.world.client
        m0, m1, m2, m3 = self._mix0
        (kx, ky, kz), (jx, jy, jz) = loop.damping, loop.inertia_diagonal
        n0, n1, n2, n3 = loop.mixer_inverse_rows
        limit = loop.max_rpm_squared
        d0, d1, d2 = desired
        # The thrust's part of each motor's base command is the same every physics step.
        t0, t1, t2, t3 = n0[0] * thrust, n1[0] * thrust, n2[0] * thrust, n3[0] * thrust
        for _ in range(self.substeps):
            x, y, z, w = get_pose(body, cid)[1]
            ox, oy, oz = get_velocity(body, cid)[1]
            xx, yy, zz = x * x, y * y, z * z
            xy, xz, yz = x * y, x * z, y * z
            wx, wy, wz = w * x, w * y, w * z
            # Body rates Rᵀω, R the body-to-world rotation of the quaternion.
            p = (1 - 2 * (yy + zz)) * ox + 2 * (xy + wz) * oy + 2 * (xz - wy) * oz
            q = 2 * (xy - wz) * ox + (1 - 2 * (xx + zz)) * oy + 2 * (yz + wx) * oz
            r = 2 * (xz + wy) * ox + 2 * (yz - wx) * oy + (1 - 2 * (xx + yy)) * oz
            # The rate law τ = J k (ω_d − ω) + ω × Jω, then the allocation giving up yaw
            # first, as motor_speeds_single.
            hx, hy, hz = jx * p, jy * q, jz * r
            tx = kx * (d0 - p) + (q * hz - r * hy)
            ty = ky * (d1 - q) + (r * hx - p * hz)
            tz = kz * (d2 - r) + (p * hy - q * hx)
            b0, y0 = t0 + n0[1] * tx + n0[2] * ty, n0[3] * tz
            b1, y1 = t1 + n1[1] * tx + n1[2] * ty, n1[3] * tz
            b2, y2 = t2 + n2[1] * tx + n2[2] * ty, n2[3] * tz
            b3, y3 = t3 + n3[1] * tx + n3[2] * ty, n3[3] * tz
            scale = 1.0
            for base, part in ((b0, y0), (b1, y1), (b2, y2), (b3, y3)):
                if part > 0.0 and limit - base < part * scale:
                    value = (limit - base) / part
                    scale = 0.0 if value < 0.0 else value
                elif part < 0.0 and -base > part * scale:
                    value = -base / part
                    scale = 0.0 if value < 0.0 else value
            w0, w1, w2, w3 = b0 + scale * y0, b1 + scale * y1, b2 + scale * y2, b3 + scale * y3
            # Clipped, rooted and squared again, as the motor speeds round.
            w0 = sqrt(0.0 if w0 < 0.0 else limit if limit < w0 else w0)
            w1 = sqrt(0.0 if w1 < 0.0 else limit if limit < w1 else w1)
            w2 = sqrt(0.0 if w2 < 0.0 else limit if limit < w2 else w2)
            w3 = sqrt(0.0 if w3 < 0.0 else limit if limit < w3 else w3)
            w0, w1, w2, w3 = w0 * w0, w1 * w1, w2 * w2, w3 * w3  # the wrench, as advance_single
            apply_force(body, -1, [0.0, 0.0, m0[0] * w0 + m0[1] * w1 + m0[2] * w2 + m0[3] * w3],
                        _ORIGIN, _LINK_FRAME, cid)  # fmt: skip
            apply_torque(body, -1, [m1[0] * w0 + m1[1] * w1 + m1[2] * w2 + m1[3] * w3,
                                    m2[0] * w0 + m2[1] * w1 + m2[2] * w2 + m2[3] * w3,
                                    m3[0] * w0 + m3[1] * w1 + m3[2] * w2 + m3[3] * w3],
                         _LINK_FRAME, cid)  # fmt: skip
            step(cid)
        position, quaternion = get_pose(body, cid)
        velocity, angular = get_velocity(body, cid)
        return position, quaternion, velocity, angular

    def advance(self, rpm_command: np.ndarray | None, onboard: OnboardLoop | None = None) -> None:
        """Advance one control step.

        Args:
            rpm_command: Motor RPM commands ``(N, 4)``, held for the control step (ignored
                when ``onboard`` is given).
            onboard: A loop run every physics step that computes the commands from the
                state (the CTBR rate loop).
        """
        max_rpm = self.model.max_rpm
        if onboard is None and rpm_command is not None:
            rpm_command = np.clip(rpm_command, 0.0, max_rpm)
            if self.fast:
                self._advance_constant(rpm_command)
                return
        needs_state = bool(
            self.effects or self.wind is not None or onboard is not None or self.engine == "dyn"
        )
        state: FlightState | None = None
        for _ in range(self.substeps):
            if needs_state:
                state = self.states()
            command = rpm_command
            if onboard is not None:
                assert state is not None
                command = np.clip(onboard(state), 0.0, max_rpm)
            assert command is not None
            if self.has_lag:
                self.rpm = self.rpm + self.lag_alpha[:, None] * (command - self.rpm)
            else:
                self.rpm = np.array(command, dtype=np.float64)
            force, torque = self._wrench(state)
            if self.engine == "pyb":
                self._apply(force, torque)
                _P.stepSimulation(physicsClientId=self.world.client)
            else:
                self._integrate(force, torque)
        if self.engine == "dyn":
            self._sync_world()
        if self.wind is not None:
            self.wind.advance()

    def _advance_constant(self, rpm_command: np.ndarray) -> None:
        squared = rpm_command * rpm_command
        wrench = np.einsum("nij,nj->ni", self.mixers, squared)
        forces = [[0.0, 0.0, thrust] for thrust in wrench[:, 0].tolist()]
        torques = wrench[:, 1:].tolist()
        apply_force, apply_torque, step = _APPLY_FORCE, _APPLY_TORQUE, _STEP
        cid = self.world.client
        pairs = list(zip(self.world.drones, forces, torques, strict=True))
        for _ in range(self.substeps):
            for body, force, torque in pairs:
                apply_force(body, -1, force, _ORIGIN, _LINK_FRAME, cid)
                apply_torque(body, -1, torque, _LINK_FRAME, cid)
            step(cid)
        self.rpm = rpm_command

    def _wrench(self, state: FlightState | None) -> tuple[np.ndarray, np.ndarray]:
        """Body-frame force and torque on every drone from motors, effects and wind."""
        squared = self.rpm * self.rpm
        wrench = np.einsum("nij,nj->ni", self.mixers, squared)
        force = np.zeros((self.count, 3))
        force[:, 2] = wrench[:, 0]
        torque = wrench[:, 1:].copy()
        if state is None or not (self.effects or self.wind is not None):
            return force, torque
        rotations = rotation_matrix(state.quaternion)
        if "gnd" in self.effects:
            extra = aerodynamics.ground_effect_thrust(
                self.model, self.parameters.kf, squared, state.position, rotations
            )
            force[:, 2] += extra.sum(axis=1)
            torque[:, 0] += matvec_columns(extra, self.motor_xy[:, 1].tolist())
            torque[:, 1] -= matvec_columns(extra, self.motor_xy[:, 0].tolist())
        if "drag" in self.effects:
            force += aerodynamics.drag_force(self.model, self.rpm, state.velocity, rotations)
        world_force = np.zeros((self.count, 3))
        if "dw" in self.effects and self.count > 1:
            world_force += aerodynamics.downwash_force(self.model, state.position, wrench[:, 0])
        if self.wind is not None:
            world_force += self.wind.force(self.model.wind_drag, state.velocity)
        force += np.einsum("nji,nj->ni", rotations, world_force)
        return force, torque

    def _apply(self, force: np.ndarray, torque: np.ndarray) -> None:
        p, cid = _P, self.world.client
        for body, f, t in zip(self.world.drones, force.tolist(), torque.tolist(), strict=True):
            p.applyExternalForce(body, -1, f, _ORIGIN, p.LINK_FRAME, physicsClientId=cid)
            p.applyExternalTorque(body, -1, t, p.LINK_FRAME, physicsClientId=cid)

    def _integrate(self, force: np.ndarray, torque: np.ndarray) -> None:
        state, dt = self.explicit, self.dt
        mass = self.parameters.mass[:, None]
        inertia = self.parameters.inertia
        rotations = rotation_matrix(state.quaternion)
        acceleration = np.einsum("nij,nj->ni", rotations, force) / mass
        acceleration[:, 2] -= GRAVITY
        state.velocity = state.velocity + acceleration * dt
        state.position = state.position + state.velocity * dt
        rates = self.body_rates
        rates = rates + dt * (torque - cross(rates, inertia * rates)) / inertia
        state.quaternion = integrate_quaternion(state.quaternion, rates, dt)
        # The ground: an inelastic floor under the collision cylinder.
        floor = 0.5 * self.model.collision_height
        below = state.position[:, 2] < floor
        if np.any(below):
            state.position[below, 2] = floor
            falling = below & (state.velocity[:, 2] < 0.0)
            state.velocity[falling] = 0.0
            rates[falling] = 0.0
        self.body_rates = rates

    def _sync_world(self) -> None:
        state = self.explicit
        angular = np.einsum("nij,nj->ni", rotation_matrix(state.quaternion), self.body_rates)
        for drone, body in enumerate(self.world.drones):
            self.world.place(
                body,
                state.position[drone].tolist(),
                state.quaternion[drone].tolist(),
                state.velocity[drone].tolist(),
                angular[drone].tolist(),
            )

    def close(self) -> None:
        """Release the PyBullet client."""
        self.world.close()


_P = pybullet_module()
_ORIGIN = [0.0, 0.0, 0.0]
_LINK_FRAME = _P.LINK_FRAME
_APPLY_FORCE = _P.applyExternalForce
_APPLY_TORQUE = _P.applyExternalTorque
_STEP = _P.stepSimulation
_GET_POSE = _P.getBasePositionAndOrientation
_GET_VELOCITY = _P.getBaseVelocity
_RESET_POSE = _P.resetBasePositionAndOrientation
_RESET_VELOCITY = _P.resetBaseVelocity
