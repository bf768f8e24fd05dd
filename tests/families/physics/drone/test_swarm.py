"""DroneSwarm-v0: PettingZoo API, formations held by the oracle, collisions and downwash."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import envsuite

from .flights import fly_swarm_oracle

SWARM = "envsuite/DroneSwarm-v0"


def test_parallel_api():
    parallel_api_test(envsuite.make(SWARM, parallel=True, num_drones=3), num_cycles=50)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_drones": 4},
        {"num_drones": 5, "task": "leader", "formation": "v", "physics": "pyb_dw"},
        {"num_drones": 10, "formation": "grid", "physics": "pyb_gnd_drag_dw"},
    ],
    ids=["ring", "leader-v", "grid-10"],
)
def test_oracle_keeps_the_formation(kwargs):
    env = envsuite.make(SWARM, parallel=True, **kwargs)
    for seed in range(2):
        finals = fly_swarm_oracle(env, seed)
        assert set(finals) == set(env.possible_agents)
        assert all(info["success"] and info["crash"] is None for info in finals.values())


def test_observations_are_per_agent_with_nearest_neighbours():
    env = envsuite.make(SWARM, parallel=True, num_drones=4, num_neighbours=2)
    observations, _infos = env.reset(seed=0)
    raw = env.unwrapped
    for index, agent in enumerate(env.agents):
        observation = observations[agent]
        assert observation.shape == (16 + 6 + 12,)
        assert env.observation_space(agent).contains(observation)
        slot = raw.path.sample(0.0)[0] + raw.offsets[index]
        assert np.allclose(observation[16:19], slot - observation[:3], atol=1e-6)
        nearest = np.linalg.norm(observation[22:25])
        second = np.linalg.norm(observation[28:31])
        assert 0 < nearest <= second


def test_colliding_drones_both_terminate():
    env = envsuite.make(SWARM, parallel=True, num_drones=2, formation="line", spacing=0.4)
    env.reset(seed=0)
    raw = env.unwrapped
    # Push drone_1 at drone_0.
    position = raw.flight.position[0] + np.array([0.0, 0.2, 0.0])
    raw.world.place(raw.world.drones[1], position.tolist(), velocity=(0.0, -3.0, 0.0))
    raw.flight = raw.dynamics.states()
    hover = np.zeros(4, dtype=np.float32)
    for _ in range(10):
        _, _rewards, terminations, _, infos = env.step({a: hover for a in env.agents})
        if any(terminations.values()):
            break
    assert terminations == {"drone_0": True, "drone_1": True}
    assert {info["crash"] for info in infos.values()} == {"collision"}
    assert env.agents == []


def test_missing_and_malformed_actions_cost_only_their_agent():
    env = envsuite.make(SWARM, parallel=True, num_drones=3)
    env.reset(seed=0)
    hover = np.zeros(4, dtype=np.float32)
    _, rewards, _, _, infos = env.step({"drone_0": hover, "drone_1": "up"})
    assert infos["drone_0"]["parse_error"] is None
    assert infos["drone_1"]["parse_error"] and infos["drone_2"]["parse_error"]
    assert rewards["drone_1"] < rewards["drone_0"] - 0.9
    assert env.unwrapped.dynamics.rpm[1].max() == 0.0


def test_swarm_seeds_are_honoured():
    def first(seed):
        env = envsuite.make(SWARM, parallel=True, num_drones=3)
        return env.reset(seed=seed)[0]

    a, b, c = first(3), first(3), first(4)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not all(np.array_equal(a[k], c[k]) for k in a)
