"""The batched ``dyn`` engine on JAX: one compiled function per control step (optional).

``pip install 'envsuite[jax]'``. :class:`JaxBatchDynamics` is
:class:`~envsuite.families.physics.drone.batch_dynamics.BatchDynamics` with its control
step (motor lag, motor wrench, ground effect, drag, downwash within groups, wind force,
semi-implicit Euler, the exact quaternion update, the floor, at every physics step) traced
once and compiled by XLA, in float64 (``jax.enable_x64`` around its calls only: the
process's other JAX code keeps its own setting). Parameters, starts and the wind's draws
stay numpy (they change at resets, and the wind's generators are numpy's); the state is
copied into the compiled step and back each control step, so the env around it reads the
same arrays whichever backend runs.

The formulas are the single env's (``FlightDynamics``), written in ``jax.numpy``: sin and
cos for the rotation increment and a renormalisation at every physics step, exactly as the
single env. The tests hold it to the numpy engine (which they hold to the single envs) to
1e-9, on CPU.
The drone tasks' batched vector env runs on it with ``backend="jax"`` (``make_vec(...,
vectorization_mode="vector_entry_point", vector_kwargs={"backend": "jax"})``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envsuite.families.physics.drone import aerodynamics
from envsuite.families.physics.drone.batch_dynamics import BatchDynamics
from envsuite.families.physics.drone.models import GRAVITY, QuadModel
from envsuite.families.physics.drone.wind import WindConfig
from envsuite.registry import import_optional


class JaxBatchDynamics(BatchDynamics):
    """:class:`BatchDynamics` whose control step is one XLA-compiled call.

    Takes the arguments of :class:`BatchDynamics`.

    Raises:
        envsuite.errors.MissingDependencyError: JAX is not installed (names the ``jax``
            extra).
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
        super().__init__(model, count, physics, physics_freq, ctrl_freq, wind, group_size)
        self._jax = import_optional("jax", extra="jax")
        self._step = self._jax.jit(_control_step(self))
        self._still = np.zeros((3, count))

    def advance(self, command: np.ndarray) -> None:
        """Advance every drone one control step (see :meth:`BatchDynamics.advance`)."""
        np.clip(command, 0.0, self.max_rpm, out=command)
        q = self._q
        air = self._still if self.wind is None else self.wind.velocity
        with self._jax.enable_x64(True):
            position, velocity, quaternion, rates, rpm = self._step(
                self.position,
                self.velocity,
                q[[0, 1, 2, 5]],
                self._rates[:3],
                self.rpm,
                command,
                self.mass,
                self._inertia[:3],
                self.kf,
                self.lag_alpha,
                self.lagged,
                self.mixer,
                air,
            )
        np.copyto(self.position, np.asarray(position))
        np.copyto(self.velocity, np.asarray(velocity))
        quaternion = np.asarray(quaternion)
        q[0:3] = quaternion[0:3]
        q[3:5] = quaternion[0:2]
        q[5] = quaternion[3]
        self._rates[:3] = np.asarray(rates)
        self._rates[3:5] = self._rates[0:2]
        np.copyto(self.rpm, np.asarray(rpm))
        if self.wind is not None:
            self.wind.advance()


