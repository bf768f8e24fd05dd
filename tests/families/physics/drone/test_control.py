"""envsuite's geometric controller: flies every airframe, and saturates gracefully."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

from envsuite.families.physics.drone.control import GeometricController, RateController, allocate
from envsuite.families.physics.drone.dynamics import FlightDynamics
from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.rotations import quaternion_from_euler
from envsuite.families.physics.drone.world import DroneWorld


@pytest.mark.parametrize("model_name", sorted(MODELS))
@pytest.mark.parametrize("ctrl_freq", [30, 240])
def test_controller_reaches_and_holds_a_point(model_name, ctrl_freq):
    model = MODELS[model_name]
    dynamics = FlightDynamics(DroneWorld(model, 1, 240), "pyb", ctrl_freq, None)
    start_attitude = np.array([quaternion_from_euler(0.2, -0.1, 1.0)])
    dynamics.start(np.array([[0.6, -0.5, 0.4]]), start_attitude)
    controller = GeometricController(model, 1.0 / ctrl_freq)
    target = np.array([0.0, 0.0, 1.0])
    for _ in range(4 * ctrl_freq):
        state = dynamics.states()
        rpm = controller.compute(
            state.position[0], state.quaternion[0], state.velocity[0],
            state.angular_velocity[0], target, target_yaw=0.5,
        )  # fmt: skip
        dynamics.advance(rpm[None, :])
    state = dynamics.states()
    assert np.linalg.norm(state.position[0] - target) < 0.02
    assert np.abs(state.velocity[0]).max() < 0.05


def test_saturation_gives_up_yaw_before_roll_and_pitch():
    model = MODELS["cf2x"]
    inverse = np.linalg.inv(model.mixer())
    thrust = model.weight
    torque = np.array([2e-4, 0.0, 1e-2])  # far more yaw torque than the motors can give
    rpm = allocate(inverse, model.max_rpm**2, thrust, torque)
    wrench = model.mixer() @ rpm**2
    assert wrench[0] == pytest.approx(thrust, rel=1e-6)
    assert wrench[1] == pytest.approx(torque[0], rel=1e-6)
    assert 0.0 <= wrench[3] < torque[2]
    assert np.all(rpm <= model.max_rpm + 1e-6)


def test_rate_loop_tracks_commanded_body_rates():
    model = MODELS["cf2x"]
    dynamics = FlightDynamics(DroneWorld(model, 1, 240), "pyb", 240, None)
    dynamics.start(np.array([[0.0, 0.0, 1.0]]), np.array([[0.0, 0.0, 0.0, 1.0]]))
    loop = RateController(model)
    desired = np.array([[1.0, -0.5, 0.3]])
    thrust = np.array([model.weight])
    for _ in range(48):  # 0.2 s
        state = dynamics.states()
        rpm = loop.motor_speeds(thrust, state.angular_velocity, desired)  # level: body = world
        dynamics.advance(rpm)
    from envsuite.families.physics.drone.rotations import rotation_matrix

    state = dynamics.states()
    body_rates = rotation_matrix(state.quaternion[0]).T @ state.angular_velocity[0]
    assert body_rates == pytest.approx(desired[0], abs=0.05)


@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_scalar_rate_loop_matches_the_vectorised_one(model_name):
    model = MODELS[model_name]
    loop = RateController(model)
    rng = np.random.default_rng(3)
    for _ in range(300):
        # Thrust from nothing to past the maximum, rates to well past the limits, so
        # that motors saturate and the yaw torque is given up.
        thrust = float(rng.uniform(0.0, 1.2 * model.max_thrust))
        rates = tuple(rng.uniform(-15.0, 15.0, 3).tolist())
        desired = tuple(rng.uniform(-15.0, 15.0, 3).tolist())
        vectorised = loop.motor_speeds(np.array([thrust]), np.array([rates]), np.array([desired]))
        scalar = loop.motor_speeds_single(thrust, rates, desired)
        # The same operations in the same order (no BLAS in allocate): the same floats.
        np.testing.assert_array_equal(scalar, vectorised[0])
