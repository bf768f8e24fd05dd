"""DroneGate-v0: courses inside the box, crossings judged right, the oracle flies through."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

import envsuite
from envsuite.families.physics.drone.gate import COURSE_MARGIN, GATE_SPACING, draw_course

from .flights import fly_oracle

GATE = "envsuite/DroneGate-v0"


def test_oracle_flies_the_course_on_most_seeds():
    env = envsuite.make(GATE)
    results = [fly_oracle(env, seed)[0] for seed in range(8)]
    assert sum(info["success"] for info in results) >= 7
    assert all(info["score"] == 1.0 for info in results if info["success"])


def test_racer_oracle_flies_the_course():
    env = envsuite.make(GATE, drone_model="racer", action_type="ctbr")
    assert sum(fly_oracle(env, seed)[0]["success"] for seed in range(4)) >= 3


def test_courses_stay_inside_the_box_and_apart():
    env = envsuite.make(GATE, num_gates=6)
    for seed in range(20):
        _, info = env.reset(seed=seed)
        centres = np.asarray(info["gate_centres"])
        assert np.all(np.abs(centres[:, :2]) <= env.unwrapped.half_width - 1.5 + 1e-9)
        assert np.all((centres[:, 2] >= 0.7) & (centres[:, 2] <= 1.6))


def test_crossing_the_opening_passes_and_the_frame_crashes():
    env = envsuite.make(GATE, num_gates=1)
    _, _info = env.reset(seed=0)
    raw = env.unwrapped
    centre, normal = raw.centres[0], raw.normals[0]
    side = np.array([-normal[1], normal[0], 0.0])
    before, after = centre - 0.1 * normal, centre + 0.1 * normal
    assert raw._crossing(0, before, after) == "pass"
    assert raw._crossing(0, after, before) is None  # the wrong way through counts for nothing
    frame = 0.5 * raw.gate_opening + 0.02
    assert raw._crossing(0, before + frame * side, after + frame * side) == "frame"
    wide = 0.5 * raw.gate_opening + 0.3
    assert raw._crossing(0, before + wide * side, after + wide * side) is None
    assert raw._crossing(0, before - 0.2 * normal, before) is None


def test_one_d_rpm_cannot_steer_through_gates():
    with pytest.raises(ValueError, match="one_d_rpm"):
        envsuite.make(GATE, action_type="one_d_rpm")


def test_progress_is_rewarded_and_a_hovering_drone_times_out():
    env = envsuite.make(GATE, num_gates=1, episode_len_sec=2.0)
    env.reset(seed=0)
    total = 0.0
    while True:
        _, reward, terminated, truncated, info = env.step(np.zeros(4, dtype=np.float32))
        total += reward
        if terminated or truncated:
            break
    assert truncated and not info["success"] and info["gates_passed"] == 0
    assert abs(total) < 0.5  # no progress, no reward


def _least_spacing(start: np.ndarray, centres: np.ndarray) -> float:
    points = np.vstack([start[None, :2], centres[:, :2]])
    gaps = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
    np.fill_diagonal(gaps, np.inf)
    return float(gaps.min())


@pytest.mark.parametrize("num_gates", [3, 5, 7, 10])
def test_every_two_gates_respect_the_spacing(num_gates):
    env = envsuite.make(GATE, num_gates=num_gates)
    raw = env.unwrapped
    limit = raw.half_width - COURSE_MARGIN
    for seed in range(300):
        _, info = env.reset(seed=seed)
        centres = np.asarray(info["gate_centres"])
        start = raw.previous_position
        assert _least_spacing(start, centres) >= GATE_SPACING, seed
        assert np.all(np.abs(centres[:, :2]) <= limit + 1e-9)
        assert np.all((centres[:, 2] >= 0.7) & (centres[:, 2] <= 1.6))
        steps = np.linalg.norm(np.diff(np.vstack([start, centres])[:, :2], axis=0), axis=1)
        assert np.all((steps >= 1.5 - 1e-9) & (steps <= 2.5 + 1e-9)), seed
    env.close()


def test_the_reported_course_is_fixed():
    env = envsuite.make(GATE, num_gates=5)
    _, info = env.reset(seed=64)
    assert _least_spacing(env.unwrapped.previous_position, np.asarray(info["gate_centres"])) >= 1.2
    env.close()


def test_courses_are_deterministic_from_the_seed():
    env = envsuite.make(GATE, num_gates=10)
    first = env.reset(seed=5)[1]["gate_centres"]
    env.reset(seed=6)
    assert env.reset(seed=5)[1]["gate_centres"] == first
    env.close()


@pytest.mark.parametrize("num_gates", [1, 2, 5, 10])
def test_the_ring_fallback_respects_the_spacing(num_gates):
    rng = np.random.default_rng(0)
    start = np.array([0.3, -0.3, 1.0])
    centres, headings = draw_course(rng, start, num_gates, 8.0, attempts=0)
    assert centres.shape == (num_gates, 3) and headings.shape == (num_gates,)
    assert _least_spacing(start, centres) >= GATE_SPACING
    assert np.all(np.abs(centres[:, :2]) <= 8.0 - COURSE_MARGIN)


def test_the_default_time_limit_grows_with_the_gates():
    for num_gates, seconds in ((3, 12.0), (10, 33.0)):
        env = envsuite.make(GATE, num_gates=num_gates)
        assert env.unwrapped.episode_steps == round(seconds * env.unwrapped.ctrl_freq)
        env.close()
    env = envsuite.make(GATE, num_gates=10, episode_len_sec=5.0)
    assert env.unwrapped.episode_steps == 150
    env.close()


def test_oracle_flies_ten_gate_courses():
    env = envsuite.make(GATE, num_gates=10)
    results = [fly_oracle(env, seed)[0] for seed in range(4)]
    assert all(info["success"] and info["gates_passed"] == 10 for info in results)
    env.close()
