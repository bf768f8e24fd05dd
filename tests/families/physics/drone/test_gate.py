"""DroneGate-v0: courses inside the box, crossings judged right, the oracle flies through."""

from __future__ import annotations

import numpy as np
import pytest

import envsuite

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
