"""Physics modes: frequencies, PyBullet and explicit dynamics agreeing, motors, the floor."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import envsuite
from envsuite.families.physics.drone.dynamics import (
    FlightDynamics,
    FrequencyError,
    parse_physics,
    validate_frequencies,
)
from envsuite.families.physics.drone.models import GRAVITY, MODELS
from envsuite.families.physics.drone.randomization import DroneParameters
from envsuite.families.physics.drone.rotations import euler_from_quaternion
from envsuite.families.physics.drone.world import DroneWorld

LEVEL = np.array([[0.0, 0.0, 0.0, 1.0]])


def make_dynamics(physics: str, model: str = "cf2x", ctrl_freq: int = 30) -> FlightDynamics:
    world = DroneWorld(MODELS[model], 1, 240)
    dynamics = FlightDynamics(world, physics, ctrl_freq, None)
    dynamics.start(np.array([[0.0, 0.0, 1.0]]), LEVEL)
    return dynamics


def test_frequencies_give_whole_physics_steps_per_control_step():
    assert validate_frequencies(240, 30) == 8
    assert validate_frequencies(240, 240) == 1


@pytest.mark.parametrize(
    ("physics_freq", "ctrl_freq", "match"),
    [
        (240, 7, "multiple of ctrl_freq"),
        (240, 480, "must not exceed"),
        (30, 30, "must lie in"),
        (240.0, 30, "positive int"),
        (240, True, "positive int"),
        (240, 0, "positive int"),
        ("240", 30, "positive int"),
    ],
)
def test_bad_frequencies_raise_a_clear_error(physics_freq, ctrl_freq, match):
    with pytest.raises(FrequencyError, match=match):
        validate_frequencies(physics_freq, ctrl_freq)


def test_envs_raise_on_bad_frequencies_instead_of_exiting():
    with pytest.raises(FrequencyError, match=r"e\.g\. physics_freq=245"):
        envsuite.make("envsuite/DroneHover-v0", physics_freq=240, ctrl_freq=35)


def test_physics_modes_parse_into_engine_and_effects():
    assert parse_physics("pyb") == ("pyb", frozenset())
    assert parse_physics("pyb_gnd_drag_dw") == ("pyb", frozenset({"gnd", "drag", "dw"}))
    assert parse_physics("dyn_dw") == ("dyn", frozenset({"dw"}))
    for bad in ("bullet", "pyb_dw_gnd", "pyb_gnd_gnd", "", None, "dyn_wind"):
        with pytest.raises(ValueError, match="physics must be"):
            parse_physics(bad)


@pytest.mark.parametrize("physics", ["pyb", "dyn"])
def test_hover_rpm_holds_altitude(physics):
    dynamics = make_dynamics(physics)
    hover = MODELS["cf2x"].hover_rpm
    for _ in range(30):
        dynamics.advance(np.full((1, 4), hover))
    state = dynamics.states()
    assert state.position[0] == pytest.approx([0.0, 0.0, 1.0], abs=1e-3)
    assert np.abs(state.velocity[0]).max() < 1e-3


@pytest.mark.parametrize("physics", ["pyb", "dyn"])
def test_stopped_motors_fall_freely(physics):
    dynamics = make_dynamics(physics)
    for _ in range(12):  # 0.4 s
        dynamics.advance(np.zeros((1, 4)))
    drop = 1.0 - dynamics.states().position[0, 2]
    assert drop == pytest.approx(0.5 * GRAVITY * 0.4**2, rel=0.02)


def _manoeuvre(physics: str, model: str) -> tuple[np.ndarray, np.ndarray]:
    dynamics = make_dynamics(physics, model)
    hover = MODELS[model].hover_rpm
    commands = [hover * np.array([1.02, 1.0, 0.98, 1.0])] * 4 + [
        hover * np.array([1.0, 1.01, 1.0, 0.99])
    ] * 8
    for command in commands:
        dynamics.advance(command[None, :])
    state = dynamics.states()
    return state.position[0], euler_from_quaternion(state.quaternion[0])


@pytest.mark.parametrize("model", sorted(MODELS))
def test_explicit_dynamics_agree_with_pybullet(model):
    pyb_position, pyb_euler = _manoeuvre("pyb", model)
    dyn_position, dyn_euler = _manoeuvre("dyn", model)
    assert np.abs(pyb_euler).max() > 0.05  # the manoeuvre does tilt the drone
    assert dyn_position == pytest.approx(pyb_position, abs=5e-3)
    assert dyn_euler == pytest.approx(pyb_euler, abs=5e-3)


@pytest.mark.parametrize("physics", ["pyb", "dyn"])
def test_torque_signs_follow_the_motor_layout(physics):
    model = MODELS["cf2x"]
    hover = model.hover_rpm
    roll = make_dynamics(physics)
    left = np.array([1.05 if y > 0 else 1.0 for _, y in model.motor_xy]) * hover
    roll.advance(left[None, :])
    assert roll.states().angular_velocity[0, 0] > 0.1
    yaw = make_dynamics(physics)
    spun = np.array([1.1 if s > 0 else 1.0 for s in model.spin]) * hover
    yaw.advance(spun[None, :])
    assert yaw.states().angular_velocity[0, 2] > 0.1


def test_motor_lag_delays_the_thrust():
    instant = make_dynamics("pyb")
    lagging = make_dynamics("pyb")
    parameters = DroneParameters.nominal(MODELS["cf2x"], 1)
    parameters.motor_lag[:] = 0.05
    lagging.set_parameters(parameters)
    command = np.full((1, 4), MODELS["cf2x"].max_rpm)
    instant.advance(command)
    lagging.advance(command)
    # First-order lag: 1 - exp(-T / tau) of the step, T one control step.
    expected = MODELS["cf2x"].hover_rpm + (command[0, 0] - MODELS["cf2x"].hover_rpm) * (
        1 - math.exp(-(1 / 30) / 0.05)
    )
    assert lagging.rpm[0, 0] == pytest.approx(expected, rel=1e-9)
    assert lagging.states().position[0, 2] < instant.states().position[0, 2]


def test_explicit_floor_stops_a_falling_drone():
    dynamics = make_dynamics("dyn")
    for _ in range(40):
        dynamics.advance(np.zeros((1, 4)))
    state = dynamics.states()
    assert state.position[0, 2] == pytest.approx(0.5 * MODELS["cf2x"].collision_height)
    assert np.all(state.velocity[0] == 0.0)


def test_explicit_dynamics_never_step_pybullet():
    dynamics = make_dynamics("dyn")
    world = dynamics.world
    body = world.drones[0]
    dynamics.advance(np.full((1, 4), MODELS["cf2x"].hover_rpm * 1.1))
    # The pose PyBullet holds is the one envsuite integrated and wrote back.
    pose = world.body_state(body)[0]
    assert pose == pytest.approx(dynamics.states().position[0], abs=1e-12)


def test_ctbr_fast_path_runs_the_scalar_rate_law_bit_for_bit():
    """advance_single_rates inlines RateController.motor_speeds_single: same motor speeds.

    The reference reads the state, turns ω into body rates, asks motor_speeds_single and
    flies one physics step with those speeds (a control step of one physics step).
    """
    from envsuite.families.physics.drone.control import RateController

    model = "cf2x"
    fused = make_dynamics("pyb", model)
    stepwise = make_dynamics("pyb", model, ctrl_freq=240)
    loop = RateController(MODELS[model])
    rng = np.random.default_rng(5)
    state = stepwise.single_state()
    for index in range(6):
        # Mild commands (no motor saturates), then ones past the limits (motors saturate
        # and yaw torque is given up).
        mild = index < 3
        share = rng.uniform(0.4, 0.6) if mild else rng.uniform(0.5, 1.2)
        thrust = float(share * MODELS[model].max_thrust)
        rate = 0.1 if mild else 10.0
        desired = tuple(rng.uniform(-rate, rate, 3).tolist())
        fused_state = fused.advance_single_rates(thrust, desired, loop)
        for _ in range(fused.substeps):
            x, y, z, w = state[1]
            ox, oy, oz = state[3]
            rates = (
                (1 - 2 * (y * y + z * z)) * ox
                + 2 * (x * y + w * z) * oy
                + 2 * (x * z - w * y) * oz,
                2 * (x * y - w * z) * ox
                + (1 - 2 * (x * x + z * z)) * oy
                + 2 * (y * z + w * x) * oz,
                2 * (x * z + w * y) * ox
                + 2 * (y * z - w * x) * oy
                + (1 - 2 * (x * x + y * y)) * oz,
            )
            state = stepwise.advance_single(*loop.motor_speeds_single(thrust, rates, desired))
        assert fused_state == state
    assert max(abs(v) for v in state[3]) > 0.5  # the drone did rotate
