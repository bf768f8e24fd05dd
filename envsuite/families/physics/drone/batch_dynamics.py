"""Explicit flight dynamics of many drones at once: the ``dyn`` physics mode as arrays.

:class:`BatchDynamics` integrates N quadcopters with the equations of the single-env
``dyn`` mode (:class:`~envsuite.families.physics.drone.dynamics.FlightDynamics`):
Newton–Euler with semi-implicit Euler and the exact quaternion update at the physics rate,
first-order motor lag, ground effect, rotor drag, downwash between the drones of one group
(a swarm), wind (steady plus Ornstein–Uhlenbeck gusts, one air mass per drone) and
per-drone masses, inertias, ``kf``, ``km`` and motor lags. A control step is a fixed
sequence of numpy calls on ``(components, N)`` arrays, whatever N: no Python loop runs over
drones, and without effects or wind a physics step allocates no array (every result goes
into one allocated with the engine).

Where it departs from PyBullet's contact physics (the ``pyb`` modes): there is no
collision at all beyond the floor plane, an inelastic floor under the collision cylinder
(a drone that sinks below it is put back on it and, if falling, stopped). Drones pass
through each other and through gates; the tasks judge crashes by rule
(:mod:`~envsuite.families.physics.drone.crashes`, and the gates' geometric crossing test),
as the single-env ``dyn`` mode does. Nothing is written to PyBullet: there are no cameras.

The same seeds and actions give the same trajectories as the single-env ``dyn`` mode to
within rounding (the tests hold them to 1e-9 over hundreds of steps). The equations are
the same; only the order of the arithmetic differs, to act on three components at once and
spare numpy calls: products regrouped (the motor wrench, the gyroscopic term, the
quaternion product), ``sin(h)/h`` and ``cos(h)`` of the rotation increment from their
Taylor series where that is exact to rounding, world-frame forces (wind, downwash) added to
the acceleration without the single env's round trip through the body frame, and the
quaternions renormalised once per control step instead of every physics step (a physics
step moves their norm by about 1e-16).

State layout: ``position``, ``velocity`` ``(3, N)`` (world frame), ``quaternion`` ``(4, N)``
(x, y, z, w), ``body_rates`` ``(3, N)`` (body frame). The arrays behind them carry two
extra rows, copies of the first two, so that a cross product is three calls on shifted
views instead of nine on single rows.
"""

from __future__ import annotations

import math

import numpy as np

from envsuite.families.physics.drone import aerodynamics
from envsuite.families.physics.drone.batch_wind import BatchWind
from envsuite.families.physics.drone.dynamics import parse_physics, validate_frequencies
from envsuite.families.physics.drone.models import GRAVITY, QuadModel
from envsuite.families.physics.drone.randomization import DroneParameters
from envsuite.families.physics.drone.wind import WindConfig

NOT_DYN = (
    "the batched drone engine is explicit dynamics: physics must be 'dyn', optionally "
    "followed by '_gnd', '_drag', '_dw' (e.g. 'dyn_gnd_drag_dw'), got {value!r}; "
    "PyBullet physics ('pyb...') runs in single envs (make_vec's 'sync' or 'async' modes)"
)
#: Where each entry of a row-major rotation matrix is in the grouped order of
#: ``BatchDynamics._rotation_matrices``: diagonal, then (01, 12, 20), then (10, 21, 02).
_MATRIX_ORDER = np.array([0, 3, 8, 6, 1, 4, 5, 7, 2])
#: Most terms of the Taylor series of sin(h)/h and cos(h) in h² the engine sums.
_SERIES_TERMS = 8
#: _SERIES_LIMITS[t - 1]: the largest h² at which t terms leave out less than 1e-18 (the
#: first omitted term of an alternating series bounds the rest; double precision rounds
#: at 1.1e-16).
_SERIES_LIMITS = tuple(
    (1e-18 * math.factorial(2 * terms)) ** (1.0 / terms) for terms in range(1, _SERIES_TERMS + 1)
)


def _series_terms(h2_max: float) -> int:
    """Terms of the series that make sin(h)/h and cos(h) exact to rounding up to ``h2_max``.

    0 when even :data:`_SERIES_TERMS` terms do not (|ω| above about 240 rad/s at 240 Hz): the
    engine then calls sin and cos.
    """
    for terms, limit in enumerate(_SERIES_LIMITS, start=1):
        if h2_max <= limit:
            return terms
    return 0


