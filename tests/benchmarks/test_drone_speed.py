"""Drone env speed against raw PyBullet loops doing the same physics, in the same run.

Groups (``pytest tests/benchmarks/test_drone_speed.py --benchmark-enable`` prints each
group's table; a row's mean over the raw row's mean is envsuite's cost relative to it):

- ``drone-hover``: DroneHover-v0 through ``envsuite.make`` (Gymnasium's wrappers included)
  with random RPM actions, resetting whenever an episode ends, against

  * ``raw_same_physics``: the leanest loop doing exactly the env's physics — the same URDF,
    240 Hz, 8 physics steps per action, each applying the motors' net wrench (one force,
    one torque), the same crash rule and the same ``restoreState`` resets at the same
    seeded start poses. It flies the env's trajectory to the last bit (checked below);
  * ``raw_reference_style``: the loop gym-pybullet-drones runs, leanly: its 5-link
    Crazyflie URDF (massless propeller links), 4 forces at the propellers and 1 yaw torque
    per physics step, ``restoreState`` resets. This is the lean loop gym-pybullet-drones'
    HoverAviary (0.8–0.9k env-steps/s) is measured against; ``envsuite bench --rows
    drone-hover`` reports its rate as ``reference_style_steps_per_s``;
  * ``gymnasium_floor``: the same-physics loop as the leanest ``gymnasium.Env``
    (``envsuite/bench/drone_floor.py``: no wrapper, no action check), what the API alone
    adds to the raw loop.

- ``drone-ctbr``: DroneHover-v0 with CTBR actions (the same random actions) against
  ``RawHoverRates``, the leanest loop running the same rate controller at every physics
  step (state read, body rates, control law, allocation, wrench) inline; it flies the
  env's trajectory to the last bit (checked below).

- ``drone-swarm``: DroneSwarm-v0 with 10 drones (three seconds of random collective-thrust
  changes around hover, which keep all of them flying) against a raw loop stepping the
  same 10 bodies from the same start poses with their wrenches and reading their states
  every control step.

- ``drone-pyflyt``: where PyFlyt installs, its QuadX-Hover-v4 (30 Hz agent, 240 Hz
  physics, body-rate and thrust actions, resets included) against DroneHover-v0 with CTBR
  actions, the same kind of action. Skipped when PyFlyt is not installed (it pins
  numpy < 2, so it does not go into envsuite's own environment). envsuite also runs on
  numpy 1.26, so the comparison runs in a venv of its own::

      python3.11 -m venv /tmp/pyflyt && . /tmp/pyflyt/bin/activate
      pip install PyFlyt -e ".[physics]" pytest pytest-benchmark
      pytest tests/benchmarks/test_drone_speed.py -k pyflyt --benchmark-enable

  (PyFlyt 0.29 measured about 530 env-steps/s there on 2026-11-24. envsuite's CTBR
  hover, as ``envsuite bench --rows drone-ctbr`` measured it on 2026-11-28 on this
  repo's shared 2-core x86_64 machine under a load average of about 12: 15.9-16.2k
  env-steps/s, best rounds on the CPU clock, 1.13-1.14x its raw rate-controller loop.
  envsuite's CTBR runs its rate loop and reads the state at every physics step, as
  PyFlyt does.)

Each benchmark reports ``env_steps_per_s`` (mean round) and ``env_steps_per_s_best_round``
in its ``extra_info``. On a shared machine, add
``--benchmark-timer=time.process_time`` to time CPU rather than wall-clock seconds (other
processes then distort the ratios far less). The repo's pytest config
passes ``--benchmark-disable``, so in CI every benchmark runs once as a plain test of its
result. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import pybullet as p
import pybullet_data

import envsuite
from envsuite.bench.drone import (
    CF,
    HOVER,
    SEED,
    STEPS,
    RawHover,
    RawHoverRates,
    envsuite_hover,
)
from envsuite.bench.drone_floor import FloorHover
from envsuite.families.physics.drone.models import write_urdf
from envsuite.seeding import make_generator

SWARM = "envsuite/DroneSwarm-v0"
SWARM_STEPS = 90
ROUNDS = 10


def run(benchmark: Any, function: Callable[[], Any], steps: int) -> Any:
    """Benchmark ``function`` (``steps`` env steps per call) and record its step rate."""
    started = time.perf_counter()
    result = benchmark.pedantic(function, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["env_steps_per_s"] = steps / stats.stats.mean
        benchmark.extra_info["env_steps_per_s_best_round"] = steps / stats.stats.min
    else:  # benchmarks disabled: one plain call
        benchmark.extra_info["env_steps_per_s"] = steps / (time.perf_counter() - started)
    return result


@pytest.fixture(scope="module")
def hover_env() -> Any:
    return envsuite.make(HOVER)


@pytest.fixture(scope="module")
def expected_hover(hover_env: Any) -> tuple[int, list[float]]:
    return envsuite_hover(hover_env)


@pytest.mark.benchmark(group="drone-hover")
def test_hover_envsuite(benchmark: Any, hover_env: Any, expected_hover: Any) -> None:
    resets, position = run(benchmark, lambda: envsuite_hover(hover_env), STEPS)
    assert (resets, position) == expected_hover
    assert resets > 50  # random actions crash often: resets are part of what is measured


@pytest.mark.benchmark(group="drone-hover")
def test_hover_raw_same_physics(benchmark: Any, expected_hover: Any) -> None:
    resets, position = run(benchmark, RawHover(reference_style=False), STEPS)
    # The same physics: the env's episode count and final position, to the last bit.
    assert resets == expected_hover[0]
    assert np.array(position, dtype=np.float32).tolist() == expected_hover[1]


@pytest.mark.benchmark(group="drone-hover")
def test_hover_raw_reference_style(benchmark: Any, expected_hover: Any) -> None:
    resets, _ = run(benchmark, RawHover(reference_style=True), STEPS)
    # Forces at the propellers instead of their net wrench: the same physics up to rounding,
    # which random flight amplifies, so only the episode count is comparable.
    assert abs(resets - expected_hover[0]) <= 0.2 * expected_hover[0]


@pytest.mark.benchmark(group="drone-hover")
def test_hover_gymnasium_floor(benchmark: Any, expected_hover: Any) -> None:
    resets, position = run(benchmark, lambda: envsuite_hover(FloorHover()), STEPS)
    # The raw loop behind the bare Gymnasium API flies the env's trajectory too.
    assert (resets, position) == expected_hover
    assert FloorHover.observation_space.contains(FloorHover().reset(seed=0)[0])


# -- DroneHover-v0 with CTBR actions ------------------------------------------------------
@pytest.fixture(scope="module")
def rates_env() -> Any:
    return envsuite.make(HOVER, action_type="ctbr")


@pytest.fixture(scope="module")
def expected_rates(rates_env: Any) -> tuple[int, list[float]]:
    return envsuite_hover(rates_env)


@pytest.mark.benchmark(group="drone-ctbr")
def test_ctbr_envsuite(benchmark: Any, rates_env: Any, expected_rates: Any) -> None:
    resets, position = run(benchmark, lambda: envsuite_hover(rates_env), STEPS)
    assert (resets, position) == expected_rates
    assert resets > 20


@pytest.mark.benchmark(group="drone-ctbr")
def test_ctbr_raw_rate_loop(benchmark: Any, expected_rates: Any) -> None:
    resets, position = run(benchmark, RawHoverRates(), STEPS)
    # The same physics and rate loop: the env's episode count and final position.
    assert resets == expected_rates[0]
    assert np.array(position, dtype=np.float32).tolist() == expected_rates[1]


# -- DroneSwarm-v0 with 10 drones --------------------------------------------------------
#: Small random changes of collective thrust around hover (the same on all four motors, so
#: no torque): three seconds of them keep all ten drones flying.
SWARM_ACTIONS = np.repeat(
    make_generator(1, "drone-benchmark").uniform(-0.02, 0.02, (SWARM_STEPS, 10, 1)), 4, axis=2
).astype(np.float32)


def envsuite_swarm(env: Any) -> int:
    env.reset(seed=SEED)
    for joint in SWARM_ACTIONS:
        env.step({agent: joint[index] for index, agent in enumerate(env.agents)})
    return len(env.agents)


class RawSwarm:
    """The same 10 Crazyflies from the same start: wrenches, ``stepSimulation``, state reads."""

    def __init__(self, starts: list[tuple[Any, Any]]) -> None:
        self.client = p.connect(p.DIRECT)
        p.setGravity(0.0, 0.0, -9.8, physicsClientId=self.client)
        p.setTimeStep(1.0 / 240, physicsClientId=self.client)
        p.loadURDF(f"{pybullet_data.getDataPath()}/plane.urdf", physicsClientId=self.client)
        urdf = str(write_urdf(CF))
        self.bodies = [
            p.loadURDF(urdf, position, quaternion, flags=p.URDF_USE_INERTIA_FROM_FILE,
                       physicsClientId=self.client)
            for position, quaternion in starts
        ]  # fmt: skip
        self.saved = p.saveState(physicsClientId=self.client)
        self.mix = CF.mixer()

    def __call__(self) -> int:
        p.restoreState(self.saved, physicsClientId=self.client)
        hover, above, client = CF.hover_rpm, CF.max_rpm - CF.hover_rpm, self.client
        force, torque, step = p.applyExternalForce, p.applyExternalTorque, p.stepSimulation
        frame, origin = p.LINK_FRAME, [0.0, 0.0, 0.0]
        flying = 0
        for joint in SWARM_ACTIONS:
            rpm = np.where(joint <= 0, (joint + 1.0) * hover, hover + above * joint)
            wrench = (rpm * rpm) @ self.mix.T
            forces = [[0.0, 0.0, t] for t in wrench[:, 0].tolist()]
            torques = wrench[:, 1:].tolist()
            for _ in range(8):
                for body, f, t in zip(self.bodies, forces, torques, strict=True):
                    force(body, -1, f, origin, frame, client)
                    torque(body, -1, t, frame, client)
                step(client)
            states = [
                (p.getBasePositionAndOrientation(body, client), p.getBaseVelocity(body, client))
                for body in self.bodies
            ]
            flying = sum(pose[0][2] > 0.1 for pose, _ in states)
        return flying


@pytest.fixture(scope="module")
def swarm_env() -> Any:
    return envsuite.make(SWARM, parallel=True, num_drones=10)


@pytest.mark.benchmark(group="drone-swarm")
def test_swarm_envsuite(benchmark: Any, swarm_env: Any) -> None:
    assert run(benchmark, lambda: envsuite_swarm(swarm_env), SWARM_STEPS) == 10


@pytest.mark.benchmark(group="drone-swarm")
def test_swarm_raw(benchmark: Any, swarm_env: Any) -> None:
    swarm_env.reset(seed=SEED)
    starts = [
        swarm_env.unwrapped.world.body_state(body)[:2] for body in swarm_env.unwrapped.world.drones
    ]
    assert run(benchmark, RawSwarm(starts), SWARM_STEPS) == 10


# -- PyFlyt ------------------------------------------------------------------------------
def hover_episodes(env: Any, actions: np.ndarray) -> int:
    env.reset(seed=SEED)
    resets = 0
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
            resets += 1
    return resets


PYFLYT_STEPS = 600
RATE_ACTIONS = make_generator(2, "drone-benchmark").uniform(-1, 1, (PYFLYT_STEPS, 4))


@pytest.mark.benchmark(group="drone-pyflyt")
def test_pyflyt_quadx_hover(benchmark: Any) -> None:
    pytest.importorskip("PyFlyt")
    import gymnasium
    import PyFlyt.gym_envs  # noqa: F401  (registers the PyFlyt envs)

    env = gymnasium.make("PyFlyt/QuadX-Hover-v4", agent_hz=30)
    low, high = env.action_space.low, env.action_space.high
    actions = (low + (RATE_ACTIONS + 1.0) / 2.0 * (high - low)).astype(np.float32)
    assert run(benchmark, lambda: hover_episodes(env, actions), PYFLYT_STEPS) >= 0


@pytest.mark.benchmark(group="drone-pyflyt")
def test_pyflyt_envsuite_ctbr_hover(benchmark: Any) -> None:
    pytest.importorskip("PyFlyt")
    env = envsuite.make(HOVER, action_type="ctbr")
    actions = RATE_ACTIONS.astype(np.float32)
    assert run(benchmark, lambda: hover_episodes(env, actions), PYFLYT_STEPS) > 0
