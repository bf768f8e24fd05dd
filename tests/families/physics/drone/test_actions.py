"""Action types: parsing, the RPM mapping, and the oracle's answer in each type."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import envsuite
from envsuite.env_base import InvalidAction
from envsuite.families.physics.drone.actions import (
    ACTION_SIZES,
    ACTION_TYPES,
    ActionMapper,
    Guidance,
    validate_action_type,
)
from envsuite.families.physics.drone.control import GeometricController
from envsuite.families.physics.drone.models import GRAVITY, MODELS

CF = MODELS["cf2x"]


def mapper(kind: str) -> ActionMapper:
    return ActionMapper(kind, CF, 30, 1)


def test_rpm_mapping_hits_zero_hover_and_maximum():
    rpm = mapper("rpm")
    assert rpm.rpm_of(-1.0) == 0.0
    assert rpm.rpm_of(0.0) == CF.hover_rpm
    assert rpm.rpm_of(1.0) == pytest.approx(CF.max_rpm)
    for value in (-0.7, -0.1, 0.3, 0.9):
        assert rpm.normalised_of(rpm.rpm_of(value)) == pytest.approx(value)


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_valid_actions_parse_and_out_of_range_values_clip(kind):
    actions = mapper(kind)
    size = ACTION_SIZES[kind]
    assert actions.space.shape == (size,)
    assert actions.parse(np.full(size, 0.5, dtype=np.float32)) == [0.5] * size
    assert actions.parse([2.0] * size) == [1.0] * size
    assert actions.parse(tuple([-3] * size)) == [-1.0] * size


@pytest.mark.parametrize(
    "bad", [np.full(4, np.nan), np.array([0, 0, np.inf, 0]), np.zeros(5), "1,2,3,4", None,
            {"rpm": [0, 0, 0, 0]}, np.zeros((2, 4)), object(), b"\x00\x01\x02\x03",
            ["0", "0", "0", "0"], np.array([1 + 5j, 0, 0, 0]), np.ones(4, dtype=bool),
            [True, False, True, False], [0.1, 0.2, 0.3, None],
            np.ma.masked_array([0.0, 0.0, 0.0, 0.0], mask=[True, False, False, False])],
)  # fmt: skip
def test_malformed_actions_raise_invalid_action(bad):
    with pytest.raises(InvalidAction):
        mapper("rpm").parse(bad)


def test_unknown_action_type_names_the_choices():
    with pytest.raises(ValueError, match="ctbr"):
        validate_action_type("thrust")


def test_ctbr_maps_thrust_and_rates():
    actions = mapper("ctbr")
    _, loop = actions.command([[0.0, 0.01, -0.01, 0.01]], None)
    assert loop is not None and callable(loop)
    _, idle = actions.command([None], None)
    from envsuite.families.physics.drone.dynamics import FlightState

    state = FlightState(np.zeros((1, 3)), np.array([[0.0, 0.0, 0.0, 1.0]]), np.zeros((1, 3)),
                        np.zeros((1, 3)))  # fmt: skip
    assert np.all(idle(state) == 0.0)
    rpm = loop(state)
    wrench = CF.mixer() @ rpm[0] ** 2
    assert wrench[0] == pytest.approx(0.5 * CF.max_thrust, rel=1e-6)
    assert wrench[1] > 0 and wrench[2] < 0 and wrench[3] > 0


@pytest.mark.parametrize("kind", ACTION_TYPES)
def test_oracle_actions_lie_in_the_action_space(kind):
    actions = mapper(kind)
    controller = GeometricController(CF, 1 / 30)
    state = ((0.1, 0.2, 0.8), (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    action = actions.oracle_action(controller, state, Guidance((0.0, 0.0, 1.0)))
    assert actions.space.contains(action)
    if kind in ("rpm", "one_d_rpm"):
        # Below the target: more thrust than hover.
        assert float(np.mean(action)) > 0


def test_ctbr_fast_path_flies_as_the_general_one():
    """One drone with CTBR actions takes a scalar path; it flies as the vectorised one."""
    hover = 2.0 * CF.mass * GRAVITY / CF.max_thrust - 1.0  # the hover thrust action
    actions = np.random.default_rng(5).uniform(-0.1, 0.1, (60, 4))
    actions[:, 0] = hover + 0.5 * actions[:, 0]
    actions = actions.astype(np.float32)
    finals = []
    for fast in (True, False):
        env = envsuite.make("envsuite/DroneHover-v0", action_type="ctbr")
        env.reset(seed=11)
        raw = env.unwrapped
        assert raw._fast_rates
        raw._fast_rates = fast
        for action in actions:
            observation, _, terminated, truncated, _ = env.step(action)
            assert not (terminated or truncated)
        finals.append(observation)
        env.close()
    np.testing.assert_allclose(finals[0], finals[1], rtol=1e-6, atol=1e-6)
