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
        self.set_parameters(np.arange(n), DroneParameters.nominal(model, n))

        # Scratch arrays, allocated once.
        self._bz = np.zeros((3, n))
        self._pair = np.zeros((2, n))
        self._w = np.zeros((2, n))
        self._acc = np.zeros((3, n))
        self._move = np.zeros((3, n))
        self._iw = np.zeros((5, n))
        self._c1 = np.zeros((3, n))
        self._c2 = np.zeros((3, n))
        self._sq = np.zeros((6, n))
        self._angle = np.zeros(n)
        self._half = np.zeros(n)
        self._sin = np.zeros(n)
        self._safe = np.zeros(n)
        self._big = np.zeros(n, dtype=bool)
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

    def angular_velocity(self, rotations: np.ndarray | None = None) -> np.ndarray:
        """World-frame angular velocities ``(3, N)``, ``R·ω``."""
        r = self.rotations() if rotations is None else rotations
        w = self._rates
        return r[:, 0] * w[0] + r[:, 1] * w[1] + r[:, 2] * w[2]

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

    def _body_z(self) -> np.ndarray:
        """Third column of the rotation matrices ``(3, N)``, as ``rotation_matrix``."""
        q, bz, pair, w = self._q, self._bz, self._pair, self._w
        np.multiply(q[0:2], q[2], out=pair)  # xz, yz
        np.multiply(q[5], q[1::-1], out=w)  # wy, wx
        np.add(pair[0], w[0], out=bz[0])
        np.subtract(pair[1], w[1], out=bz[1])
        bz[0:2] *= 2.0
        np.multiply(q[0:2], q[0:2], out=pair)  # xx, yy
        np.add(pair[0], pair[1], out=bz[2])
        bz[2] *= 2.0
        np.subtract(1.0, bz[2], out=bz[2])
        return bz

    def _translate_thrust_only(self) -> None:
        acc = self._acc
        np.multiply(self._body_z(), self._thrust, out=acc)
        acc /= self.mass
        self._translate(acc)

    def _translate(self, acc: np.ndarray) -> None:
        acc[2] -= GRAVITY
        acc *= self.dt
        self.velocity += acc
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
        acc /= self.mass
        self._translate(acc)

    def _rotate(self) -> None:
        """Euler's equations for the body rates, then the exact quaternion update."""
        rates, inertia, iw, c1, c2 = self._rates, self._inertia, self._iw, self._c1, self._c2
        torque = self._torque if self.thrust_only else self._effect_torque
        # rates += dt·(τ − ω × Jω) / J
        np.multiply(inertia, rates, out=iw)
        np.multiply(rates[1:4], iw[2:5], out=c1)
        np.multiply(rates[2:5], iw[1:4], out=c2)
        c1 -= c2
        np.subtract(torque, c1, out=c1)
        c1 *= self.dt
        c1 /= inertia[:3]
        rates[:3] += c1
        rates[3:5] = rates[0:2]
        # The rotation by ω held for dt, as integrate_quaternion.
        sq, angle, half = self._sq, self._angle, self._half
        np.multiply(rates[:3], rates[:3], out=sq[:3])
        np.add(sq[0], sq[1], out=angle)
        angle += sq[2]
        np.sqrt(angle, out=angle)
        angle *= self.dt
        np.multiply(angle, 0.5, out=half)
        big = np.greater(angle, 1e-12, out=self._big)
        np.sin(half, out=self._sin)
        if big.all():
            np.divide(self._sin, angle, out=self._safe)
        else:
            np.divide(self._sin, np.where(big, angle, 1.0), out=self._safe)
            self._safe[~big] = 0.5
        dq = self._dq
        np.multiply(rates, self.dt, out=dq[:5])
        dq[:5] *= self._safe
        np.cos(half, out=dq[5])
        self._multiply(self._q, dq, self._nq)
        self._q, self._nq = self._nq, self._q
        q = self._q
        np.multiply(q, q, out=sq)
        np.add(sq[0], sq[1], out=self._s)
        self._s += sq[2]
        self._s += sq[5]
        np.sqrt(self._s, out=self._s)
        q /= self._s

    def _multiply(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        """Hamilton products ``a ⊗ b`` of quaternions in the ``_q`` layout, into ``out``."""
        c1, c2, s = self._c1, self._c2, self._s
        # Vector part: a_w·b + b_w·a + a × b.
        np.multiply(a[5], b[0:3], out=out[0:3])
        np.multiply(b[5], a[0:3], out=c1)
        out[0:3] += c1
        np.multiply(a[1:4], b[2:5], out=c1)
        np.multiply(a[2:5], b[1:4], out=c2)
        c1 -= c2
        out[0:3] += c1
        out[3:5] = out[0:2]
        # Scalar part: a_w·b_w − a·b.
        np.multiply(a[0:3], b[0:3], out=c1)
        np.add(c1[0], c1[1], out=s)
        s += c1[2]
        np.multiply(a[5], b[5], out=out[5])
        out[5] -= s

    def _floor(self) -> None:
        """The ground: an inelastic floor under the collision cylinder."""
        below = self.position[2] < self.floor
        self.position[2, below] = self.floor
        falling = below & (self.velocity[2] < 0.0)
        if falling.any():
            self.velocity[:, falling] = 0.0
            self._rates[:, falling] = 0.0
