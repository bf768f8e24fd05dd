from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.spaces import Dict, Discrete, Text
from gymnasium.spaces.utils import flatten, flatten_space, unflatten
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from envsuite.spaces import UnicodeText, contains_text_space
from tests.unicode_echo_env import GREETING, UnicodeEchoEnv

UNICODE_ACTION = "ünïcödé ✓ 😀 \x00 λ"


def test_contains_any_string_within_the_length_limits():
    space = UnicodeText(8, min_length=2)
    assert space.contains("ab")
    assert space.contains("😀λ中\x00")
    assert not space.contains("a")
    assert not space.contains("x" * 9)
    assert not space.contains(b"ab")
    assert not space.contains(None)


def test_samples_are_members_and_seeded():
    a, b = UnicodeText(20, seed=3), UnicodeText(20, seed=3)
    samples = [a.sample() for _ in range(50)]
    assert samples == [b.sample() for _ in range(50)]
    assert all(a.contains(s) for s in samples)


def test_flatten_round_trip_keeps_every_character():
    space = UnicodeText(32)
    text = "\x00😀 tab\t中"
    flat = flatten(space, text)
    assert flat.shape == (32,) and flat.dtype == np.int32
    assert unflatten(space, flat) == text
    assert flatten_space(space).contains(flat)


def test_equality_hash_and_pickle():
    assert UnicodeText(5) == UnicodeText(5)
    assert UnicodeText(5) != UnicodeText(6)
    assert UnicodeText(5) != Text(5)
    assert hash(UnicodeText(5)) == hash(UnicodeText(5))
    assert pickle.loads(pickle.dumps(UnicodeText(5))) == UnicodeText(5)


def test_contains_text_space_looks_inside_composite_spaces():
    assert contains_text_space(Dict({"a": Discrete(2), "b": UnicodeText(3)}))
    assert not contains_text_space(Dict({"a": Discrete(2)}))


def test_a_unicode_text_env_passes_gymnasiums_checker():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(UnicodeEchoEnv())


def _rollout(envs) -> list:
    observations, _ = envs.reset(seed=[1, 2])
    seen = [observations]
    for _ in range(3):
        observations, *_ = envs.step((UNICODE_ACTION, "plain"))
        seen.append(observations)
    envs.close()
    return seen


def test_sync_vector_env_delivers_unicode_intact():
    seen = _rollout(SyncVectorEnv([UnicodeEchoEnv, UnicodeEchoEnv]))
    assert seen[0][0][1:] == GREETING
    assert seen[1][0][1:] == UNICODE_ACTION


def test_async_vector_env_without_shared_memory_delivers_unicode_intact():
    sync = _rollout(SyncVectorEnv([UnicodeEchoEnv, UnicodeEchoEnv]))
    async_ = _rollout(AsyncVectorEnv([UnicodeEchoEnv, UnicodeEchoEnv], shared_memory=False))
    assert async_ == sync


def test_async_shared_memory_is_refused_loudly_for_unicode_text():
    with pytest.raises(ValueError, match="shared_memory=False"):
        AsyncVectorEnv([UnicodeEchoEnv, UnicodeEchoEnv], shared_memory=True)


class _PlainTextEnv(UnicodeEchoEnv):
    """The echo env with Gymnasium's own Text space, to show what goes wrong without ours."""

    def __init__(self, render_mode=None):
        super().__init__()
        self.observation_space = Text(64)

    def new_episode(self, seed: int | None, options):
        return "start", {}

    def apply_action(self, parsed):
        self.t += 1
        return f"step{self.t}", 0.0, False, False, {}


def test_gymnasiums_shared_memory_silently_serves_stale_text():
    """Why make_vec switches shared memory off: with Gymnasium's Text the data goes stale."""
    envs = AsyncVectorEnv([_PlainTextEnv, _PlainTextEnv], shared_memory=True)
    envs.reset(seed=0)
    later, *_ = envs.step(("a", "b"))
    envs.close()
    assert later != ("step1", "step1")  # what a correct vector env would return


def test_make_vec_async_text_observations_match_sync():
    import envsuite

    def rollout(mode: str) -> list:
        envs = envsuite.make_vec("envsuite/Bandit-v0", 2, vectorization_mode=mode, horizon=5)
        observations, _ = envs.reset(seed=4)
        seen = [observations]
        for _ in range(5):
            observations, rewards, *_ = envs.step(("blue", "I press the red button"))
            seen.append((observations, rewards.tolist()))
        envs.close()
        return seen

    assert rollout("async") == rollout("sync")


def test_make_vec_derives_independent_seeds():
    import envsuite
    from envsuite.seeding import derive_seeds

    envs = envsuite.make_vec("envsuite/Bandit-v0", 2, observation_mode="vector", num_arms=20)
    envs.reset(seed=10)
    means = [m.tolist() for m in envs.get_attr("means")]
    envs.close()
    single = gymnasium.make("envsuite/Bandit-v0", observation_mode="vector", num_arms=20)
    expected = []
    for seed in derive_seeds(10, 2, "vector"):
        single.reset(seed=seed)
        expected.append(single.unwrapped.means.tolist())
    assert means == expected