class BatchDynamics:
    """N drones of one airframe, advanced together by one control step at a time.

    Args:
        model: The airframe.
        count: Number of drones.
        physics: ``"dyn"`` plus optional effects (``"dyn_gnd_drag_dw"``).
        physics_freq: Physics steps per second (a multiple of ``ctrl_freq``).
        ctrl_freq: Control steps per second.
        wind: Wind settings, or None for still air.
        group_size: Drones per group; downwash acts between the drones of a group only
            (1: every drone flies alone, as in the single-drone envs; a swarm env's drone
            count: each group is one swarm).

    Raises:
        ValueError: the physics is not ``dyn``, the frequencies do not fit, or
            ``group_size`` does not divide ``count``.
    """

    def __init__(
        self,
        model: QuadModel,
        count: int,
        physics: str,
        physics_freq: int,
        ctrl_freq: int,
        wind: WindConfig | None = None,
        group_size: int = 1,
    ) -> None:
        engine, self.effects = parse_physics(physics)
        if engine != "dyn":
            raise ValueError(NOT_DYN.format(value=physics))
        if group_size < 1 or count % group_size:
            raise ValueError(f"group_size ({group_size}) must divide the drone count ({count})")
        self.model = model
        self.count = n = int(count)
        self.group_size = int(group_size)
        self.substeps = validate_frequencies(physics_freq, ctrl_freq)
        self.dt = 1.0 / physics_freq
        self.max_rpm = model.max_rpm
        self.floor = 0.5 * model.collision_height
        self.wind = None if wind is None else BatchWind(wind, 1.0 / ctrl_freq, n)
        self.gnd = "gnd" in self.effects
        self.drag = "drag" in self.effects
        self.downwash = "dw" in self.effects and self.group_size > 1
        #: Whether the force in the body frame is the thrust alone (no effect, no wind).
        self.thrust_only = not (self.gnd or self.drag or self.downwash or self.wind is not None)
        self.motor_xy = np.asarray(model.motor_xy, dtype=np.float64)
        self.ground_clip = aerodynamics.ground_effect_clip(model)
        self.drag_coeff = np.asarray(model.drag_coeff, dtype=np.float64)[:, None]
        self.spin = np.asarray(model.spin, dtype=np.float64)

        # State (rows 3 and 4 of the vector arrays repeat rows 0 and 1; see the module doc).
        self._q = np.zeros((6, n))  # x, y, z, x, y, w
        self._q[5] = 1.0
        self._rates = np.zeros((5, n))
        self.position = np.zeros((3, n))
        self.velocity = np.zeros((3, n))
        self.rpm = np.full((4, n), model.hover_rpm)
        # Parameters.
        self.mass = np.full(n, model.mass)
        self._inertia = np.zeros((5, n))
        self.kf = np.full(n, model.kf)
        self.km = np.full(n, model.km)
        self.motor_lag = np.zeros(n)
        self.mixer = np.zeros((4, 4, n))
        # Thrust and torques per unit coefficient: rows 1, y, −x, spin (then times kf, kf,
        # kf, km of each drone).
        self._layout = np.stack([np.ones(4), self.motor_xy[:, 1], -self.motor_xy[:, 0], self.spin])
        self._coefficients = np.zeros((4, n))
        self.lag_alpha = np.ones(n)
        self.lagged = np.zeros(n, dtype=bool)
        self._dt_over_mass = np.zeros(n)
        self._dt_over_inertia = np.zeros((3, n))
        self._inertia_gaps = np.zeros((3, n))
        self._gravity_step = GRAVITY * self.dt
        self.set_parameters(np.arange(n), DroneParameters.nominal(model, n))

        # Scratch arrays, allocated once.
        self._bz = np.zeros((3, n))
        self._pair = np.zeros((2, n))
        self._w = np.zeros((2, n))
        self._acc = np.zeros((3, n))
        self._move = np.zeros((3, n))
        self._pairs = np.zeros((2, 3, n))
        self._products = np.zeros((2, 3, n))
        self._sums = np.zeros((2, n))
        self._c1 = np.zeros((3, n))
        self._c2 = np.zeros((3, n))
        self._sq = np.zeros((6, n))
        self._trig = np.zeros((2, n))
        self._thrust_step = np.zeros((3, n))
        self._lift = np.zeros(n)
        self._half_dt_squared = (0.5 * self.dt) ** 2
        # Taylor coefficients in h², highest first: row 0 sin(h)/h · dt/2, row 1 cos(h).
        powers = np.arange(_SERIES_TERMS - 1, -1, -1)
        sinc = (-1.0) ** powers / np.array([math.factorial(2 * i + 1) for i in powers])
        cosine = (-1.0) ** powers / np.array([math.factorial(2 * i) for i in powers])
        self._series = np.stack([sinc * 0.5 * self.dt, cosine], axis=1)[:, :, None]
        self._dq = np.zeros((6, n))  # the rotation increment, laid out as _q
        self._nq = np.zeros((6, n))
        self._s = np.zeros(n)
        self._squared = np.zeros((4, n))
        self._wrench = np.zeros((4, n))
        self._thrust = self._wrench[0]
        self._torque = self._wrench[1:]
        self._command = np.zeros((4, n))
        self._effect_torque = np.zeros((3, n))
        self._force = np.zeros((3, n))
        self._world = np.zeros((3, n))
        self._body = np.zeros((3, n))
        self._w3 = np.zeros((3, n))
        self._heights = np.zeros((4, n))
        self._extra = np.zeros((4, n))
        self._r9 = np.zeros((9, n))
        self._r = np.zeros((3, 3, n))
        self._r9_ordered = self._r.reshape(9, n)

    # -- views -------------------------------------------------------------------------
    @property
    def quaternion(self) -> np.ndarray:
        """Attitudes ``(4, N)``, (x, y, z, w) (a new array)."""
        return self._q[[0, 1, 2, 5]]

    @property
    def body_rates(self) -> np.ndarray:
        """Body-frame angular velocities ``(3, N)`` (a view)."""
        return self._rates[:3]

    @property
    def inertia(self) -> np.ndarray:
        """Principal moments of inertia ``(3, N)`` (a view)."""
        return self._inertia[:3]

    def rotations(self) -> np.ndarray:
        """Body-to-world rotation matrices ``(3, 3, N)`` (a new array)."""
        return self._rotation_matrices().copy()

    def angular_velocity(self, out: np.ndarray | None = None) -> np.ndarray:
        """World-frame angular velocities ``(3, N)``, ``R·ω``, into ``out`` if given.

        As the quaternion rotates a vector: ``t = 2·q_v × ω``, ``R·ω = ω + q_w·t + q_v × t``.
        """
        q, w = self._q, self._rates
        t = np.empty((5, self.count))
        np.multiply(q[1:4], w[2:5], out=t[0:3])
        t[0:3] -= q[2:5] * w[1:4]
        t[0:3] *= 2.0
        t[3:5] = t[0:2]
        result = np.multiply(q[5], t[0:3], out=out)
        result += w[0:3]
        result += q[1:4] * t[2:5]
        result -= q[2:5] * t[1:4]
        return result

    # -- episode set-up ----------------------------------------------------------------
    def set_parameters(self, ids: np.ndarray, parameters: DroneParameters) -> None:
        """Give drones ``ids`` these parameters (arrays over ``ids``, in order)."""
        self.mass[ids] = parameters.mass
        self._inertia[:3, ids] = np.asarray(parameters.inertia).T
        self._inertia[3:5, ids] = self._inertia[0:2, ids]
        self.kf[ids] = parameters.kf
        self.km[ids] = parameters.km
        lag = np.asarray(parameters.motor_lag, dtype=np.float64)
        self.motor_lag[ids] = lag
        self.lag_alpha[ids] = np.where(lag > 0, -np.expm1(-self.dt / np.maximum(lag, 1e-12)), 1.0)
        self.lagged[ids] = lag > 0
        self._dt_over_mass[ids] = self.dt / self.mass[ids]
        self._dt_over_inertia[:, ids] = self.dt / self._inertia[:3, ids]
        self._inertia_gaps[:, ids] = self._inertia[2:5, ids] - self._inertia[1:4, ids]
        kf = self.kf[ids]
        km = self.km[ids]
        self.mixer[0, :, ids] = kf[:, None]
        self.mixer[1, :, ids] = kf[:, None] * self.motor_xy[:, 1]
        self.mixer[2, :, ids] = -kf[:, None] * self.motor_xy[:, 0]
        self.mixer[3, :, ids] = km[:, None] * self.spin
        self._coefficients[0:3, ids] = kf
        self._coefficients[3, ids] = km

    def start(self, ids: np.ndarray, positions: np.ndarray, quaternions: np.ndarray) -> None:
        """Put drones ``ids`` at rest at these poses ``(k, 3)``, ``(k, 4)``, motors at hover."""
        self.position[:, ids] = np.asarray(positions, dtype=np.float64).T
        q = np.asarray(quaternions, dtype=np.float64).T
        self._q[0:3, ids] = q[0:3]
        self._q[3:5, ids] = q[0:2]
        self._q[5, ids] = q[3]
        self.velocity[:, ids] = 0.0
        self._rates[:, ids] = 0.0
        self.rpm[:, ids] = self.model.hover_rpm

    # -- stepping ----------------------------------------------------------------------
    def advance(self, command: np.ndarray) -> None:
        """Advance every drone one control step with RPM commands ``(4, N)`` held over it.

        Commands are clipped to ``[0, max_rpm]`` (in place). With motor lag the motors
        approach them at every physics step; without, they take them at once.
        """
        np.clip(command, 0.0, self.max_rpm, out=command)
        any_lag = bool(self.lagged.any())
        if not any_lag:
            np.copyto(self.rpm, command)
            self._motor_wrench()
        for _ in range(self.substeps):
            if any_lag:
                self._lag_motors(command)
                self._motor_wrench()
            if self.thrust_only:
                self._translate_thrust_only()
            else:
                self._translate_with_effects()
            self._rotate()
            if self.position[2].min() < self.floor:
                self._floor()
        self._normalise()
        if self.wind is not None:
            self.wind.advance()

    def _lag_motors(self, command: np.ndarray) -> None:
        """``rpm += alpha·(command − rpm)`` for lagged motors; the rest take the command."""
        step = self._command
        np.subtract(command, self.rpm, out=step)
        step *= self.lag_alpha
        if self.lagged.all():
            self.rpm += step
        else:
            np.copyto(self.rpm, np.where(self.lagged, self.rpm + step, command))

    def _motor_wrench(self) -> None:
        """Thrust and body torques of the motors, ``M·ω²`` per drone.

        As one product of the motor layout with the squared speeds, scaled by each drone's
        coefficients: ``kf·Σω²``, ``kf·Σ y·ω²``, ``−kf·Σ x·ω²``, ``km·Σ spin·ω²``.
        """
        np.multiply(self.rpm, self.rpm, out=self._squared)
        np.matmul(self._layout, self._squared, out=self._wrench)
        self._wrench *= self._coefficients
        # The velocity change the thrust makes in one physics step, along body z: rows 0
        # and 1 of body z are 2(xz + wy), 2(yz − wx), row 2 is 1 − 2(x² + y²).
        step, lift = self._thrust_step, self._lift
        np.multiply(self._thrust, self._dt_over_mass, out=lift)
        np.multiply(lift, 2.0, out=step[0])
        step[1:3] = step[0]
        lift -= self._gravity_step

    def _translate_thrust_only(self) -> None:
        """The thrust along body z, and gravity: semi-implicit Euler."""
        q, acc, pair, w = self._q, self._acc, self._pair, self._w
        np.multiply(q[0:2], q[2], out=pair)  # xz, yz
        np.multiply(q[5], q[1::-1], out=w)  # wy, wx
        np.add(pair[0], w[0], out=acc[0])
        np.subtract(pair[1], w[1], out=acc[1])
        np.multiply(q[0:2], q[0:2], out=pair)  # xx, yy
        np.add(pair[0], pair[1], out=acc[2])
        acc *= self._thrust_step
        np.subtract(self._lift, acc[2], out=acc[2])
        self.velocity += acc
        np.multiply(self.velocity, self.dt, out=self._move)
        self.position += self._move

    def _translate(self, step: np.ndarray) -> None:
        """Semi-implicit Euler with ``step``, the velocity change of the forces (in place)."""
        step[2] -= self._gravity_step
        self.velocity += step
        np.multiply(self.velocity, self.dt, out=self._move)
        self.position += self._move

    def _rotation_matrices(self) -> np.ndarray:
        """Body-to-world rotations ``(3, 3, N)`` into a preallocated array (10 numpy calls).

        The entries are computed three at a time in the order diagonal, ``(01, 12, 20)``,
        ``(10, 21, 02)``, where each group is one cyclic pattern of products, then put in
        place by one ``take``; the formulas are ``rotation_matrix``'s.
        """
        q, groups, squares = self._q, self._r9, self._sq
        np.multiply(q[0:5], q[0:5], out=squares[0:5])  # xx, yy, zz, xx, yy
        np.add(squares[1:4], squares[2:5], out=self._c1)  # yy+zz, zz+xx, xx+yy
        self._c1 *= 2.0
        np.subtract(1.0, self._c1, out=groups[0:3])
        products = self._c2
        np.multiply(q[0:3], q[1:4], out=products)  # xy, yz, zx
        np.multiply(q[5], q[2:5], out=self._w3)  # wz, wx, wy
        np.subtract(products, self._w3, out=groups[3:6])
        np.add(products, self._w3, out=groups[6:9])
        groups[3:9] *= 2.0
        np.take(groups, _MATRIX_ORDER, axis=0, out=self._r9_ordered)
        return self._r

    def _translate_with_effects(self) -> None:
        """Motor wrench plus ground effect, drag, downwash and wind, then translate."""
        r = self._rotation_matrices()
        force, world = self._force, self._world
        force[0:2] = 0.0
        np.copyto(force[2], self._thrust)
        torque = self._effect_torque
        np.copyto(torque, self._torque)
        if self.gnd:
            self._ground_effect(r, force, torque)
        if self.drag:
            body_velocity = self._body
            np.multiply(r[0], self.velocity[0], out=body_velocity)
            body_velocity += r[1] * self.velocity[1]
            body_velocity += r[2] * self.velocity[2]
            body_velocity *= self.drag_coeff
            body_velocity *= self.rpm.sum(axis=0) * (2.0 * np.pi / 60.0)
            force -= body_velocity
        acc = self._acc
        np.multiply(r[:, 0], force[0], out=acc)
        acc += r[:, 1] * force[1]
        acc += r[:, 2] * force[2]
        if self.downwash or self.wind is not None:
            # The single env turns world-frame forces into the body frame (Rᵀ·f) and the
            # sum back (R·): R·Rᵀ is the identity, so they are added as they are.
            if self.downwash:
                acc[2] += self._downwash()
            if self.wind is not None:
                relative, squares, speed = world, self._body, self._s
                np.subtract(self.wind.velocity, self.velocity, out=relative)
                np.multiply(relative, relative, out=squares)
                np.add(squares[0], squares[1], out=speed)
                speed += squares[2]
                np.sqrt(speed, out=speed)
                speed *= self.model.wind_drag
                relative *= speed
                acc += relative
        acc *= self._dt_over_mass
        self._translate(acc)

    def _ground_effect(self, r: np.ndarray, force: np.ndarray, torque: np.ndarray) -> None:
        """Add the ground effect's thrust and torques (``aerodynamics.ground_effect_thrust``)."""
        x, y = self.motor_xy[:, 0:1], self.motor_xy[:, 1:2]
        heights = self._heights
        np.multiply(x, r[2, 0], out=heights)
        heights += y * r[2, 1]
        heights += self.position[2]
        np.maximum(heights, self.ground_clip, out=heights)
        extra = self._extra
        np.multiply(self._squared, self.kf, out=extra)
        extra *= self.model.ground_effect_coeff
        np.divide(self.model.prop_radius, 4.0 * heights, out=heights)
        heights *= heights
        extra *= heights
        upright = (r[2, 2] > 0.0) & (np.abs(r[2, 0]) < 1.0)
        if not upright.all():
            extra[:, ~upright] = 0.0
        force[2] += extra.sum(axis=0)
        torque[0] += self.motor_xy[:, 1] @ extra
        torque[1] -= self.motor_xy[:, 0] @ extra

    def _downwash(self) -> np.ndarray:
        """World z force on every drone from the drones above it in its group (``(N,)``).

        ``aerodynamics.downwash_force`` for every group at once.
        """
        model, g = self.model, self.group_size
        c1, c2, c3 = model.downwash_coeffs
        p = self.position.reshape(3, -1, g)
        thrust = self._thrust.reshape(-1, g)
        delta = p[:, :, None, :] - p[:, :, :, None]  # [axis, group, i, j]: j relative to i
        dz = delta[2]
        dxy = np.hypot(delta[0], delta[1])
        above = (dz > 0.0) & (dxy < aerodynamics.DOWNWASH_RANGE)
        safe_dz = np.where(above, dz, 1.0)
        alpha = c1 * (model.prop_radius / (4.0 * safe_dz)) ** 2
        alpha = np.minimum(alpha, np.maximum(thrust, 0.0)[:, None, :])
        beta = np.maximum(np.abs(c2 * safe_dz + c3), model.prop_radius)
        push = alpha * np.exp(-0.5 * (dxy / beta) ** 2)
        return -np.where(above, push, 0.0).sum(axis=2).reshape(-1)

    def _rotate(self) -> None:
        """Euler's equations for the body rates, then the exact quaternion update.

        The rotation by ω held for dt is ``dq = (sin(h)·ω/|ω|, cos(h))``, ``h = |ω|·dt/2``,
        as ``integrate_quaternion``; ``q ⊗ dq = cos(h)·q + (sin(h)/|ω|)·(q ⊗ (ω, 0))``.
        ``sin(h)/h`` and ``cos(h)`` come from their Taylor series in ``h²``, with as many
        terms as the fastest-turning drone needs to be exact to rounding (at 240 Hz: three
        below 1.4 rad/s, five below 34 rad/s, eight below 240 rad/s; faster, sin and cos):
        a few multiply-adds are cheaper than two trigonometric calls.
        """
        rates, c1, c2, pairs = self._rates, self._c1, self._c2, self._pairs
        torque = self._torque if self.thrust_only else self._effect_torque
        # rates += dt·(τ − ω × Jω) / J, with ω × Jω = (ω_y·ω_z·(J_z − J_y), ...) (cyclic)
        np.multiply(rates[1:4], rates[2:5], out=c1)
        c1 *= self._inertia_gaps
        np.subtract(torque, c1, out=c1)
        c1 *= self._dt_over_inertia
        rates[:3] += c1
        rates[3:5] = rates[0:2]
        # |ω|² and q_v·ω together: pairs holds (ω, q_v), products with ω, summed.
        pairs[0] = rates[0:3]
        pairs[1] = self._q[0:3]
        np.multiply(pairs, rates[0:3], out=self._products)
        products = self._products
        sums = self._sums
        np.add(products[:, 0], products[:, 1], out=sums)
        sums += products[:, 2]
        h2 = sums[0]
        h2 *= self._half_dt_squared
        trig = self._trig
        terms = _series_terms(float(h2.max()))
        if terms == 1:  # every drone still (to 1e-9 rad/s)
            trig[:] = self._series[-1]
        elif terms:
            coefficients = self._series[-terms:]
            np.multiply(coefficients[0], h2, out=trig)
            for coefficient in coefficients[1:-1]:
                trig += coefficient
                trig *= h2
            trig += coefficients[-1]
        else:
            half = np.sqrt(h2)
            np.cos(half, out=trig[1])
            big = half > 0.5e-12  # below 1e-12 rad the single env takes sin(h)/angle as 1/2
            np.divide(np.sin(half), np.where(big, half, 1.0), out=trig[0])
            trig[0, ~big] = 1.0
            trig[0] *= 0.5 * self.dt
        k, c = trig[0], trig[1]
        # p = q ⊗ (ω, 0): vector q_w·ω + q_v × ω, scalar −q_v·ω.
        q, p, nq = self._q, self._dq, self._nq
        np.multiply(q[5], rates[0:3], out=p[0:3])
        np.multiply(q[1:4], rates[2:5], out=c1)
        np.multiply(q[2:5], rates[1:4], out=c2)
        c1 -= c2
        p[0:3] += c1
        p[3:5] = p[0:2]
        np.negative(sums[1], out=p[5])
        # q ⊗ dq = c·q + k·p
        np.multiply(q, c, out=nq)
        p *= k
        nq += p
        self._q, self._nq = nq, q

    def _normalise(self) -> None:
        """Unit quaternions again (rounding moves them off by about 1e-16 a physics step)."""
        q, sq, s = self._q, self._sq, self._s
        np.multiply(q, q, out=sq)
        np.add(sq[0], sq[1], out=s)
        s += sq[2]
        s += sq[5]
        np.sqrt(s, out=s)
        q /= s

    def _floor(self) -> None:
        """The ground: an inelastic floor under the collision cylinder."""
        below = self.position[2] < self.floor
        self.position[2, below] = self.floor
        falling = below & (self.velocity[2] < 0.0)
        if falling.any():
            self.velocity[:, falling] = 0.0
            self._rates[:, falling] = 0.0
