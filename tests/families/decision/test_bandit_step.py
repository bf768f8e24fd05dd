"""Bandit-v0: the int shortcut gives what the general step gives; pulls pay as random() says."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from gymnasium.error import ResetNeeded

import envsuite
from envsuite.env_base import EPISODE_OVER


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


def _pulls_pay_as_random_says(env: object, twin: np.random.Generator, arms: object) -> None:
    """Each pull's reward is ``twin.random() < mean``, drawn alongside the env's generator."""
    raw = env.unwrapped  # type: ignore[attr-defined]
    for arm in arms:  # type: ignore[attr-defined]
        expected = float(twin.random() < raw.means[int(arm)])
        assert env.step(arm)[1] == expected  # type: ignore[attr-defined]
    np.testing.assert_equal(raw.np_random.bit_generator.state, twin.bit_generator.state)


def test_bernoulli_pulls_pay_as_np_random_random_says() -> None:
    """Both the int shortcut and the general path; across resets and replaced generators."""
    arms = np.random.default_rng(1).integers(5, size=40).tolist()
    for seed in range(12):
        for kind in (int, np.int64):
            env = envsuite.make(
                "envsuite/Bandit-v0", observation_mode="vector", horizon=100,
                difficulty="hard" if seed % 2 else "easy",
            )  # fmt: skip
            env.reset(seed=seed)
            twin = np.random.Generator(np.random.PCG64(seed))
            twin.integers(5)  # reset drew the best arm's position
            _pulls_pay_as_random_says(env, twin, [kind(a) for a in arms[:10]])
            for bits in (np.random.PCG64, np.random.MT19937):
                env.unwrapped.np_random = np.random.Generator(bits(seed))
                twin = np.random.Generator(bits(seed))
                _pulls_pay_as_random_says(env, twin, [kind(a) for a in arms[10:20]])
            env.reset()  # the generator runs on into the next episode
            twin.integers(5)
            _pulls_pay_as_random_says(env, twin, [kind(a) for a in arms[20:30]])
            env.reset(seed=seed + 100)
            twin = np.random.Generator(np.random.PCG64(seed + 100))
            twin.integers(5)
            _pulls_pay_as_random_says(env, twin, [kind(a) for a in arms[30:]])


def test_text_pulls_pay_as_np_random_random_says() -> None:
    env = envsuite.make("envsuite/Bandit-v0", horizon=50, arm_means=(0.3, 0.6, 0.5, 0.1, 0.9))
    env.reset(seed=4)
    twin = np.random.Generator(np.random.PCG64(4))
    names = env.unwrapped.names
    for arm in np.random.default_rng(2).integers(5, size=50).tolist():
        assert env.step(names[arm])[1] == float(twin.random() < env.unwrapped.means[arm])


def test_copies_draw_from_their_own_generator() -> None:
    """A pickled or deep-copied env mid-episode advances its own np_random as it pulls."""
    env = envsuite.make("envsuite/Bandit-v0", observation_mode="vector", horizon=60)
    env.reset(seed=8)
    for arm in (0, 1, 2):
        env.step(arm)
    for make_copy in (lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy):
        twin = make_copy(env)
        state = twin.unwrapped.np_random.bit_generator.state
        assert [twin.step(arm)[1] for arm in range(5)] == [env.step(arm)[1] for arm in range(5)]
        assert twin.unwrapped.np_random.bit_generator.state != state
        assert (
            twin.unwrapped.np_random.bit_generator.state
            == env.unwrapped.np_random.bit_generator.state
        )


def test_int_actions_outside_an_episode_get_the_base_answers() -> None:
    """Before the first reset the base raises ResetNeeded; after the end, the last answer."""
    env = envsuite.make("envsuite/Bandit-v0", observation_mode="vector", horizon=3).unwrapped
    with pytest.raises(ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    last = [env.step(arm) for arm in (0, 1, 2)][-1]
    for _ in range(2):
        observation, reward, terminated, truncated, info = env.step(1)
        assert observation is last[0]
        assert (reward, terminated, truncated) == (0.0, True, False)
        assert info == {"parse_error": EPISODE_OVER}
    assert env.t == 3


@pytest.mark.parametrize("observation_mode", ["vector", "text"])
@pytest.mark.parametrize("arm_type", ["bernoulli", "gaussian"])
def test_fixed_means_step_after_a_first_reset_without_a_seed(
    observation_mode: str, arm_type: str
) -> None:
    """Fixed means draw nothing at reset: the first step still has a generator to draw from."""
    env = envsuite.make(
        "envsuite/Bandit-v0",
        num_arms=3,
        arm_means=(0.1, 0.5, 0.9),
        arm_type=arm_type,
        horizon=4,
        observation_mode=observation_mode,
    )
    env.reset()
    action = 1 if observation_mode == "vector" else "green"
    _, reward, terminated, truncated, info = env.step(action)
    assert info["parse_error"] is None and info["t"] == 1
    assert isinstance(reward, float) and not (terminated or truncated)
    assert isinstance(env.unwrapped.np_random_seed, int)
