"""The airframes: published constants, mixer geometry, and the URDF envsuite writes."""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import pybullet as p

from envsuite.families.physics.drone.models import (
    GRAVITY,
    MODELS,
    gate_urdf_text,
    get_model,
    urdf_text,
    write_urdf,
)


def test_crazyflie_constants_are_the_published_ones():
    cf = MODELS["cf2x"]
    assert (cf.mass, cf.arm, cf.kf, cf.km, cf.thrust_to_weight) == (
        0.027,
        0.0397,
        3.16e-10,
        7.94e-12,
        2.25,
    )
    assert cf.inertia == (1.4e-5, 1.4e-5, 2.17e-5)
    assert MODELS["cf2p"].inertia == (2.3951e-5, 2.3951e-5, 3.2347e-5)
    # Hover and maximum RPM as gym-pybullet-drones derives them (g = 9.8).
    assert cf.hover_rpm == pytest.approx(14468.4, abs=0.5)
    assert cf.max_rpm == pytest.approx(21702.6, abs=0.5)
    assert cf.max_thrust == pytest.approx(2.25 * 0.027 * GRAVITY)


def test_racer_constants_and_layout():
    racer = MODELS["racer"]
    assert (racer.mass, racer.kf, racer.km, racer.thrust_to_weight) == (
        0.83,
        8.47e-9,
        2.13e-11,
        4.17,
    )
    for x, y in racer.motor_xy:
        assert math.hypot(x, y) == pytest.approx(racer.arm, abs=1e-3)
    # Its propellers spin the other way round from the Crazyflie's.
    assert racer.spin == tuple(-s for s in MODELS["cf2x"].spin)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_mixer_gives_thrust_and_torques_of_the_layout(name):
    model = MODELS[name]
    mixer = model.mixer()
    hover = np.full(4, model.hover_rpm**2)
    thrust, tx, ty, tz = mixer @ hover
    assert thrust == pytest.approx(model.weight)
    assert (tx, ty, tz) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    # Speeding up the motors on the +y side rolls the drone positive about x.
    left = np.array([model.hover_rpm**2 * (1.2 if y > 1e-9 else 1.0) for _, y in model.motor_xy])
    assert (mixer @ left)[1] > 0
    # Speeding up the motors whose drag yaws positive yaws the drone positive.
    spun = np.array([model.hover_rpm**2 * (1.2 if s > 0 else 1.0) for s in model.spin])
    assert (mixer @ spun)[3] > 0
    assert np.linalg.matrix_rank(mixer) == 4


def test_plus_layout_puts_motors_on_the_axes():
    xy = np.asarray(MODELS["cf2p"].motor_xy)
    assert np.all(np.isclose(xy, 0.0).sum(axis=1) == 1)


def test_unknown_model_names_the_choices():
    with pytest.raises(ValueError, match="cf2x"):
        get_model("cf3")


@pytest.mark.parametrize("name", sorted(MODELS))
def test_urdf_loads_with_the_models_mass_and_inertia(name, tmp_path):
    model = MODELS[name]
    path = write_urdf(model, tmp_path)
    ElementTree.parse(path)
    client = p.connect(p.DIRECT)
    try:
        body = p.loadURDF(str(path), flags=p.URDF_USE_INERTIA_FROM_FILE, physicsClientId=client)
        info = p.getDynamicsInfo(body, -1, physicsClientId=client)
        assert info[0] == model.mass
        assert info[2] == pytest.approx(model.inertia)
        assert p.getNumJoints(body, physicsClientId=client) == 0
    finally:
        p.disconnect(client)


def test_urdf_files_are_named_by_content(tmp_path):
    first = write_urdf(MODELS["cf2x"], tmp_path)
    again = write_urdf(MODELS["cf2x"], tmp_path)
    other = write_urdf(MODELS["racer"], tmp_path)
    assert first == again and first != other
    assert first.read_text() == urdf_text(MODELS["cf2x"])
    assert not list(tmp_path.glob("*.tmp"))


def test_gate_urdf_has_four_bars_around_the_opening():
    root = ElementTree.fromstring(gate_urdf_text(0.5, 0.05, 0.05))
    boxes = root.findall("./link/collision/geometry/box")
    assert len(boxes) == 4
