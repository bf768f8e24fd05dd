"""``envsuite.make``'s envs step past Gymnasium's checking wrappers only once they have checked."""

from __future__ import annotations

import pickle

import gymnasium
import pytest
from gymnasium.error import ResetNeeded

import envsuite

BANDIT = "envsuite/Bandit-v0"


def test_the_checks_still_run_before_the_shortcut() -> None:
    env = envsuite.make(BANDIT, observation_mode="vector", render_mode="ansi")
    assert "OrderEnforcing<PassiveEnvChecker<" in repr(env)
    with pytest.raises(ResetNeeded, match=r"before calling env\.reset"):
        env.step(0)
    with pytest.raises(ResetNeeded, match="render"):
        env.render()
    env.reset(seed=0)
    env.step(0)
    assert env.step != env.unwrapped.step  # the second step's data-reuse check is to come
    env.step(1)
    assert env.env.checked_step and env.env.checked_data_reuse and env.has_reset
    assert env.step == env.unwrapped.step


def test_made_envs_step_as_gymnasium_made_ones() -> None:
    kwargs = {"observation_mode": "vector", "horizon": 6}
    ours = envsuite.make(BANDIT, **kwargs)
    theirs = gymnasium.make(BANDIT, **kwargs)
    for env in (ours, theirs):
        env.reset(seed=3)
    for arm in [0, 1, 2, 3, 4, 0, 1]:
        mine, other = ours.step(arm), theirs.step(arm)
        assert mine[0].tobytes() == other[0].tobytes() and mine[1:] == other[1:]


def test_a_running_made_env_pickles_and_continues_alike() -> None:
    env = envsuite.make(BANDIT, observation_mode="vector", horizon=10)
    env.reset(seed=1)
    for arm in (0, 1, 2):
        env.step(arm)
    twin = pickle.loads(pickle.dumps(env))
    for arm in (3, 4, 0):
        mine, other = env.step(arm), twin.step(arm)
        assert mine[0].tobytes() == other[0].tobytes() and mine[1:] == other[1:]


def test_an_outer_time_limit_still_truncates() -> None:
    env = envsuite.make(BANDIT, observation_mode="vector", horizon=10, max_episode_steps=3)
    assert repr(env).startswith("<TimeLimit<OrderEnforcing<PassiveEnvChecker<")
    env.reset(seed=0)
    truncated = [env.step(0)[3] for _ in range(3)]
    assert truncated == [False, False, True]


def test_without_the_checker_only_order_enforcing_is_skipped() -> None:
    env = envsuite.make(BANDIT, observation_mode="vector", disable_env_checker=True)
    with pytest.raises(ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    env.step(0)
    assert env.step == env.unwrapped.step


def test_reset_skips_the_wrappers_once_they_have_checked() -> None:
    env = envsuite.make(BANDIT, observation_mode="vector")
    assert env.reset != env.unwrapped.reset and not env.env.checked_reset
    env.reset(seed=0)  # the checker's reset checks run, and OrderEnforcing records it
    assert env.env.checked_reset and env.has_reset
    assert env.reset == env.unwrapped.reset
    theirs = gymnasium.make(BANDIT, observation_mode="vector")
    theirs.reset(seed=0)
    for seed in (5, None):
        mine, other = env.reset(seed=seed), theirs.reset(seed=seed)
        assert mine[0].tobytes() == other[0].tobytes() and mine[1] == other[1]
        assert env.step(2)[1:] == theirs.step(2)[1:]
