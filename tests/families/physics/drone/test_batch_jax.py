"""The JAX backend of the batched drone engine agrees with the numpy one (on CPU)."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("jax")

from envsuite.families.physics.drone.batch_dynamics import BatchDynamics
from envsuite.families.physics.drone.batch_dynamics_jax import JaxBatchDynamics
from envsuite.families.physics.drone.batch_env import DroneGateBatchedVectorEnv
from envsuite.families.physics.drone.models import get_model
from envsuite.families.physics.drone.randomization import RandomizationConfig, sample_parameters
from envsuite.families.physics.drone.wind import WindConfig
from envsuite.seeding import make_generator
from tests.families.physics.drone import flights  # noqa: F401  (skips without PyBullet)
from tests.families.physics.drone.test_batch_env import assert_close


def test_engine_agrees_with_numpy_with_every_effect_lag_wind_and_groups() -> None:
    model = get_model("racer")
    count, group = 12, 3
    engines = [
        engine_class(model, count, "dyn_gnd_drag_dw", 480, 48, WindConfig(), group)
        for engine_class in (BatchDynamics, JaxBatchDynamics)
    ]
    parameters = sample_parameters(
        model, RandomizationConfig(motor_lag=0.05), count, make_generator(1, "parameters")
    )
    rng = make_generator(2, "starts")
    positions = rng.uniform([-1.0, -1.0, 0.05], [1.0, 1.0, 1.5], (count, 3))
    yaw = rng.uniform(-np.pi, np.pi, count)
    quaternions = np.stack([0 * yaw, 0 * yaw, np.sin(yaw / 2), np.cos(yaw / 2)], axis=1)
    ids = np.arange(count)
    for engine in engines:
        engine.set_parameters(ids, parameters)
        engine.start(ids, positions, quaternions)
        assert engine.wind is not None
        for drone in ids.tolist():
            engine.wind.reset(drone, make_generator(drone, "wind"))
    actions = make_generator(3, "rpm").normal(1.02, 0.01, (80, 4, count)) * model.hover_rpm
    for command in actions:
        for engine in engines:
            engine.advance(command.copy())
        ours, theirs = engines
        np.testing.assert_allclose(ours.position, theirs.position, atol=1e-9)
        np.testing.assert_allclose(ours.velocity, theirs.velocity, atol=1e-9)
        np.testing.assert_allclose(ours.quaternion, theirs.quaternion, atol=1e-9)
        np.testing.assert_allclose(ours.body_rates, theirs.body_rates, atol=1e-9)
        np.testing.assert_allclose(ours.rpm, theirs.rpm, rtol=1e-12)
    # They were compared in flight, not resting on the floor.
    assert np.count_nonzero(engines[0].position[2] > 0.3) >= count // 2


def test_vector_env_on_jax_gives_what_it_gives_on_numpy() -> None:
    kwargs = {"num_gates": 2, "episode_len_sec": 3.0, "domain_randomization": True, "wind": True}
    envs = [DroneGateBatchedVectorEnv(6, backend=b, **kwargs) for b in ("numpy", "jax")]
    first = [env.reset(seed=8) for env in envs]
    assert_close(first[0], first[1], "reset")
    rng = np.random.default_rng(4)
    for step in range(200):
        actions = np.clip(rng.normal(0.0, 0.1, (6, 4)) + 0.05, -1.0, 1.0)
        ours, theirs = (env.step(actions) for env in envs)
        assert_close(ours, theirs, f"step {step}")
    assert envs[1].engine.__class__ is JaxBatchDynamics


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="backend must be one of"):
        DroneGateBatchedVectorEnv(2, backend="torch")
