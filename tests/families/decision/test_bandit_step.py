"""Bandit-v0's shortcut for the usual vector action gives what the general step gives."""

from __future__ import annotations

import numpy as np

import envsuite


def _episode(actions: list[object], **kwargs: object) -> list[tuple[object, ...]]:
    env = envsuite.make("envsuite/Bandit-v0", observation_mode="vector", **kwargs)
    observation, info = env.reset(seed=7)
    steps: list[tuple[object, ...]] = [(observation.tobytes(), list(info.items()))]
    for action in actions:
        observation, reward, terminated, truncated, info = env.step(action)
        steps.append(
            (observation.tobytes(), observation.dtype.str, reward, terminated, truncated,
             list(info.items()), type(reward), type(terminated))
        )  # fmt: skip
    steps.append((env.unwrapped.render_text(),))
    return steps


def test_int_actions_step_as_numpy_ints_do() -> None:
    arms = np.random.default_rng(0).integers(4, size=23)
    for kwargs in (
        {},
        {"arm_type": "gaussian"},
        {"horizon": 1},
        {"arm_means": (0.5, 0.5, 0.1, 0.2)},
    ):
        horizon = kwargs.pop("horizon", 20)
        shortcut = _episode([int(a) for a in arms], num_arms=4, horizon=horizon, **kwargs)
        general = _episode([np.int64(a) for a in arms], num_arms=4, horizon=horizon, **kwargs)
        assert shortcut == general


def test_a_bad_int_action_still_costs_the_penalty() -> None:
    env = envsuite.make("envsuite/Bandit-v0", observation_mode="vector", num_arms=3)
    env.reset(seed=0)
    _, _, _, _, info = env.step(5)
    assert info["parse_error"] and info["arm"] == int(np.argmin(env.unwrapped.means))
