"""Explicit flight dynamics of many drones at once: the ``dyn`` physics mode as arrays.

:class:`BatchDynamics` integrates N quadcopters with the equations of the single-env
``dyn`` mode (:class:`~envsuite.families.physics.drone.dynamics.FlightDynamics`):
Newton–Euler with semi-implicit Euler and the exact quaternion update at the physics rate,
first-order motor lag, ground effect, rotor drag, downwash between the drones of one group
(a swarm), wind (steady plus Ornstein–Uhlenbeck gusts, one air mass per drone) and
per-drone masses, inertias, ``kf``, ``km`` and motor lags. A control step is a fixed
sequence of numpy calls on ``(components, N)`` arrays, whatever N: no Python loop runs over
drones, and the arrays are allocated once.

Where it departs from PyBullet's contact physics (the ``pyb`` modes): there is no
collision at all beyond the floor plane, an inelastic floor under the collision cylinder
(a drone that sinks below it is put back on it and, if falling, stopped). Drones pass
through each other and through gates; the tasks judge crashes by rule
(:mod:`~envsuite.families.physics.drone.crashes`, and the gates' geometric crossing test),
as the single-env ``dyn`` mode does. Nothing is written to PyBullet: there are no cameras.

The same seeds and actions give the same trajectories as the single-env ``dyn`` mode to
within rounding (the tests hold them to 1e-9 over hundreds of steps): the formulas are
the same, evaluated in the same order except where a few products are regrouped to act on
three components at once (the quaternion product, the wrench).

State layout: ``position``, ``velocity`` ``(3, N)`` (world frame), ``quaternion`` ``(4, N)``
(x, y, z, w), ``body_rates`` ``(3, N)`` (body frame). The arrays behind them carry two
extra rows, copies of the first two, so that a cross product is three calls on shifted
views instead of nine on single rows.
"""

from __future__ import annotations

import math

import numpy as np

from envsuite.families.physics.drone import aerodynamics
from envsuite.families.physics.drone.dynamics import parse_physics, validate_frequencies
from envsuite.families.physics.drone.models import GRAVITY, QuadModel
from envsuite.families.physics.drone.randomization import DroneParameters
from envsuite.families.physics.drone.wind import WindConfig

NOT_DYN = (
    "the batched drone engine is explicit dynamics: physics must be 'dyn', optionally "
    "followed by '_gnd', '_drag', '_dw' (e.g. 'dyn_gnd_drag_dw'), got {value!r}; "
    "PyBullet physics ('pyb...') runs in single envs (make_vec's 'sync' or 'async' modes)"
)
#: Gust steps drawn at a time from each drone's wind generator.
GUST_BLOCK = 256
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


