"""Crash rules: ground, tilt, flight box, collisions between flying drones."""

from __future__ import annotations

import math

import numpy as np

from envsuite.families.physics.drone.crashes import (
    GROUND,
    OUT_OF_BOUNDS,
    TILT,
    colliding_pairs,
    crash_reason,
)
from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.rotations import quaternion_from_euler

CF = MODELS["cf2x"]
LEVEL = (0.0, 0.0, 0.0, 1.0)


def test_crash_reasons():
    assert crash_reason(CF, (0.0, 0.0, 1.0), LEVEL, 2.0, 2.5) is None
    assert crash_reason(CF, (0.0, 0.0, 0.015), LEVEL, 2.0, 2.5) == GROUND
    assert crash_reason(CF, (0.0, 0.0, 1.0), quaternion_from_euler(1.4, 0, 0), 2.0, 2.5) == TILT
    assert crash_reason(CF, (0.0, 0.0, 1.0), quaternion_from_euler(1.2, 0, 0), 2.0, 2.5) is None
    assert crash_reason(CF, (2.1, 0.0, 1.0), LEVEL, 2.0, 2.5) == OUT_OF_BOUNDS
    assert crash_reason(CF, (0.0, 0.0, 2.6), LEVEL, 2.0, 2.5) == OUT_OF_BOUNDS
    upside_down = quaternion_from_euler(math.pi, 0, 0)
    assert crash_reason(CF, (0.0, 0.0, 1.0), upside_down, 2.0, 2.5) == TILT


def test_collisions_count_only_flying_drones():
    positions = np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.0], [1.0, 0.0, 1.0]])
    assert colliding_pairs(CF, positions, np.array([True, True, True])) == {0, 1}
    assert colliding_pairs(CF, positions, np.array([True, False, True])) == set()
    assert colliding_pairs(CF, positions[:1], np.array([True])) == set()
