"""rgb_array rendering works headless (EGL when there is no display)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import envsuite
from envsuite.families.physics.arm.rendering import OffscreenRenderer, choose_backend


def test_frames_show_the_scene_and_follow_the_arm():
    env = envsuite.make("envsuite/ArmPickPlace-v0", render_mode="rgb_array", width=160, height=120)
    env.reset(seed=0)
    first = env.render()
    assert first.shape == (120, 160, 3) and first.dtype == np.uint8
    assert first.std() > 10  # a lit scene, not a blank buffer
    for _ in range(15):
        env.step(np.array([1.0, 1.0, 0.0, 1.0]))
    moved = env.render()
    assert np.abs(moved.astype(int) - first.astype(int)).mean() > 0.5
    env.reset(seed=0)
    assert np.array_equal(env.render(), first)  # same state, same pixels
    env.close()


def test_render_without_a_render_mode_returns_none():
    env = envsuite.make("envsuite/ArmReach-v0")
    env.reset(seed=0)
    assert env.render() is None


def test_frames_larger_than_the_offscreen_buffer_are_refused_when_the_env_is_made():
    with pytest.raises(ValueError, match="offscreen buffer is 640x480"):
        envsuite.make("envsuite/ArmReach-v0", render_mode="rgb_array", width=4000, height=100)
    with pytest.raises(ValueError, match="offscreen buffer is 640x480"):
        envsuite.make("envsuite/ArmReach-v0", render_mode="rgb_array", width=641)


@pytest.mark.parametrize(("width", "height"), [(0, 0), (-5, 10), (10, 481), ("abc", 10)])
def test_the_renderer_checks_the_frame_size_itself(width, height):
    env = envsuite.make("envsuite/ArmReach-v0")
    with pytest.raises(ValueError, match="offscreen buffer"):
        OffscreenRenderer(env.unwrapped.model, width, height)


def test_the_largest_and_smallest_frames_render():
    for width, height in ((640, 480), (1, 1)):
        env = envsuite.make(
            "envsuite/ArmReach-v0", render_mode="rgb_array", width=width, height=height
        )
        env.reset(seed=0)
        assert env.render().shape == (height, width, 3)
        env.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="EGL is the Linux default")
def test_the_backend_is_headless_without_a_display(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MUJOCO_GL", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert choose_backend() == "egl"
    monkeypatch.setenv("MUJOCO_GL", "osmesa")
    assert choose_backend() == "osmesa"
    monkeypatch.delenv("MUJOCO_GL")
    monkeypatch.setenv("DISPLAY", ":0")
    assert choose_backend() == "glfw"
