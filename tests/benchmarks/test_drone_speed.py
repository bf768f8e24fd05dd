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
    per physics step, ``restoreState`` resets. This is the "about 15k env-steps/s lean
    loop" gym-pybullet-drones' HoverAviary (0.8–0.9k env-steps/s) is measured against.

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

  (measured 2026-11-24: PyFlyt 0.29 about 530 env-steps/s, envsuite CTBR about 19k,
  36x; envsuite's CTBR runs its rate loop and reads the state at every physics step,
  as PyFlyt does).

Each benchmark reports ``env_steps_per_s`` (mean round) and ``env_steps_per_s_best_round``
in its ``extra_info``. On a shared machine, add
``--benchmark-timer=time.process_time`` to time CPU rather than wall-clock seconds (other
processes then distort the ratios far less). The repo's pytest config
passes ``--benchmark-disable``, so in CI every benchmark runs once as a plain test of its
result. Nothing here asserts a time.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import pybullet as p
import pybullet_data

import envsuite
from envsuite.families.physics.drone.crashes import CRASH_TILT
from envsuite.families.physics.drone.models import MODELS, write_text_file, write_urdf
from envsuite.families.physics.drone.rotations import quaternion_from_euler
from envsuite.seeding import make_generator

HOVER = "envsuite/DroneHover-v0"
SWARM = "envsuite/DroneSwarm-v0"
STEPS = 3000
SWARM_STEPS = 90
SEED = 2024
ROUNDS = 10
CF = MODELS["cf2x"]
ACTIONS = make_generator(0, "drone-benchmark").uniform(-1.0, 1.0, (STEPS, 4)).astype(np.float32)
ACTION_LISTS: list[list[float]] = ACTIONS.tolist()


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


# -- DroneHover-v0 and the raw loops -----------------------------------------------------
def envsuite_hover(env: Any) -> tuple[int, list[float]]:
    """STEPS random actions from a seeded reset; reset whenever an episode ends."""
    env.reset(seed=SEED)
    resets = 0
    observation = None
    for action in ACTIONS:
        observation, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
            resets += 1
    return resets, observation[:3].tolist()


def _crazyflie_world(urdf: str) -> tuple[int, int, int]:
    client = p.connect(p.DIRECT)
    p.setGravity(0.0, 0.0, -9.8, physicsClientId=client)
    p.setTimeStep(1.0 / 240, physicsClientId=client)
    p.loadURDF(f"{pybullet_data.getDataPath()}/plane.urdf", physicsClientId=client)
    body = p.loadURDF(
        urdf, [1000.0, 0.0, 1.0], flags=p.URDF_USE_INERTIA_FROM_FILE, physicsClientId=client
    )
    p.changeDynamics(
        body, -1, activationState=p.ACTIVATION_STATE_DISABLE_SLEEPING, linearDamping=0.0,
        angularDamping=0.0, physicsClientId=client,
    )  # fmt: skip
    return client, body, p.saveState(physicsClientId=client)


