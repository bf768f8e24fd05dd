"""A remote episode is the in-process episode: same seed and actions, same everything."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

import envsuite
import envsuite.remote
from envsuite.remote import RemoteError
from envsuite.testing.logical_state import same
from envsuite.testing.rollout import Episode, run_episode

#: (env id, kwargs, form): text and vector observations, turn-based and simultaneous games.
CASES = [
    ("envsuite/Bandit-v0", {"horizon": 30}, "gymnasium"),
    ("envsuite/Bandit-v0", {"horizon": 30, "observation_mode": "vector"}, "gymnasium"),
    ("envsuite/Wordle-v0", {}, "gymnasium"),
    ("envsuite/SAT-v0", {}, "gymnasium"),
    ("envsuite/Nim-v0", {}, "aec"),
    ("envsuite/RepeatedGame-v0", {"horizon": 15}, "parallel"),
    ("envsuite/RepeatedGame-v0", {"horizon": 15, "observation_mode": "vector"}, "aec"),
]


def _policy(env: Any, form: str, seed: int) -> Any:
    """Legal actions when the info lists them, else samples of a copy of the agent's space
    (keyed by agent name, so both envs draw alike), and a malformed action now and then."""
    rng = np.random.default_rng(seed)
    own_spaces: dict[Any, Any] = {}
    count = [0]

    def policy(agent: Any, observation: Any, info: Any) -> Any:
        count[0] += 1
        if count[0] % 7 == 3:  # the penalty path too
            return "\x00 not an action \udcff"
        legal = info.get("legal_actions") if isinstance(info, dict) else None
        if legal:
            return legal[int(rng.integers(len(legal)))]
        if agent not in own_spaces:
            space = env.action_space if form == "gymnasium" else env.action_space(agent)
            own_spaces[agent] = copy.deepcopy(space)
            own_spaces[agent].seed(int(rng.integers(2**31)))
        return own_spaces[agent].sample()

    return policy


def _play(env: Any, form: str, seed: int) -> Episode:
    return run_episode(form, env, seed, _policy(env, form, seed), max_steps=80)


def _assert_same(remote: Episode, local: Episode) -> None:
    assert same(remote.observation, local.observation)
    assert same(remote.info, local.info)
    assert len(remote.transitions) == len(local.transitions) > 0
    pairs = zip(remote.transitions, local.transitions, strict=True)
    for index, (here, there) in enumerate(pairs):
        for name in ("observation", "reward", "terminated", "truncated", "info"):
            assert same(getattr(here, name), getattr(there, name)), f"step {index}: {name}"


@pytest.mark.parametrize(("env_id", "kwargs", "form"), CASES, ids=lambda c: str(c))
def test_remote_episode_equals_in_process(server, env_id, kwargs, form) -> None:
    parallel = form == "parallel"
    options = {"parallel": parallel} if envsuite.spec(env_id).multi_agent else {}
    remote = envsuite.remote.make(server.url, env_id, **kwargs, **options)
    local = envsuite.make(env_id, **kwargs, **options)
    assert remote.unwrapped.spec_hash == local.unwrapped.spec_hash
    for seed in (0, 11):
        _assert_same(_play(remote, form, seed), _play(local, form, seed))
    remote.close()


def test_spaces_arrive_equal(server) -> None:
    remote = envsuite.remote.make(server.url, "envsuite/Bandit-v0", observation_mode="vector")
    local = envsuite.make("envsuite/Bandit-v0", observation_mode="vector")
    assert remote.observation_space == local.observation_space
    assert remote.action_space == local.action_space
    observation, _ = remote.reset(seed=4)
    assert isinstance(observation, np.ndarray) and observation.dtype == np.float32
    remote.close()


def test_a_pickled_remote_env_continues_like_the_original(server) -> None:
    env = envsuite.remote.make(server.url, "envsuite/Wordle-v0")
    env.reset(seed=2)
    env.step("crane")
    twin = pickle.loads(pickle.dumps(env))
    for word in ("slate", "pious"):
        assert same(env.step(word), twin.step(word))
    env.close()
    twin.close()


def test_kwargs_outside_the_allow_list_are_refused(server) -> None:
    with pytest.raises(RemoteError, match="does not let clients set arm_means") as caught:
        envsuite.remote.make(server.url, "envsuite/Bandit-v0", arm_means=(0.1, 0.9))
    assert caught.value.code == "KWARG_NOT_ALLOWED"


def test_a_value_the_env_refuses_is_named(server) -> None:
    with pytest.raises(RemoteError, match="num_arms") as caught:
        envsuite.remote.make(server.url, "envsuite/Bandit-v0", num_arms=-3)
    assert caught.value.code == "FACTORY_ERROR"


def test_an_env_the_server_does_not_serve(server) -> None:
    with pytest.raises(RemoteError, match="not served here") as caught:
        envsuite.remote.make(server.url, "envsuite/Experts-v0")
    assert caught.value.code == "UNKNOWN_ENV"


def test_closing_every_env_leaves_no_live_env(server) -> None:
    envs = [envsuite.remote.make(server.url, "envsuite/Nim-v0") for _ in range(5)]
    for env in envs:
        env.reset(seed=1)
    table = server.sessions
    assert table.live_envs() >= 5
    for env in envs:
        env.close()
    from tests.serve.servers import wait_until

    wait_until(lambda: table.live_envs() == 0, what="every env closed")


def test_image_observations_arrive_exactly() -> None:
    """A drone's camera images travel as PNG and arrive bit for bit."""
    import os

    from envsuite.serve import RunningServer, ServeConfig

    if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
        pytest.importorskip("pybullet")
    env_id = "envsuite/DroneWaypoints-v0"
    kwargs = {"observation_type": "rgb", "image_size": [24, 16]}  # a list: fixed by the server
    config = ServeConfig((env_id,), port=0, fixed_kwargs={env_id: kwargs})
    with RunningServer(config) as server:
        remote = envsuite.remote.make(server.url, env_id)
        local = envsuite.make(env_id, **kwargs)
        assert remote.observation_space == local.observation_space
        assert remote.unwrapped.spec_hash == local.unwrapped.spec_hash
        observation, info = remote.reset(seed=1)
        assert observation.dtype == np.uint8 and observation.shape == (16, 24, 3)
        assert same((observation, info), local.reset(seed=1))
        local.action_space.seed(0)
        for _ in range(10):
            action = local.action_space.sample()
            assert same(remote.step(action), local.step(action))
        remote.close()
