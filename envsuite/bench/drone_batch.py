"""The batched drone env (DroneHover-v0, 1,024 drones) against its physics and SyncVectorEnv.

:func:`batched_env` is what ``envsuite.make_vec("envsuite/DroneHover-v0", 1024,
vectorization_mode="vector_entry_point")`` builds (explicit ``dyn`` physics, RPM actions).
It flies recorded actions of :func:`hold_policy`, an altitude-and-attitude hold with a
little motor noise (so drones fly, tilt and turn; the policy's own time is left out):
:data:`STEPS` steps from the seeded reset, a whole 8 s episode (240 steps), the restart of
every env (NEXT_STEP autoreset) and 9 steps of the next episode. Three loops replay them,
each after an untimed seeded reset (:meth:`Replay.prepare`):

- :class:`Replay` of the batched env: the Gymnasium vector env users get;
- :class:`RawPhysics`: the raw limit, the batched engine's own control step
  (``BatchDynamics.advance``) called on its arrays with the RPM commands the env computed,
  and the drones put back at the same start poses at the same steps (``BatchDynamics.
  start``), recorded from one untimed run of the env. It ends in the env's state to the last
  bit. What the env adds on top is its whole Gymnasium layer: checking, clipping and
  mapping the actions, the crash rule, rewards, observations, infos and each restarted
  env's own draw of its task;
- :class:`Replay` of :func:`sync_env`, ``make_vec``'s default ``"sync"`` mode: Gymnasium's
  ``SyncVectorEnv`` of ``envsuite.make(HOVER, physics="dyn")`` single envs, the first
  ``count`` envs of the batched one (the same seeds and actions; the tests check that they
  fly alike). It steps one env after another, so its time per drone-step does not depend on
  how many envs it holds; each holds a PyBullet client (about 28 MB), so it holds a few.

``tests/benchmarks/test_drone_batch_speed.py`` and ``envsuite bench --rows drone-batch``
time these loops.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import envsuite
from envsuite.bench.timing import cpu_seconds
from envsuite.families.physics.drone.batch_dynamics import BatchDynamics
from envsuite.seeding import make_generator

HOVER = "envsuite/DroneHover-v0"
NUM_ENVS = 1024
STEPS = 250
SYNC_ENVS = 16
SYNC_STEPS = 8
SEED = 3
#: Motor order of cf2x (front-left, back-left, back-right, front-right): which side of the
#: body's x and y axes each motor is on.
_SIDE_Y = np.array([1.0, 1.0, -1.0, -1.0])
_SIDE_X = np.array([1.0, -1.0, -1.0, 1.0])


def hold_policy(observations: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """RPM actions holding the target's altitude and a level attitude, plus motor noise."""
    climb = 0.6 * observations[:, 18] - 0.4 * observations[:, 12]
    # The angular velocity is observed in the world frame: turn it into the heading's.
    cos_yaw, sin_yaw = np.cos(observations[:, 9]), np.sin(observations[:, 9])
    rate_x, rate_y = observations[:, 13], observations[:, 14]
    roll = -0.1 * observations[:, 7] - 0.015 * (cos_yaw * rate_x + sin_yaw * rate_y)
    pitch = -0.1 * observations[:, 8] - 0.015 * (cos_yaw * rate_y - sin_yaw * rate_x)
    actions = climb[:, None] + roll[:, None] * _SIDE_Y - pitch[:, None] * _SIDE_X + noise
    return np.clip(actions, -1.0, 1.0)


def batched_env(num_envs: int = NUM_ENVS, **kwargs: Any) -> Any:
    """The batched vector env, as users get it (``kwargs``: the env's, or ``vector_kwargs``)."""
    return envsuite.make_vec(HOVER, num_envs, vectorization_mode="vector_entry_point", **kwargs)


def sync_env(count: int = SYNC_ENVS) -> Any:
    """``make_vec``'s default mode: ``SyncVectorEnv`` of ``count`` single ``dyn`` envs.

    ``reset(seed=SEED)`` gives them the seeds of the batched env's first ``count`` envs.
    """
    return envsuite.make_vec(HOVER, count, physics="dyn")


def record_actions(env: Any, steps: int) -> np.ndarray:
    """Fly the hold policy once (untimed) from the seeded reset; its actions ``(steps, n, 4)``."""
    shape = (steps, env.num_envs, 4)
    noise = make_generator(SEED, "drone-batch-noise").uniform(-0.01, 0.01, shape)
    observations, _ = env.reset(seed=SEED)
    actions = np.zeros(shape)
    for step in range(steps):
        actions[step] = hold_policy(observations, noise[step])
        observations, *_ = env.step(actions[step])
    return actions


