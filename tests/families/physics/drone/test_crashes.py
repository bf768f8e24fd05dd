"""Crash rules: ground, tilt, flight box, collisions between flying drones."""

from __future__ import annotations

import math

import numpy as np

from envsuite.families.physics.drone.crashes import (
    GROUND,
    OUT_OF_BOUNDS,
    TILT,
    CrashRule,
    colliding_pairs,
)
from envsuite.families.physics.drone.models import MODELS
from envsuite.families.physics.drone.rotations import quaternion_from_euler

CF = MODELS["cf2x"]
RULE = CrashRule(CF, half_width=2.0, ceiling=2.5)
LEVEL = (0.0, 0.0, 0.0, 1.0)


def test_crash_reasons():
    assert RULE.reason((0.0, 0.0, 1.0), LEVEL) is None
    assert RULE.reason((0.0, 0.0, 0.015), LEVEL) == GROUND
    assert RULE.reason((0.0, 0.0, 1.0), quaternion_from_euler(1.4, 0, 0)) == TILT
    assert RULE.reason((0.0, 0.0, 1.0), quaternion_from_euler(1.2, 0, 0)) is None
    assert RULE.reason((2.1, 0.0, 1.0), LEVEL) == OUT_OF_BOUNDS
    assert RULE.reason((0.0, 0.0, 2.6), LEVEL) == OUT_OF_BOUNDS
    upside_down = quaternion_from_euler(math.pi, 0, 0)
    assert RULE.reason((0.0, 0.0, 1.0), upside_down) == TILT


def test_collisions_count_only_flying_drones():
    positions = np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.0], [1.0, 0.0, 1.0]])
    assert colliding_pairs(CF, positions, np.array([True, True, True])) == {0, 1}
    assert colliding_pairs(CF, positions, np.array([True, False, True])) == set()
    assert colliding_pairs(CF, positions[:1], np.array([True])) == set()
