"""Domain randomisation: seeded, within its spreads, applied to the simulated bodies."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import pybullet as p

import envsuite
from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.randomization import (
    RandomizationConfig,
    randomization_config,
    sample_parameters,
)
from envsuite.seeding import make_generator

CF = MODELS["cf2x"]


def test_parameters_lie_within_their_spreads():
    config = RandomizationConfig(mass=0.2, inertia=0.1, kf=0.05, km=0.05, motor_lag=0.03)
    drawn = sample_parameters(CF, config, 500, make_generator(0, "dynamics"))
    assert np.all(np.abs(drawn.mass / CF.mass - 1) <= 0.2)
    assert np.all(np.abs(drawn.inertia / np.asarray(CF.inertia) - 1) <= 0.1)
    assert np.all(np.abs(drawn.kf / CF.kf - 1) <= 0.05)
    assert np.all((drawn.motor_lag >= 0) & (drawn.motor_lag <= 0.03))
    assert drawn.mass.std() > 0.05 * CF.mass  # actually spread, not a constant


def test_config_values_are_checked():
    assert randomization_config(None) is None
    assert randomization_config(True) == RandomizationConfig()
    for bad in ({"mass": 1.5}, {"weight": 0.1}, {"kf": -0.1}, 3):
        with pytest.raises(ValueError):
            randomization_config(bad)


def test_episodes_draw_dynamics_from_the_seed_and_apply_them():
    env = envsuite.make("envsuite/DroneHover-v0", domain_randomization=True)
    _, first = env.reset(seed=5)
    _, again = env.reset(seed=5)
    _, other = env.reset(seed=6)
    assert first["dynamics"] == again["dynamics"] != other["dynamics"]
    raw = env.unwrapped
    info = p.getDynamicsInfo(raw.world.drones[0], -1, physicsClientId=raw.world.client)
    assert info[0] == pytest.approx(other["dynamics"]["mass"])
    assert info[2] == pytest.approx(other["dynamics"]["inertia"])


def test_heavier_drones_sink_at_nominal_hover_rpm():
    def sink(randomization):
        env = envsuite.make(
            "envsuite/DroneHover-v0", domain_randomization=randomization, start_spread=0.0
        )
        env.reset(seed=0)
        for _ in range(15):
            observation, *_ = env.step(np.zeros(4, dtype=np.float32))
        return 1.0 - float(observation[2])

    assert sink(None) == pytest.approx(0.0, abs=1e-6)
    heavy = {"mass": 0.3, "inertia": 0.0, "kf": 0.0, "km": 0.0, "motor_lag": 0.0}
    # Seed 0 draws some mass factor in [0.7, 1.3]; at hover RPM the drone drifts either way.
    assert abs(sink(heavy)) > 1e-3