class RawHover:
    """The raw loops: DroneHover-v0's task (same starts, crash rule, episode length)."""

    def __init__(self, reference_style: bool) -> None:
        urdf = reference_urdf() if reference_style else write_urdf(CF)
        self.reference_style = reference_style
        self.client, self.body, self.saved = _crazyflie_world(str(urdf))
        self.rng = np.random.Generator(np.random.PCG64(0))

    def start(self) -> None:
        # The env's draw: the start offset and the heading.
        ux, uy, uz, uyaw = self.rng.random(4).tolist()
        offset = (0.5 * (2.0 * ux - 1.0), 0.5 * (2.0 * uy - 1.0), 0.5 * (2.0 * uz - 1.0))
        position = [offset[0], offset[1], max(1.0 + offset[2], 0.3)]
        yaw = math.pi * (2.0 * uyaw - 1.0)
        quaternion = np.array([quaternion_from_euler(0.0, 0.0, yaw)])
        p.restoreState(self.saved, physicsClientId=self.client)
        p.resetBasePositionAndOrientation(self.body, position, quaternion[0].tolist(), self.client)
        p.resetBaseVelocity(self.body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], self.client)

    def __call__(self) -> tuple[int, list[float]]:
        self.rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(SEED)))
        self.start()
        hover, above = CF.hover_rpm, CF.max_rpm - CF.hover_rpm
        mix = CF.mixer().tolist()
        kf, km, spin = CF.kf, CF.km, CF.spin
        body, client = self.body, self.client
        force, torque, step = p.applyExternalForce, p.applyExternalTorque, p.stepSimulation
        pose, speed = p.getBasePositionAndOrientation, p.getBaseVelocity
        frame, origin = p.LINK_FRAME, [0.0, 0.0, 0.0]
        floor, ceiling, cos_tilt = 0.5 * CF.collision_height + 0.01, 2.5, math.cos(CRASH_TILT)
        steps, resets, position = 0, 0, (0.0, 0.0, 0.0)
        for a0, a1, a2, a3 in ACTION_LISTS:
            r0 = (a0 + 1.0) * hover if a0 <= 0.0 else hover + above * a0
            r1 = (a1 + 1.0) * hover if a1 <= 0.0 else hover + above * a1
            r2 = (a2 + 1.0) * hover if a2 <= 0.0 else hover + above * a2
            r3 = (a3 + 1.0) * hover if a3 <= 0.0 else hover + above * a3
            w0, w1, w2, w3 = r0 * r0, r1 * r1, r2 * r2, r3 * r3
            if self.reference_style:
                forces = [[0.0, 0.0, kf * w] for w in (w0, w1, w2, w3)]
                yaw = [0.0, 0.0, km * (spin[0] * w0 + spin[1] * w1 + spin[2] * w2 + spin[3] * w3)]
                for _ in range(8):
                    for link in range(4):
                        force(body, link, forces[link], origin, frame, client)
                    torque(body, 4, yaw, frame, client)
                    step(client)
            else:
                m = mix
                thrust = [0.0, 0.0, m[0][0] * w0 + m[0][1] * w1 + m[0][2] * w2 + m[0][3] * w3]
                moment = [
                    m[1][0] * w0 + m[1][1] * w1 + m[1][2] * w2 + m[1][3] * w3,
                    m[2][0] * w0 + m[2][1] * w1 + m[2][2] * w2 + m[2][3] * w3,
                    m[3][0] * w0 + m[3][1] * w1 + m[3][2] * w2 + m[3][3] * w3,
                ]
                for _ in range(8):
                    force(body, -1, thrust, origin, frame, client)
                    torque(body, -1, moment, frame, client)
                    step(client)
            steps += 1
            position, quaternion = pose(body, client)
            speed(body, client)
            x, y, z = position
            qx, qy = quaternion[0], quaternion[1]
            crashed = (
                z < floor
                or 1.0 - 2.0 * (qx * qx + qy * qy) < cos_tilt
                or abs(x) > 2.0
                or abs(y) > 2.0
                or z > ceiling
            )
            if crashed or steps >= 240:
                self.start()
                steps = 0
                resets += 1
        return resets, list(position)


def reference_urdf() -> Path:
    """gym-pybullet-drones' cf2x.urdf layout: base, 4 massless propeller links, a COM link."""
    links = [("prop0", 0.028, 0.028), ("prop1", -0.028, 0.028), ("prop2", -0.028, -0.028),
             ("prop3", 0.028, -0.028), ("center_of_mass", 0.0, 0.0)]  # fmt: skip
    zero = '<inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/>'
    parts = [
        f'<link name="{name}_link"><inertial><origin xyz="{x} {y} 0"/><mass value="0"/>'
        f'{zero}</inertial></link><joint name="{name}_joint" type="fixed">'
        f'<parent link="base_link"/><child link="{name}_link"/></joint>'
        for name, x, y in links
    ]
    text = (
        '<?xml version="1.0" ?><robot name="cf2"><link name="base_link"><inertial>'
        '<origin xyz="0 0 0"/><mass value="0.027"/><inertia ixx="1.4e-5" ixy="0" ixz="0" '
        'iyy="1.4e-5" iyz="0" izz="2.17e-5"/></inertial><collision><geometry>'
        '<cylinder radius=".06" length=".025"/></geometry></collision></link>'
        + "".join(parts)
        + "</robot>"
    )
    return write_text_file(text, "cf2x-reference-style")


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
