"""Golden transcripts of the arm envs: fixed seeds and actions, every value pinned.

The digests were taken on the tree before issue 19's shortcuts (the scalar scoring and the
grip control written out, the base step's action test and type conversions) and must not
move. The random scripts hold malformed actions (NaN, text, a wrong shape, a boolean, None:
penalised steps that leave the hand where it was), a list, float64 and integer arrays and
out-of-range values (clipped), and run into the time limit; the oracle's scripts push, reach
and lift to success, in both observation modes and both reward types.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("mujoco")

import envsuite
from envsuite.families.physics.arm.scripted_oracle import arm_oracle
from envsuite.testing.golden import transcript_digest

PUSH, REACH, PICK = "envsuite/ArmPush-v0", "envsuite/ArmReach-v0", "envsuite/ArmPickPlace-v0"


def random_script(seed: int, count: int = 60) -> list[Any]:
    """``count`` random actions in ``[-1.3, 1.3]`` with malformed ones among them."""
    rng = np.random.default_rng(seed)
    actions: list[Any] = list(rng.uniform(-1.3, 1.3, (count, 4)).astype(np.float32))
    malformed = [np.full(4, np.nan, np.float32), [0.1, 0.2, -0.3, 1.0], "left",
                 np.zeros(3, np.float32), np.array([0.5, -2.0, 0.0, 1.0]),
                 np.array([1, 0, -1, 1]), (0.0, 0.0, 0.0, True), None]  # fmt: skip
    for index, action in enumerate(malformed):
        actions.insert(2 + 5 * index, action)
    return actions


def oracle_script(env_id: str, kwargs: dict[str, Any], seed: int, count: int) -> list[Any]:
    """The scripted oracle's actions over one episode (they reach the goal)."""
    env = envsuite.make(env_id, **kwargs)
    oracle = arm_oracle(env)
    observation, info = env.reset(seed=seed)
    actions = []
    for _ in range(count):
        action = oracle.act(observation, info)
        actions.append(action)
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return actions


# (env id, kwargs, seed, script: a random script's seed or the oracle's step count, digest)
CASES: list[tuple[str, dict[str, Any], int, tuple[str, int], str]] = [
    (
        PUSH,
        {"max_episode_steps": 30},
        3,
        ("random", 1),
        "e2f14e075c8850fb245f836f17e298ed6d83d49b4c3729208b41b4bf93d7722c",
    ),
    (
        PUSH,
        {"observation_mode": "goal_dict", "reward_type": "sparse", "max_episode_steps": 25},
        4,
        ("random", 2),
        "41a7e27909309c887ef1f1b24372ce888d16f39e909a973474dd076cc587021a",
    ),
    (
        REACH,
        {"max_episode_steps": 30},
        5,
        ("random", 3),
        "094ec4ed9c52a9ae84ef6e15736ed4f9e565986b492d19fb897a0011aa59e3c1",
    ),
    (
        PICK,
        {"goal_observable": False, "max_episode_steps": 30},
        6,
        ("random", 4),
        "35d7bf91c298ff391e101097aaf752dc61173151a3575c849894830f4c67eb6e",
    ),
    (
        PUSH,
        {},
        7,
        ("oracle", 200),
        "a236174bf6dc463f0c49f0c24c1bdc5ae1ddfb99b5519621a922c2615aeeb63a",
    ),
    (
        PUSH,
        {"terminate_on_success": True, "action_scale": 0.05},
        8,
        ("oracle", 200),
        "8d38957ef6a874382567bea5683e4fbcb83eaa579db7744b2db84d2edeab6529",
    ),
    (
        REACH,
        {"observation_mode": "goal_dict"},
        9,
        ("oracle", 60),
        "a45952ee5c860e30338adb43b3b021c36e882fb306c502a5e7b522ebfc6a443b",
    ),
    (
        PICK,
        {"frame_skip": 7},
        10,
        ("oracle", 200),
        "6d477d395c3bd2c9c35b4cff2391e088334335b3307b5972e603e906c81091ca",
    ),
]


@pytest.mark.parametrize(
    ("env_id", "kwargs", "seed", "script", "digest"),
    CASES,
    ids=[f"{case[0].split('/')[1]}-{case[2]}-{case[3][0]}" for case in CASES],
)
def test_arm_transcripts_are_unchanged(
    env_id: str, kwargs: dict[str, Any], seed: int, script: tuple[str, int], digest: str
) -> None:
    kind, number = script
    if kind == "random":
        actions = random_script(number)
    else:
        actions = oracle_script(env_id, kwargs, seed, number)
    assert transcript_digest(env_id, kwargs, seed=seed, actions=actions) == digest
