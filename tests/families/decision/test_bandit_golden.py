"""Golden transcripts of Bandit-v0: what it shows and pays for fixed seeds and actions.

The digests were taken before the step's shortcuts (per-arm info templates, the written-out
Bernoulli vector step, the text answers looked up without the parser) and must not move:
leaderboard boards replay Bandit-v0. The scripts hold malformed actions (penalised
pulls), steps after the end, and each observation mode and text history.
"""

from __future__ import annotations

from typing import Any

import pytest

from envsuite.testing.golden import transcript_digest

CASES: list[tuple[dict[str, Any], int, list[Any], str]] = [
    (
        {"observation_mode": "vector", "horizon": 12},
        3,
        [0, 1, 4, 2, 2, "blue", 7, 3, 0, 1, 1, 4, 2, 0],
        "a6fe4f154a77542e305c51ffa6bc9d783868662095a50d2d99987532e3449a80",
    ),
    (
        {"observation_mode": "vector", "arm_type": "gaussian", "horizon": 9},
        5,
        [1, 1, 2, -1, 3, 0, 4, 4, 2, 1],
        "a90e1b8fe6a4be7948a55bf64ad06f58e297a67c8108fbd36e311d40c15f3a80",
    ),
    (
        {"horizon": 10},
        7,
        ["blue", "I press green.", "RED", "blue or red", "", "yellow", "purple", "nothing",
         "blue", "blue", "red"],
        "38664372beea4772e3b95a2505257233c7f0924fd08b75c23176b2492eb3cf53",
    ),
    (
        {"arm_type": "gaussian", "text_history": "summary", "horizon": 8, "difficulty": "hard"},
        11,
        ["green", "red", "blue", "green", 3, "orange", "purple", "yellow"],
        "4fce5dcaf1eb717a836bae61f9042c7490fd1af253a48ea77f5d51d6a2b993f1",
    ),
    (
        {"num_arms": 3, "text_history": "full", "horizon": 6, "arm_means": (0.2, 0.9, 0.5)},
        2,
        ["red", "green", "blue", "blue", "green", "green"],
        "17d8c6905fb2d74b4cc848bb23ad0cfac84332324a189eb491b313f39143772e",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("kwargs", "seed", "actions", "digest"), CASES)
def test_bandit_transcripts_are_unchanged(
    kwargs: dict[str, Any], seed: int, actions: list[Any], digest: str
) -> None:
    assert transcript_digest("envsuite/Bandit-v0", kwargs, seed=seed, actions=actions) == digest