def _control_step(engine: BatchDynamics) -> Callable[..., Any]:
    """The function of one control step for ``engine``'s configuration, to be jitted."""
    jnp = import_optional("jax.numpy", extra="jax")
    lax = import_optional("jax.lax", extra="jax")
    model = engine.model
    dt, substeps, floor = engine.dt, engine.substeps, engine.floor
    gnd, drag, downwash = engine.gnd, engine.drag, engine.downwash
    windy = engine.wind is not None
    group = engine.group_size
    motor_x = np.asarray(model.motor_xy)[:, 0:1]
    motor_y = np.asarray(model.motor_xy)[:, 1:2]
    ground_clip = aerodynamics.ground_effect_clip(model)
    drag_coeff = np.asarray(model.drag_coeff)[:, None]
    c1, c2, c3 = model.downwash_coeffs

    def rotations(q: Any) -> Any:
        x, y, z, w = q
        xx, yy, zz = x * x, y * y, z * z
        xy, xz, yz = x * y, x * z, y * z
        wx, wy, wz = w * x, w * y, w * z
        return jnp.stack(
            [
                jnp.stack([1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)]),
                jnp.stack([2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)]),
                jnp.stack([2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)]),
            ]
        )

    def cross(a: Any, b: Any) -> Any:
        return jnp.stack(
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        )

    def downwash_force(position: Any, thrust: Any) -> Any:
        """As ``aerodynamics.downwash_force``, for every group of ``group`` drones."""
        p = position.reshape(3, -1, group)
        t = thrust.reshape(-1, group)
        delta = p[:, :, None, :] - p[:, :, :, None]  # [axis, group, i, j]: j relative to i
        dz = delta[2]
        dxy = jnp.hypot(delta[0], delta[1])
        above = (dz > 0.0) & (dxy < aerodynamics.DOWNWASH_RANGE)
        safe_dz = jnp.where(above, dz, 1.0)
        alpha = c1 * (model.prop_radius / (4.0 * safe_dz)) ** 2
        alpha = jnp.minimum(alpha, jnp.maximum(t, 0.0)[:, None, :])
        beta = jnp.maximum(jnp.abs(c2 * safe_dz + c3), model.prop_radius)
        push = alpha * jnp.exp(-0.5 * (dxy / beta) ** 2)
        return -jnp.where(above, push, 0.0).sum(axis=2).reshape(-1)

    def step(
        position: Any,
        velocity: Any,
        quaternion: Any,
        rates: Any,
        rpm: Any,
        command: Any,
        mass: Any,
        inertia: Any,
        kf: Any,
        lag_alpha: Any,
        lagged: Any,
        mixer: Any,
        air: Any,
    ) -> tuple[Any, ...]:
        def physics_step(_: int, state: tuple[Any, ...]) -> tuple[Any, ...]:
            p, v, q, w, motors = state
            motors = jnp.where(lagged, motors + lag_alpha * (command - motors), command)
            squared = motors * motors
            wrench = (mixer * squared[None]).sum(axis=1)
            thrust, torque = wrench[0], wrench[1:]
            r = rotations(q)
            force = jnp.stack([jnp.zeros_like(thrust), jnp.zeros_like(thrust), thrust])
            if gnd:
                heights = p[2] + r[2, 0] * motor_x + r[2, 1] * motor_y
                heights = jnp.maximum(heights, ground_clip)
                extra = kf * squared * model.ground_effect_coeff
                extra = extra * (model.prop_radius / (4.0 * heights)) ** 2
                upright = (r[2, 2] > 0.0) & (jnp.abs(r[2, 0]) < 1.0)
                extra = jnp.where(upright, extra, 0.0)
                force = force.at[2].add(extra.sum(axis=0))
                torque = torque.at[0].add((extra * motor_y).sum(axis=0))
                torque = torque.at[1].add(-(extra * motor_x).sum(axis=0))
            if drag:
                body_velocity = (r * v[:, None]).sum(axis=0)
                spin = (2.0 * np.pi / 60.0) * motors.sum(axis=0)
                force = force - drag_coeff * body_velocity * spin
            world = jnp.zeros_like(force)
            if downwash:
                world = world.at[2].add(downwash_force(p, thrust))
            if windy:
                relative = air - v
                world = world + model.wind_drag * jnp.sqrt((relative * relative).sum(0)) * relative
            if gnd or drag or downwash or windy:
                force = force + (r * world[:, None]).sum(axis=0)
            acceleration = (r * force[None]).sum(axis=1) / mass
            acceleration = acceleration.at[2].add(-GRAVITY)
            v = v + acceleration * dt
            p = p + v * dt
            w = w + dt * (torque - cross(w, inertia * w)) / inertia
            # integrate_quaternion
            angle = jnp.sqrt((w * w).sum(axis=0)) * dt
            half = 0.5 * angle
            scale = jnp.where(angle > 1e-12, jnp.sin(half) / jnp.where(angle > 0, angle, 1.0), 0.5)
            axis = w * dt * scale
            vector, scalar = q[0:3], q[3]
            product_vector = scalar * axis + jnp.cos(half) * vector + cross(vector, axis)
            product_scalar = scalar * jnp.cos(half) - (vector * axis).sum(axis=0)
            q = jnp.concatenate([product_vector, product_scalar[None]])
            q = q / jnp.sqrt((q * q).sum(axis=0))
            below = p[2] < floor
            p = p.at[2].set(jnp.where(below, floor, p[2]))
            falling = below & (v[2] < 0.0)
            v = jnp.where(falling, 0.0, v)
            w = jnp.where(falling, 0.0, w)
            return p, v, q, w, motors

        return lax.fori_loop(
            0, substeps, physics_step, (position, velocity, quaternion, rates, rpm)
        )

    return step
