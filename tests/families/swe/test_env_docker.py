"""SWE-v0 end to end on the Docker backend: oracle, empty patch, reward modes, warm pool."""

from __future__ import annotations

import json

import pytest

import envsuite
from envsuite.families.swe.dataset import load_problems
from envsuite.families.swe.oracle import swe_oracle

from .conftest import DOCKER_LIBRARIES

SUBMIT = json.dumps({"tool": "submit"})


def sample_tasks():
    """Two tasks per library the Docker tests build (the first two of each)."""
    return [t.instance_id for name in DOCKER_LIBRARIES for t in load_problems([name])[:2]]


def run_oracle(env, task_id):
    observation, info = env.reset(seed=0, options={"task_id": task_id})
    oracle = swe_oracle(env)
    oracle.reset(seed=0)
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        observation, reward, terminated, truncated, info = env.step(oracle.act(observation, info))
    return reward, info


@pytest.fixture(scope="module")
def env(task_images):
    env = envsuite.make("envsuite/SWE-v0", libraries=list(DOCKER_LIBRARIES), cache_grades=False)
    yield env
    env.close()


@pytest.mark.parametrize("task_id", sample_tasks())
def test_the_oracle_resolves_and_the_empty_patch_does_not(env, task_id):
    reward, info = run_oracle(env, task_id)
    assert reward == 1.0 and info["success"] and info["resolution"] == "resolved"
    assert info["grade"]["pass_to_pass_broken"] == [] and info["score"] == 1.0
    env.reset(seed=0, options={"task_id": task_id})
    _, reward, terminated, _, info = env.step(SUBMIT)
    assert terminated and reward == 0.0 and not info["success"]
    assert info["resolution"] == "unresolved"


def test_reset_shows_the_problem_and_a_single_commit_history(env):
    observation, info = env.reset(seed=3)
    assert info["problem_statement"] in observation and info["instance_id"]
    log = json.dumps({"tool": "shell", "command": "git log --oneline | wc -l; git status --short"})
    observation, *_ = env.step(log)
    assert observation.endswith("output:\n1\n")


def test_same_seed_same_actions_same_observations(task_images):
    actions = [
        json.dumps({"tool": "shell", "command": "ls; git log --format=%H%n%s"}),
        json.dumps({"tool": "read_file", "path": "setup.py", "start_line": 1, "end_line": 5}),
        "not json",
        json.dumps({"tool": "replace", "path": "setup.py", "old": "setup", "new": "x"}),
    ]
    runs = []
    for _ in range(2):
        env = envsuite.make("envsuite/SWE-v0", libraries=["inflection"], pool_size=0)
        steps = [env.reset(seed=11)]
        steps += [env.step(a) for a in actions]
        env.close()
        runs.append(steps)
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("mode", "gold", "empty"), [("similarity", 1.0, -1.0), ("dense", 1.0, 0.0)]
)
def test_reward_modes(task_images, mode, gold, empty):
    task_id = load_problems(["inflection"])[0].instance_id
    env = envsuite.make("envsuite/SWE-v0", libraries=["inflection"], reward=mode, pool_size=0)
    try:
        reward, info = run_oracle(env, task_id)
        assert reward == gold and info["success"]
        env.reset(seed=0, options={"task_id": task_id})
        _, reward, _, _, info = env.step(SUBMIT)
        assert reward == empty and not info["success"]
    finally:
        env.close()


def test_the_warm_pool_hands_over_a_started_container(task_images):
    env = envsuite.make("envsuite/SWE-v0", libraries=["inflection"], pool_size=1)
    try:
        env.reset(seed=0)
        [pool] = env.unwrapped.provider.pools().values()
        assert pool.wait_until_full(timeout_s=120) and pool.ready == 1
        waiting = pool._ready[0].container.id
        env.reset(seed=1)
        assert env.unwrapped.sandbox.container.id == waiting
    finally:
        env.close()


def test_step_limit_truncates(task_images):
    env = envsuite.make("envsuite/SWE-v0", libraries=["inflection"], step_limit=2, pool_size=0)
    try:
        env.reset(seed=0)
        _, _, terminated, truncated, _ = env.step("{}")
        assert not (terminated or truncated)
        _, _, terminated, truncated, info = env.step("{}")
        assert truncated and not terminated and info["truncated_reason"] == "step_limit"
        assert env.unwrapped.sandbox is None  # released at once
    finally:
        env.close()
