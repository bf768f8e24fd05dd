"""Render modes of text envs (from the env bases) and the human-mode window of image envs."""

from __future__ import annotations

import os
import pickle
import warnings

import matplotlib
import numpy as np
import pytest

import envsuite
from envsuite.rendering import TEXT_RENDER_MODES, FrameWindow, checked_render_mode
from envsuite.text_image import frame_shape, text_image

BANDIT = "envsuite/Bandit-v0"
GAME = "envsuite/RepeatedGame-v0"


@pytest.mark.parametrize(
    "env_id",
    [
        "envsuite/Bandit-v0",
        "envsuite/ContextualBandit-v0",
        "envsuite/Experts-v0",
        "envsuite/SAT-v0",
        "envsuite/SATInteractive-v0",
    ],
)
def test_text_envs_draw_their_ansi_text_as_rgb_array(env_id):
    if "SAT" in env_id and os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("pysat")
    env = envsuite.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == frame_shape() and frame.dtype == np.uint8
    assert np.array_equal(frame, text_image(env.unwrapped.render_text()))
    assert env.unwrapped.metadata["render_modes"] == list(TEXT_RENDER_MODES)


def test_ansi_is_the_text_and_no_render_mode_renders_nothing():
    ansi = envsuite.make(BANDIT, render_mode="ansi")
    observation, _ = ansi.reset(seed=1)
    assert ansi.render() == observation
    silent = envsuite.make(BANDIT)
    silent.reset(seed=1)
    assert silent.render() is None


def test_human_mode_prints_on_reset_and_every_step(capsys):
    env = envsuite.make(BANDIT, render_mode="human", horizon=2)
    observation, _ = env.reset(seed=0)
    assert capsys.readouterr().out == observation + "\n"
    observation, *_ = env.step("blue")
    assert capsys.readouterr().out == observation + "\n"
    assert env.render() is None
    assert capsys.readouterr().out == observation + "\n"


def test_multi_agent_text_envs_render_every_mode(capsys):
    frames = {}
    for mode in TEXT_RENDER_MODES:
        env = envsuite.make(GAME, render_mode=mode, horizon=3, parallel=True)
        env.reset(seed=0)
        env.step(dict.fromkeys(env.agents, "defect"))
        frames[mode] = env.render()
    printed = capsys.readouterr().out
    text = frames["ansi"]
    assert "round 1/3" in text and printed.endswith(text + "\n" + text + "\n")
    assert frames["human"] is None
    assert np.array_equal(frames["rgb_array"], text_image(text))


@pytest.mark.filterwarnings("ignore:.*not in the possible render_modes")
def test_an_unknown_render_mode_is_a_clear_value_error():
    with pytest.raises(ValueError, match=r"one of 'ansi', 'rgb_array', 'human'; got 'rgb'"):
        envsuite.make(BANDIT, render_mode="rgb")
    assert checked_render_mode(None, ("ansi",)) is None
    with pytest.raises(ValueError, match="got 3"):
        checked_render_mode(3, ("ansi",))


def test_a_window_without_a_display_warns_once_and_pickles_as_a_new_window(monkeypatch):
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "agg")  # no display
    frame = np.zeros((4, 4, 3), np.uint8)
    window = FrameWindow("test")
    with pytest.warns(RuntimeWarning, match="'agg' is not interactive"):
        window.show(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        window.show(frame)  # no second warning
        assert not window.available()
    again = pickle.loads(pickle.dumps(window))
    assert again.title == "test"
    with pytest.warns(RuntimeWarning, match="not interactive"):
        again.show(frame)
    window.close()


def test_the_swarm_shows_its_frames_in_human_mode(monkeypatch):
    pytest.importorskip("pybullet")
    shown = []
    monkeypatch.setattr(FrameWindow, "available", lambda self: True)
    monkeypatch.setattr(FrameWindow, "show", lambda self, frame: shown.append(frame))
    env = envsuite.make("envsuite/DroneSwarm-v0", num_drones=2, render_mode="human", parallel=True)
    env.reset(seed=0)
    env.step({agent: env.action_space(agent).sample() for agent in env.agents})
    assert env.render() is None
    assert len(shown) == 3 and all(frame.ndim == 3 and frame.dtype == np.uint8 for frame in shown)
    env.close()
