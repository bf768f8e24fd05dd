"""Ground effect, rotor drag and downwash: signs, ranges, caps; and their effect in flight."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

from envsuite.families.physics.drone import aerodynamics
from envsuite.families.physics.drone.dynamics import FlightDynamics
from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.rotations import rotation_matrix
from envsuite.families.physics.drone.world import DroneWorld

CF = MODELS["cf2x"]
LEVEL = np.array([[0.0, 0.0, 0.0, 1.0]])
HOVER_SQUARED = np.full((1, 4), CF.hover_rpm**2)


def ground_effect_at(height: float, quaternion: np.ndarray = LEVEL) -> float:
    extra = aerodynamics.ground_effect_thrust(
        CF, np.array([CF.kf]), HOVER_SQUARED, np.array([[0.0, 0.0, height]]),
        rotation_matrix(quaternion),
    )  # fmt: skip
    return float(extra.sum())


def test_ground_effect_grows_near_the_ground_and_vanishes_aloft():
    near, middle, far = ground_effect_at(0.03), ground_effect_at(0.1), ground_effect_at(1.0)
    assert near > middle > far > 0
    assert far < 0.001 * CF.weight
    # Below the clip height the model stops growing.
    assert ground_effect_at(0.0) == ground_effect_at(aerodynamics.ground_effect_clip(CF) / 2)


def test_ground_effect_is_off_upside_down():
    upside_down = np.array([[1.0, 0.0, 0.0, 0.0]])
    assert ground_effect_at(0.05, upside_down) == 0.0


def test_drag_opposes_the_motion_in_the_body_frame():
    velocity = np.array([[1.0, -2.0, 0.5]])
    force = aerodynamics.drag_force(
        CF, np.full((1, 4), CF.hover_rpm), velocity, rotation_matrix(LEVEL)
    )
    assert np.all(np.sign(force) == -np.sign(velocity))
    spin = 4 * CF.hover_rpm * 2 * np.pi / 60
    assert force[0, 0] == pytest.approx(-CF.drag_coeff[0] * spin * 1.0)


def test_downwash_pushes_only_the_drone_below():
    positions = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.5], [2.0, 0.0, 1.0]])
    force = aerodynamics.downwash_force(CF, positions, np.full(3, CF.weight))
    assert force[0, 2] < 0.0  # below drone 1
    assert force[1, 2] == 0.0  # nothing above it
    assert force[2, 2] == pytest.approx(0.0, abs=1e-12)  # far to the side
    assert np.all(force[:, :2] == 0.0)


def test_downwash_decays_sideways_and_is_capped_by_the_upper_thrust():
    def push(dx: float, dz: float) -> float:
        positions = np.array([[0.0, 0.0, 1.0], [dx, 0.0, 1.0 + dz]])
        return -float(aerodynamics.downwash_force(CF, positions, np.full(2, CF.weight))[0, 2])

    assert push(0.0, 0.3) > push(0.05, 0.3) > push(0.2, 0.3)
    # Side by side at almost the same height: no downwash, despite the model's 1/dz².
    assert push(0.4, 0.001) < 2e-3 * CF.weight
    assert push(0.0, 0.001) <= CF.weight


def test_downwash_pushes_a_hovering_drone_down_in_flight():
    def lower_drone_drop(physics: str) -> float:
        world = DroneWorld(CF, 2, 240)
        dynamics = FlightDynamics(world, physics, 30, None)
        dynamics.start(np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.3]]), np.tile(LEVEL, (2, 1)))
        for _ in range(15):
            dynamics.advance(np.full((2, 4), CF.hover_rpm))
        return 1.0 - float(dynamics.states().position[0, 2])

    assert lower_drone_drop("pyb") == pytest.approx(0.0, abs=1e-3)
    assert lower_drone_drop("pyb_dw") > 0.05


def test_ground_effect_lifts_a_drone_near_the_ground_in_flight():
    def climb(physics: str) -> float:
        world = DroneWorld(CF, 1, 240)
        dynamics = FlightDynamics(world, physics, 30, None)
        dynamics.start(np.array([[0.0, 0.0, 0.05]]), LEVEL)
        for _ in range(5):
            dynamics.advance(np.full((1, 4), CF.hover_rpm))
        return float(dynamics.states().position[0, 2]) - 0.05

    assert climb("pyb") == pytest.approx(0.0, abs=1e-3)
    assert climb("pyb_gnd") > 0.005
    assert climb("dyn_gnd") == pytest.approx(climb("pyb_gnd"), rel=0.05)
