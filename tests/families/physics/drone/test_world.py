"""The PyBullet world: saved-state resets, pickling the live state, releasing the client."""

from __future__ import annotations

import gc
import os
import pickle

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import pybullet as p

import envsuite
from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.world import DroneWorld


def test_restore_returns_every_body_to_the_built_state():
    world = DroneWorld(MODELS["cf2x"], 2, 240, num_gates=1)
    built = [world.body_state(body) for body in world.drones + world.gates]
    world.place(world.drones[0], (0.0, 0.0, 1.0), velocity=(1.0, 0.0, 0.0))
    world.place(world.gates[0], (3.0, 0.0, 1.0))
    for _ in range(10):
        p.stepSimulation(physicsClientId=world.client)
    world.restore()
    assert [world.body_state(body) for body in world.drones + world.gates] == built


def test_a_pickled_world_has_its_own_client_and_the_same_state():
    world = DroneWorld(MODELS["racer"], 1, 240)
    world.place(world.drones[0], (0.1, 0.2, 1.3), (0.0, 0.0, 0.38268343, 0.92387953),
                (0.5, 0.0, -0.1), (0.0, 0.2, 0.0))  # fmt: skip
    world.set_inertial(0, 0.9, (0.0031, 0.0032, 0.0033))
    twin = pickle.loads(pickle.dumps(world))
    assert twin.client != world.client
    assert twin.body_state(twin.drones[0]) == world.body_state(world.drones[0])
    info = p.getDynamicsInfo(twin.drones[0], -1, physicsClientId=twin.client)
    assert info[0] == 0.9 and info[2] == pytest.approx((0.0031, 0.0032, 0.0033))
    for _ in range(20):
        p.stepSimulation(physicsClientId=world.client)
        p.stepSimulation(physicsClientId=twin.client)
    assert twin.body_state(twin.drones[0]) == world.body_state(world.drones[0])


def test_closing_or_dropping_an_env_releases_its_client():
    env = envsuite.make("envsuite/DroneHover-v0")
    client = env.unwrapped.world.client
    env.close()
    env.close()
    assert not p.isConnected(physicsClientId=client)
    env = envsuite.make("envsuite/DroneHover-v0")
    client = env.unwrapped.world.client
    del env
    gc.collect()
    assert not p.isConnected(physicsClientId=client)


def _step(env, action):
    if hasattr(env, "possible_agents"):
        return env.step({agent: action for agent in env.agents})
    return env.step(action)


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("envsuite/DroneHover-v0", {"domain_randomization": True, "wind": True}),
        ("envsuite/DroneWaypoints-v0", {"physics": "dyn_gnd_drag_dw", "action_type": "pid"}),
        ("envsuite/DroneGate-v0", {"action_type": "ctbr", "action_buffer": 2}),
        ("envsuite/DroneSwarm-v0", {"parallel": True, "num_drones": 3, "physics": "pyb_dw"}),
    ],
)
def test_a_pickled_env_continues_byte_for_byte(env_id, kwargs):
    env = envsuite.make(env_id, **kwargs)
    space = env.action_space(env.possible_agents[0]) if "parallel" in kwargs else env.action_space
    rng = np.random.default_rng(0)
    actions = rng.uniform(-0.2, 0.2, (40, *space.shape)).astype(np.float32)
    env.reset(seed=1)
    for step in range(10):
        _step(env, actions[step])
    twin = pickle.loads(pickle.dumps(env))
    for step in range(10, 40):
        assert pickle.dumps(_step(env, actions[step])) == pickle.dumps(_step(twin, actions[step]))
