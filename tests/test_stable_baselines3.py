"""A real client: Stable-Baselines3 builds, checks and trains on envsuite's envs.

SB3's ``make_vec_env`` makes every env with ``render_mode="rgb_array"``; its
``check_env`` takes any env with ``compute_reward`` for a goal env; its HER asks
``compute_reward`` for the rewards of relabelled goals. Each of these once failed here.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from gymnasium.spaces import Text

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("stable_baselines3")

from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

import envsuite
from envsuite.registry import EnvSpec, registry

SINGLE_AGENT = [spec for spec in registry.values() if spec.api == "gymnasium"]
ARMS = [spec for spec in SINGLE_AGENT if spec.id.startswith("envsuite/Arm")]


def vector_kwargs(spec: EnvSpec) -> dict:
    """The spec's test kwargs, in vector observation mode where the env has one."""
    try:
        env_class = spec.load()
    except envsuite.MissingExtraError as exc:
        if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") == "1":
            raise
        pytest.skip(str(exc))
    kwargs = dict(spec.test_kwargs)
    modes = getattr(env_class, "observation_modes", None)  # text games declare theirs
    offered = modes is None or "vector" in modes
    if "observation_mode" in inspect.signature(env_class).parameters and offered:
        kwargs["observation_mode"] = "vector"
    return kwargs


@pytest.mark.parametrize("spec", SINGLE_AGENT, ids=[spec.id for spec in SINGLE_AGENT])
def test_make_vec_env_builds_steps_and_films_every_single_agent_env(spec):
    kwargs = vector_kwargs(spec)
    probe = spec.make(**kwargs)
    text = isinstance(probe.observation_space, Text)
    probe.close()
    if text:
        # Text observations: SB3's DummyVecEnv preallocates numeric buffers, while
        # SubprocVecEnv stacks what its workers return. "envsuite:ID" imports envsuite in
        # the workers (pytest's main module does not).
        envs = make_vec_env(
            f"envsuite:{spec.id}", 2, seed=0, env_kwargs=kwargs, vec_env_cls=SubprocVecEnv
        )
    else:
        envs = make_vec_env(spec.id, 2, seed=0, env_kwargs=kwargs)
    try:
        observations = envs.reset()
        assert len(observations) == 2
        for _ in range(3):
            actions = [envs.action_space.sample() for _ in range(2)]
            observations, rewards, _, infos = envs.step(np.array(actions) if not text else actions)
            assert np.isfinite(rewards).all() and all("parse_error" in info for info in infos)
        frames = envs.get_images()  # SB3's videos; every env renders rgb_array now
        assert len(frames) == 2
        assert all(
            frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8 for frame in frames
        )
    finally:
        envs.close()


def text_only(spec: EnvSpec) -> bool:
    """Whether the env has only text observations (the sat and swe families, text games
    that declare no vector mode)."""
    if spec.family in ("sat", "swe"):
        return True
    if spec.family != "text":
        return False
    return "vector" not in spec.load().observation_modes


#: Every single-agent env SB3 can hold (not the text-only ones), arms in every goal mode too.
CHECK_ENV_CASES = [(spec, {}) for spec in SINGLE_AGENT if not text_only(spec)] + [
    (spec, {"observation_mode": "goal_dict", "reward_type": reward_type})
    for spec in ARMS
    for reward_type in ("dense", "sparse")
]


@pytest.mark.parametrize(
    ("spec", "kwargs"),
    CHECK_ENV_CASES,
    ids=[",".join([spec.id, *map(str, kwargs.values())]) for spec, kwargs in CHECK_ENV_CASES],
)
def test_sb3_check_env_passes(spec, kwargs):
    env = spec.make(**{**vector_kwargs(spec), **kwargs})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3's advice (e.g. on action ranges) is not the contract
        check_env(env.unwrapped)
    env.close()


#: HER+SAC on ArmReach in goal_dict mode: 2000 steps, 1000 of them gradient steps.
HER_SCRIPT = """
import json
import torch
from stable_baselines3 import SAC, HerReplayBuffer
from stable_baselines3.common.env_util import make_vec_env

torch.set_num_threads(1)
envs = make_vec_env("envsuite/ArmReach-v0", 1, seed=0, env_kwargs={"observation_mode": "goal_dict"})
model = SAC(
    "MultiInputPolicy",
    envs,
    replay_buffer_class=HerReplayBuffer,
    replay_buffer_kwargs={"n_sampled_goal": 4, "goal_selection_strategy": "future"},
    learning_starts=1000,
    batch_size=64,
    policy_kwargs={"net_arch": [64, 64]},
    seed=0,
    device="cpu",
)
model.learn(total_timesteps=2000)
rewards = model.replay_buffer.sample(512).rewards.numpy().ravel()
action, _ = model.predict(envs.reset(), deterministic=True)
print(json.dumps({
    "timesteps": model.num_timesteps,
    "stored": model.replay_buffer.size(),
    "rewards": sorted(set(rewards.tolist())),
    "action_ok": bool(envs.action_space.contains(action[0])),
}))
"""


def test_her_sac_trains_on_arm_reach_in_goal_dict_mode():
    # A fresh interpreter: importing triton (torch's optimisers do) after MuJoCo has drawn
    # through EGL with Mesa's llvmpipe, as earlier tests in this process do, crashes the
    # process (two copies of LLVM); the other order works.
    result = subprocess.run(
        [sys.executable, "-c", "import envsuite\n" + HER_SCRIPT],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome["timesteps"] == 2000 and outcome["stored"] == 2000 and outcome["action_ok"]
    # Relabelled goals earn the dense reward's 1 (the future goal was reached) next to
    # shaped values below it: compute_reward is the dense reward, not the sparse one.
    rewards = outcome["rewards"]
    assert max(rewards) == 1.0 and any(0.0 < reward < 1.0 for reward in rewards)