def replay(env: Any, actions: np.ndarray) -> tuple[int, int]:
    """Step ``env`` through ``actions``; return (drone-steps, episodes ended)."""
    ended = 0
    for batch in actions:
        _, _, terminated, truncated, _ = env.step(batch)
        ended += int(np.count_nonzero(terminated | truncated))
    return actions.shape[0] * actions.shape[1], ended


class Replay:
    """A vector env replaying ``actions`` ``(steps, n, 4)`` from the seeded reset.

    Args:
        env: A vector env of ``n`` envs (batched or ``SyncVectorEnv``).
        actions: The actions of every step.
    """

    def __init__(self, env: Any, actions: np.ndarray) -> None:
        self.env = env
        self.actions = actions
        self.prepare()

    def prepare(self) -> None:
        """The seeded reset (untimed: the rounds time the steps only)."""
        self.env.reset(seed=SEED)

    def __call__(self) -> tuple[int, int]:
        """Replay the actions; (drone-steps, episodes ended)."""
        return replay(self.env, self.actions)


@dataclass
class Restart:
    """Drones the env put back at their start after a step, and where.

    Attributes:
        step: The step (0-based) after whose physics they restarted.
        ids: Their env indices.
        positions: Their start positions ``(k, 3)``.
        quaternions: Their start attitudes ``(k, 4)`` (x, y, z, w).
    """

    step: int
    ids: np.ndarray
    positions: np.ndarray
    quaternions: np.ndarray


@dataclass
class Flight:
    """What the batched env fed its engine over a replay, for :class:`RawPhysics`.

    Attributes:
        start: Start positions ``(n, 3)`` and quaternions ``(n, 4)`` of the seeded reset.
        commands: RPM commands ``(steps, 4, n)``, clipped as the engine clips them.
        restarts: The autoresets, in step order.
        final_position: Every drone's position after the last step ``(n, 3)``.
    """

    start: tuple[np.ndarray, np.ndarray]
    commands: np.ndarray
    restarts: list[Restart] = field(default_factory=list)
    final_position: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))


def record_flight(env: Any, actions: np.ndarray) -> Flight:
    """Replay ``actions`` once (untimed) in the batched ``env``; what its engine received."""
    inner = env.unwrapped
    env.reset(seed=SEED)
    position, quaternion, _, _ = inner.drone_states()
    # The env's mapping of clipped actions to motor speeds (``_rpm_of``), per step (4, n).
    values = np.clip(actions.astype(np.float64), -1.0, 1.0).transpose(0, 2, 1)
    hover, above = inner.hover_rpm, inner.above_rpm
    commands = np.where(values <= 0.0, (values + 1.0) * hover, hover + above * values)
    np.clip(commands, 0.0, inner.engine.max_rpm, out=commands)
    flight = Flight((position, quaternion), np.ascontiguousarray(commands))
    resetting = np.zeros(env.num_envs, dtype=bool)
    for step, batch in enumerate(actions):
        _, _, terminated, truncated, _ = env.step(batch)
        if resetting.any():
            ids = np.flatnonzero(resetting)
            position, quaternion, _, _ = inner.drone_states()
            flight.restarts.append(Restart(step, ids, position[ids], quaternion[ids]))
        resetting = terminated | truncated
    flight.final_position = inner.drone_states()[0]
    return flight


class RawPhysics:
    """The batched env's physics alone: its engine stepped on the recorded commands.

    Args:
        env: The batched env whose engine is copied (airframe, frequencies); it must fly
            plain ``dyn`` physics (no effects), nominal airframes (no domain randomisation)
            in still air (no wind).
        flight: What :func:`record_flight` recorded from ``env``.
    """

    def __init__(self, env: Any, flight: Flight) -> None:
        inner = env.unwrapped
        if inner.randomization is not None or not inner.engine.thrust_only:
            raise ValueError("RawPhysics replays plain 'dyn' physics, nominal airframes, still air")
        self.engine = BatchDynamics(
            inner.model, env.num_envs, "dyn", inner.template.world.physics_freq, inner.ctrl_freq
        )
        self.flight = flight
        self.ids = np.arange(env.num_envs)
        self.prepare()

    def prepare(self) -> None:
        """Every drone at rest at the seeded reset's start pose."""
        self.engine.start(self.ids, *self.flight.start)

    def __call__(self) -> np.ndarray:
        """Step the engine through the flight; the final positions ``(n, 3)`` (a view)."""
        engine, flight = self.engine, self.flight
        restarts = iter(flight.restarts)
        restart = next(restarts, None)
        for step, command in enumerate(flight.commands):
            engine.advance(command)
            if restart is not None and restart.step == step:
                engine.start(restart.ids, restart.positions, restart.quaternions)
                restart = next(restarts, None)
        return engine.position.T


def prepared_cpu_seconds(loop: Any) -> float:
    """CPU seconds of one call of ``loop`` after its untimed ``prepare()``."""
    loop.prepare()
    return cpu_seconds(loop)
