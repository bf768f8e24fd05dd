"""Vector envs of thousands of drones on the batched ``dyn`` engine.

``envsuite.make_vec("envsuite/DroneHover-v0", num_envs=1024,
vectorization_mode="vector_entry_point")`` (likewise DroneWaypoints-v0 and DroneGate-v0)
builds a :class:`DroneBatchedVectorEnv`: every sub-environment's drone is one column of
:class:`~envsuite.families.physics.drone.batch_dynamics.BatchDynamics`, and a step is a
fixed sequence of numpy calls whatever the number of envs (no Python loop over drones;
only the envs whose episode restarts run Python of their own, to draw their task).

It behaves as Gymnasium's ``SyncVectorEnv`` over ``envsuite.make(id, physics="dyn",
...)`` single envs does: the same per-env seeding (one generator per env from its seed;
an int seed becomes per-env seeds with :func:`envsuite.seeding.derive_seeds`, key
``"vector"``, as :func:`envsuite.make_vec` does for every vector env), the same draws of
domain randomisation, wind and task from it, the same observations, rewards, terminations,
truncations, and infos as a dict of arrays with ``_key`` masks, and ``AutoresetMode.
NEXT_STEP``: the step after an episode ends resets that env (its action is ignored; reward
0, not terminated or truncated, the reset info). Trajectories agree with the single envs'
to rounding (the tests hold them to 1e-9 over hundreds of steps, across autoresets, with
domain randomisation and wind).

Malformed actions, as the single env documents: a row with NaN or infinite values stops
that drone's motors for the control step, costs 1 reward and sets its
``info["parse_error"]``; values outside [-1, 1] are clipped. An action batch that is not
a numeric ``(num_envs, size)`` array is malformed for every env.

The batched engine is the explicit ``dyn`` physics (see
:mod:`~envsuite.families.physics.drone.batch_dynamics` for where it departs from
PyBullet's contact physics): ``physics`` defaults to ``"dyn"`` here and must be ``dyn``
with any effects. It flies ``rpm`` and ``one_d_rpm`` actions and ``kin`` observations;
other action types (which run envsuite's per-drone controllers) and cameras need the single
envs, through ``make_vec``'s ``"sync"`` or ``"async"`` modes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envsuite.families.physics.drone import batch_tasks
from envsuite.families.physics.drone.actions import NOT_FINITE
from envsuite.families.physics.drone.batch_dynamics import NOT_DYN, BatchDynamics
from envsuite.families.physics.drone.crashes import _COS_CRASH_TILT
from envsuite.families.physics.drone.drone_env import INVALID_ACTION_PENALTY, DroneEnv
from envsuite.families.physics.drone.dynamics import parse_physics
from envsuite.families.physics.drone.gate import DroneGateEnv
from envsuite.families.physics.drone.hover import DroneHoverEnv
from envsuite.families.physics.drone.observations import KIN_SIZE
from envsuite.families.physics.drone.randomization import DroneParameters, sample_parameters
from envsuite.families.physics.drone.rotations import quaternion_from_yaw
from envsuite.families.physics.drone.waypoints import DroneWaypointsEnv
from envsuite.seeding import derive_seeds, make_generator

BATCH_ACTIONS = ("rpm", "one_d_rpm")
#: Engines the env runs on: numpy (the default), or JAX (``pip install 'envsuite[jax]'``).
BACKENDS = ("numpy", "jax")
UNSUPPORTED_ACTION = (
    "the batched drone env flies 'rpm' and 'one_d_rpm' actions, got action_type={value!r}; "
    "the controller-tracked types run in single envs (make_vec's 'sync' or 'async' modes)"
)
UNSUPPORTED_OBSERVATION = (
    "the batched drone env observes 'kin' vectors (it has no cameras), got "
    "observation_type={value!r}; use make_vec's 'sync' or 'async' modes for images"
)
BAD_BATCH = "expected numeric actions of shape ({n}, {size}), got {what}"


class DroneBatchedVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` copies of one drone task on one batched ``dyn`` engine.

    Args:
        num_envs: Number of sub-environments (one drone each).
        max_episode_steps: A step limit on top of the task's own (as Gymnasium's
            ``TimeLimit``), or None (the drone specs set none).
        physics: ``"dyn"`` optionally followed by ``_gnd``, ``_drag``, ``_dw`` (the last
            acts between drones of one swarm, so not in these single-drone tasks).
        backend: ``"numpy"`` (:class:`~envsuite.families.physics.drone.batch_dynamics.
            BatchDynamics`) or ``"jax"`` (:class:`~envsuite.families.physics.drone.
            batch_dynamics_jax.JaxBatchDynamics`, XLA-compiled, on CPU or any JAX device).
        env_kwargs: The single env's other keyword arguments (``drone_model``,
            ``physics_freq``, ``ctrl_freq``, ``action_type``, ``action_buffer``,
            ``domain_randomization``, ``wind``, and the task's own).

    Raises:
        ValueError: an argument the single env refuses, a physics other than ``dyn``, an
            action type other than ``rpm`` / ``one_d_rpm``, or a camera observation.
    """

    env_class: ClassVar[type[DroneEnv]]
    task_class: ClassVar[type[batch_tasks.BatchTask]]
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        *,
        max_episode_steps: int | None = None,
        physics: str = "dyn",
        backend: str = "numpy",
        **env_kwargs: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if parse_physics(physics)[0] != "dyn":
            raise ValueError(NOT_DYN.format(value=physics))
        action_type = env_kwargs.get("action_type", "rpm")
        if action_type not in BATCH_ACTIONS:
            raise ValueError(UNSUPPORTED_ACTION.format(value=action_type))
        observation_type = env_kwargs.get("observation_type", "kin")
        if observation_type != "kin":
            raise ValueError(UNSUPPORTED_OBSERVATION.format(value=observation_type))
        if env_kwargs.get("render_mode") is not None:
            raise ValueError("the batched drone env does not render; use make_vec's 'sync' mode")
        n = self.num_envs = int(num_envs)
        # The single env checks every argument and holds the spaces and settings.
        self.template = t = self.env_class(physics=physics, **env_kwargs)
        self.max_episode_steps = max_episode_steps
        self.single_observation_space = t.observation_space
        self.single_action_space = t.action_space
        self.observation_space = batch_space(t.observation_space, n)
        self.action_space = batch_space(t.action_space, n)
        self.render_mode = None
        self.model = t.model
        self.ctrl_freq = t.ctrl_freq
        self.randomization = t.randomization
        engine_class = BatchDynamics
        if backend == "jax":
            from envsuite.families.physics.drone.batch_dynamics_jax import JaxBatchDynamics

            engine_class = JaxBatchDynamics
        self.engine = engine_class(
            t.model,
            n,
            physics,
            t.world.physics_freq,
            t.ctrl_freq,
            None if t.dynamics.wind is None else t.dynamics.wind.config,
        )
        self.task = self.task_class(t, n)
        self.action_size = t.actions.size
        self.one_d = t.actions.kind == "one_d_rpm"
        self.hover_rpm, self.above_rpm = t.actions.hover, t.actions.above
        self.buffer_length = t.buffer.length
        self.buffer = np.zeros((n, self.buffer_length * self.action_size))
        self.observation_size = KIN_SIZE + self.task.task_size + self.buffer.shape[1]
        self.crash_floor = 0.5 * t.model.collision_height + 0.01
        self.half_width, self.ceiling = t.half_width, t.ceiling

        self.rngs: list[np.random.Generator | None] = [None] * n
        self.steps = np.zeros(n, dtype=np.int64)
        self.elapsed = np.zeros(n, dtype=np.int64)
        self._autoreset = np.zeros(n, dtype=bool)
        self._any_autoreset = False
        self._command = np.zeros((4, n))
        self._no_errors = np.full(n, None, dtype=object)
        self._every = np.ones(n, dtype=bool)
        self._none = np.zeros(n, dtype=bool)
        self._action_shape = (n, self.action_size)
        self._rows = np.zeros((self.observation_size, n))

    # -- reset -------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every sub-environment (or those in ``options["reset_mask"]``).

        Args:
            seed: None, an int (per-env seeds derived from it), or one seed per env.
            options: ``{"reset_mask": bool array}`` resets only the masked envs.
        """
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, list | tuple | np.ndarray):
            seeds = list(seed)
        else:
            seeds = list(derive_seeds(int(seed), n, "vector"))
        if len(seeds) != n:
            raise ValueError(f"expected {n} seeds, got {len(seeds)}")
        mask = np.ones(n, dtype=bool)
        if options is not None and "reset_mask" in options:
            mask = np.array(options["reset_mask"], dtype=bool)
            if mask.shape != (n,) or not mask.any():
                raise ValueError("options['reset_mask'] must be a bool array with a True entry")
        ids = np.flatnonzero(mask)
        for i in ids.tolist():
            if seeds[i] is not None or self.rngs[i] is None:
                self.rngs[i], _ = seeding.np_random(seeds[i])
        infos: dict[str, Any] = {}
        self._start_episodes(ids, infos)
        self._autoreset[ids] = False
        self._any_autoreset = bool(self._autoreset.any())
        return self._observe(), infos

    def _start_episodes(self, ids: np.ndarray, infos: dict[str, Any]) -> None:
        """Draw dynamics, wind and task for envs ``ids``; put their drones at the start."""
        if ids.size == 0:
            return
        t, engine = self.template, self.engine
        positions = np.zeros((ids.size, 3))
        quaternions = np.zeros((ids.size, 4))
        drawn: list[DroneParameters] = []
        for row, i in enumerate(ids.tolist()):
            rng = self.rngs[i]
            assert rng is not None
            info: dict[str, Any] = {}
            if self.randomization is not None:
                seed = int(rng.integers(2**63))
                parameters = sample_parameters(
                    t.model, self.randomization, 1, make_generator(seed, "dynamics")
                )
                drawn.append(parameters)
            if engine.wind is not None:
                seed = int(rng.integers(2**63))
                engine.wind.reset(i, make_generator(seed, "wind"))
            positions[row], yaw = self.task.draw(i, rng)
            quaternions[row] = quaternion_from_yaw(yaw)
            info.update(self.task.reset_info(i))
            if drawn:
                info["dynamics"] = drawn[-1].as_info(0)
            self._add_info(infos, info, i)
        if drawn:
            engine.set_parameters(
                ids,
                DroneParameters(
                    mass=np.concatenate([p.mass for p in drawn]),
                    inertia=np.concatenate([p.inertia for p in drawn]),
                    kf=np.concatenate([p.kf for p in drawn]),
                    km=np.concatenate([p.km for p in drawn]),
                    motor_lag=np.concatenate([p.motor_lag for p in drawn]),
                ),
            )
        engine.start(ids, positions, quaternions)
        self.buffer[ids] = 0.0
        self.steps[ids] = 0
        self.elapsed[ids] = 0

    # -- step --------------------------------------------------------------------------
    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every sub-environment; those whose episode ended last step are reset."""
        values, errors = self._parse(actions)
        resetting = self._autoreset
        n = self.num_envs
        command = self._command
        v = values.T
        if self.one_d:
            np.copyto(command, self._rpm_of(v[0]))
        else:
            np.copyto(command, self._rpm_of(v))
        failed = None if errors is None else np.array([e is not None for e in errors])
        if failed is not None:
            command[:, failed] = 0.0
        if self.buffer_length:
            self.buffer[:, : -self.action_size] = self.buffer[:, self.action_size :]
            self.buffer[:, -self.action_size :] = values
        self.engine.advance(command)
        self.steps += 1
        self.elapsed += 1
        position = self.engine.position
        crash = self._crash_codes(position)
        reward, terminated, truncated, step_info, finals, ended = self.task.evaluate(
            position, crash, self.steps
        )
        if failed is not None:
            reward -= np.where(failed, INVALID_ACTION_PENALTY, 0.0)
        if self.max_episode_steps is not None:
            # As Gymnasium's TimeLimit: the limit truncates even a step that also terminates.
            truncated = truncated | (self.elapsed >= self.max_episode_steps)
        stepped = ~resetting if self._any_autoreset else self._every
        infos: dict[str, Any] = {}
        if stepped.any():  # (as SyncVectorEnv: no key when every env was reset)
            for key, array in step_info.items():
                if self._any_autoreset:
                    array = array.copy()
                    array[resetting] = 0
                infos[key] = array
                infos[f"_{key}"] = stepped.copy()
            parse_error = (
                self._no_errors.copy() if errors is None else np.array(errors, dtype=object)
            )
            parse_error[resetting] = None
            infos["parse_error"] = parse_error
            infos["_parse_error"] = stepped.copy()
        final = ended & stepped
        if final.any():
            for key, array in finals.items():
                infos[key] = np.where(final, array, np.zeros((), dtype=array.dtype))
                infos[f"_{key}"] = final.copy()
            reasons = np.full(n, None, dtype=object)
            for code in np.unique(crash[final]).tolist():
                reasons[final & (crash == code)] = batch_tasks.CRASH_REASONS[code]
            infos["crash"] = reasons
            infos["_crash"] = final
        if self._any_autoreset:
            ids = np.flatnonzero(resetting)
            self._start_episodes(ids, infos)
            reward[resetting] = 0.0
            terminated = terminated & ~resetting
            truncated = truncated & ~resetting
        self._autoreset = terminated | truncated
        self._any_autoreset = bool(self._autoreset.any())
        return self._observe(), reward, terminated, truncated, infos

    def _rpm_of(self, values: np.ndarray) -> np.ndarray:
        """Motor speeds of normalised ``rpm`` action values (as ``ActionMapper.rpm_of``)."""
        hover = self.hover_rpm
        return np.where(values <= 0.0, (values + 1.0) * hover, hover + self.above_rpm * values)

    def _parse(self, actions: Any) -> tuple[np.ndarray, list[str | None] | None]:
        """Actions as float64 rows clipped to [-1, 1], and each row's parse error.

        The errors are None when every row is well formed; a malformed row is zeros.
        """
        n, size = self._action_shape
        array = actions if type(actions) is np.ndarray else None
        if array is None:
            try:
                array = np.asarray(actions)
            except Exception:  # anything numpy cannot hold is malformed
                array = np.empty(0, dtype=object)
        if array.shape != self._action_shape or array.dtype.kind not in "fiu":
            what = f"{array.dtype} array of shape {array.shape}"
            message = BAD_BATCH.format(n=n, size=size, what=what)
            return np.zeros(self._action_shape), [message] * n
        values = array.astype(np.float64)
        total = float(np.add.reduce(values, axis=None))
        if total - total == 0.0:  # finite, so is every value (an overflow takes the long way)
            return np.clip(values, -1.0, 1.0, out=values), None
        finite = np.asarray(np.isfinite(values).all(axis=1))
        values[~finite] = 0.0
        np.clip(values, -1.0, 1.0, out=values)
        if finite.all():
            return values, None
        return values, [None if ok else NOT_FINITE for ok in finite.tolist()]

    def _crash_codes(self, position: np.ndarray) -> np.ndarray:
        """:class:`~envsuite.families.physics.drone.crashes.CrashRule` for every drone."""
        q = self.engine._q
        x, y, z = position
        code = np.zeros(self.num_envs, dtype=np.int64)
        w = self.half_width
        out = (x > w) | (x < -w) | (y > w) | (y < -w) | (z > self.ceiling)
        code[out] = 3
        tilt = 1.0 - 2.0 * (q[0] * q[0] + q[1] * q[1]) < _COS_CRASH_TILT
        code[tilt] = 2
        code[z < self.crash_floor] = 1
        return code

    # -- observations ------------------------------------------------------------------
    def _observe(self) -> np.ndarray:
        """Every env's ``kin`` observation ``(num_envs, size)``, float32."""
        engine = self.engine
        q = engine._q
        x, y, z, w = q[0], q[1], q[2], q[5]
        rows = self._rows
        rows[0:3] = engine.position
        rows[3:6] = q[0:3]
        rows[6] = w
        # Roll, pitch, yaw as PyBullet's getEulerFromQuaternion computes them.
        ww, xx, yy, zz = w * w, x * x, y * y, z * z
        np.arctan2(2 * (y * z + w * x), ww - xx - yy + zz, out=rows[7])
        sine = -2 * (x * z - w * y)
        pitch = np.arcsin(np.clip(sine, -1.0, 1.0), out=rows[8])
        if np.abs(sine).max() >= 1.0:
            pitch[sine <= -1.0] = -0.5 * 3.141592538
            pitch[sine >= 1.0] = 0.5 * 3.141592538
        np.arctan2(2 * (x * y + w * z), ww + xx - yy - zz, out=rows[9])
        rows[10:13] = engine.velocity
        engine.angular_velocity(out=rows[13:16])
        end = KIN_SIZE + self.task.task_size
        rows[KIN_SIZE:end] = self.task.features(engine.position, self.steps)
        if self.buffer_length:
            rows[end:] = self.buffer.T
        return rows.T.astype(np.float32, order="C")

    # -- state -------------------------------------------------------------------------
    def drone_states(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every drone's position, quaternion, velocity and body rates, ``(num_envs, k)``."""
        e = self.engine
        return (
            e.position.T.copy(),
            e.quaternion.T.copy(),
            e.velocity.T.copy(),
            e.body_rates.T.copy(),
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Release the template env."""
        self.template.close()


class DroneHoverBatchedVectorEnv(DroneBatchedVectorEnv):
    """Batched ``envsuite/DroneHover-v0`` (explicit ``dyn`` physics)."""

    env_class = DroneHoverEnv
    task_class = batch_tasks.HoverTask


class DroneWaypointsBatchedVectorEnv(DroneBatchedVectorEnv):
    """Batched ``envsuite/DroneWaypoints-v0`` (explicit ``dyn`` physics)."""

    env_class = DroneWaypointsEnv
    task_class = batch_tasks.WaypointsTask


class DroneGateBatchedVectorEnv(DroneBatchedVectorEnv):
    """Batched ``envsuite/DroneGate-v0`` (explicit ``dyn`` physics)."""

    env_class = DroneGateEnv
    task_class = batch_tasks.GateTask


__all__ = [
    "DroneBatchedVectorEnv",
    "DroneGateBatchedVectorEnv",
    "DroneHoverBatchedVectorEnv",
    "DroneWaypointsBatchedVectorEnv",
]
