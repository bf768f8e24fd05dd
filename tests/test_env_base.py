"""EnvsuiteEnv's step contract outside any wrapper."""

from __future__ import annotations

import pytest
from gymnasium.error import ResetNeeded

import envsuite
from envsuite.env_base import EPISODE_OVER


def test_a_step_before_the_first_reset_raises_reset_needed() -> None:
    env = envsuite.make("envsuite/Bandit-v0", num_arms=3, horizon=2, observation_mode="vector")
    raw = env.unwrapped
    with pytest.raises(ResetNeeded, match="reset"):
        raw.step(0)
    raw.reset(seed=0)
    raw.step(0)
    _, _, terminated, _, info = raw.step(0)
    assert terminated and info["parse_error"] is None
    # After the end: the last observation again, reward 0, and why.
    _, reward, terminated, _, info = raw.step(0)
    assert (reward, terminated, info["parse_error"]) == (0.0, True, EPISODE_OVER)