class BatchWind:
    """Steady wind plus gusts for N drones, each with its own generator.

    The same draws as :class:`~envsuite.families.physics.drone.wind.Wind` of a single env:
    at reset the steady wind's direction and speed, then three standard normals per
    control step. The normals are drawn :data:`GUST_BLOCK` steps at a time (a generator
    gives the same numbers in one call as in many), so a step costs no Python per drone.

    Args:
        config: Wind settings.
        control_dt: Control period (s).
        count: Number of drones.
    """

    def __init__(self, config: WindConfig, control_dt: float, count: int) -> None:
        self.config = config
        self.decay = math.exp(-control_dt / config.gust_time)
        self.root = math.sqrt(1.0 - self.decay * self.decay)
        self.scale = np.array([1.0, 1.0, 0.5]) * config.gust_std
        self.steady = np.zeros((3, count))
        self.gust = np.zeros((3, count))
        #: Air velocity (world frame), ``steady + gust``.
        self.velocity = np.zeros((3, count))
        self.rngs: list[np.random.Generator | None] = [None] * count
        self.normals = np.zeros((count, GUST_BLOCK, 3))
        self.cursor = np.zeros(count, dtype=np.intp)
        self._rows = np.arange(count)

    def reset(self, drone: int, rng: np.random.Generator) -> None:
        """Draw drone ``drone``'s steady wind from ``rng`` and start its gusts at rest."""
        self.rngs[drone] = rng
        angle = rng.uniform(-math.pi, math.pi)
        speed = rng.uniform(0.0, self.config.max_speed)
        self.steady[:, drone] = (speed * math.cos(angle), speed * math.sin(angle), 0.0)
        self.gust[:, drone] = 0.0
        self.velocity[:, drone] = self.steady[:, drone]
        self.normals[drone] = rng.standard_normal((GUST_BLOCK, 3))
        self.cursor[drone] = 0

    def advance(self) -> None:
        """Advance every drone's gusts by one control step (exact OU discretisation)."""
        # noise = normal · scale · sqrt(1 − decay²), as the single env multiplies it.
        noise = self.normals[self._rows, self.cursor].T * self.scale[:, None]
        noise *= self.root
        self.gust *= self.decay
        self.gust += noise
        np.add(self.steady, self.gust, out=self.velocity)
        self.cursor += 1
        if self.cursor.max() >= GUST_BLOCK:
            for drone in np.flatnonzero(self.cursor >= GUST_BLOCK).tolist():
                rng = self.rngs[drone]
                assert rng is not None
                self.normals[drone] = rng.standard_normal((GUST_BLOCK, 3))
                self.cursor[drone] = 0


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
        self._thrust = np.zeros(n)
        self._torque = np.zeros((3, n))
        self._squared = np.zeros((4, n))
        self._wrench = np.zeros((4, n))
        self._mixed = np.zeros((4, 4, n))
        self._command = np.zeros((4, n))
        self._effect_torque = self._torque

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
        """Body-to-world rotation matrices ``(3, 3, N)`` (as ``rotation_matrix`` computes)."""
        x, y, z, w = self._q[0], self._q[1], self._q[2], self._q[5]
        xx, yy, zz = x * x, y * y, z * z
        xy, xz, yz = x * y, x * z, y * z
        wx, wy, wz = w * x, w * y, w * z
        out = np.empty((3, 3, self.count))
        out[0, 0] = 1 - 2 * (yy + zz)
        out[0, 1] = 2 * (xy - wz)
        out[0, 2] = 2 * (xz + wy)
        out[1, 0] = 2 * (xy + wz)
        out[1, 1] = 1 - 2 * (xx + zz)
        out[1, 2] = 2 * (yz - wx)
        out[2, 0] = 2 * (xz - wy)
        out[2, 1] = 2 * (yz + wx)
        out[2, 2] = 1 - 2 * (xx + yy)
        return out

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
        """Thrust and body torques of the motors, ``M·ω²`` per drone."""
        np.multiply(self.rpm, self.rpm, out=self._squared)
        np.multiply(self.mixer, self._squared[None], out=self._mixed)
        m = self._mixed
        wrench = self._wrench
        np.add(m[:, 0], m[:, 1], out=wrench)
        wrench += m[:, 2]
        wrench += m[:, 3]
        np.copyto(self._thrust, wrench[0])
        np.copyto(self._torque, wrench[1:])
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

    def _translate_with_effects(self) -> None:
        """Motor wrench plus ground effect, drag, downwash and wind, then translate."""
        r = self.rotations()
        force = np.zeros((3, self.count))
        force[2] = self._thrust
        torque = self._torque.copy()
        squared = self._squared
        if self.gnd:
            # (N, 4): extra thrust per propeller, as aerodynamics.ground_effect_thrust.
            extra = aerodynamics.ground_effect_thrust(
                self.model,
                self.kf,
                squared.T,
                self.position.T,
                np.moveaxis(r, 2, 0),
            )
            force[2] += extra.sum(axis=1)
            torque[0] += extra @ self.motor_xy[:, 1]
            torque[1] -= extra @ self.motor_xy[:, 0]
        if self.drag:
            body_velocity = r[0] * self.velocity[0] + r[1] * self.velocity[1]
            body_velocity += r[2] * self.velocity[2]
            spin = (2.0 * np.pi / 60.0) * self.rpm.sum(axis=0)
            force -= self.drag_coeff * body_velocity * spin
        world = np.zeros((3, self.count))
        if self.downwash:
            g = self.group_size
            positions = self.position.T.reshape(-1, g, 3)
            thrusts = self._thrust.reshape(-1, g)
            for group in range(positions.shape[0]):
                world[:, group * g : (group + 1) * g] += aerodynamics.downwash_force(
                    self.model, positions[group], thrusts[group]
                ).T
        if self.wind is not None:
            relative = self.wind.velocity - self.velocity
            speed = np.sqrt(relative[0] * relative[0] + relative[1] * relative[1]
                            + relative[2] * relative[2])  # fmt: skip
            world += self.model.wind_drag * speed * relative
        # The world-frame forces in the body frame: Rᵀ·f.
        force += r[0] * world[0] + r[1] * world[1] + r[2] * world[2]
        self._effect_torque = torque
        acc = self._acc
        np.multiply(r[:, 0], force[0], out=acc)
        acc += r[:, 1] * force[1]
        acc += r[:, 2] * force[2]
        acc *= self._dt_over_mass
        self._translate(acc)

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
