"""The wind model: seeded, gusts with the configured statistics, a force that pushes."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import envsuite
from envsuite.families.physics.drone.wind import Wind, WindConfig, wind_config
from envsuite.seeding import make_generator


def gust_series(seed: int, steps: int) -> np.ndarray:
    wind = Wind(WindConfig(max_speed=1.0, gust_std=0.4, gust_time=0.5), 1 / 30)
    wind.reset(make_generator(seed, "wind"))
    series = []
    for _ in range(steps):
        wind.advance()
        series.append(wind.velocity.copy())
    return np.array(series)


def test_same_generator_same_wind():
    assert np.array_equal(gust_series(1, 50), gust_series(1, 50))
    assert not np.array_equal(gust_series(1, 50), gust_series(2, 50))


def test_gusts_have_the_configured_spread():
    series = gust_series(3, 30_000)
    gusts = series - series.mean(axis=0)
    assert gusts[:, 0].std() == pytest.approx(0.4, rel=0.1)
    assert gusts[:, 2].std() == pytest.approx(0.2, rel=0.1)
    steady = np.hypot(*series.mean(axis=0)[:2])
    assert steady <= 1.0 + 0.05


def test_wind_force_pushes_along_the_relative_air_velocity():
    wind = Wind(WindConfig(max_speed=2.0, gust_std=0.0), 1 / 30)
    wind.reset(make_generator(0, "wind"))
    still = wind.force(0.01, np.zeros((1, 3)))
    assert np.dot(still[0], wind.steady) > 0
    moving_with_it = wind.force(0.01, wind.steady[None, :])
    assert np.allclose(moving_with_it, 0.0)


def test_wind_config_accepts_bool_and_mapping_and_refuses_junk():
    assert wind_config(None) is None and wind_config(False) is None
    assert wind_config(True) == WindConfig()
    assert wind_config({"max_speed": 2.0}).max_speed == 2.0
    for bad in ({"speed": 1.0}, {"max_speed": -1.0}, {"gust_time": 0}, "strong"):
        with pytest.raises(ValueError):
            wind_config(bad)


def test_wind_blows_a_drone_off_its_hover():
    def drift(wind):
        env = envsuite.make("envsuite/DroneHover-v0", wind=wind, start_spread=0.0)
        env.reset(seed=4)
        hover = np.zeros(4, dtype=np.float32)  # hover RPM on every motor
        for _ in range(30):
            observation, *_ = env.step(hover)
        return float(np.hypot(observation[0], observation[1]))

    assert drift(None) < 1e-6
    assert drift({"max_speed": 3.0, "gust_std": 0.0}) > 0.01
