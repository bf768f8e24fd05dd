"""Golden transcripts of Nim-v0: fixed-seed games replayed row by row.

Each row is (agent, action, parse_error, that agent's reward, state digest, observation
hash): a change to what the env does or shows fails here until its version is bumped.
The games include a malformed action, illegal moves, a forfeit and a refused dead step.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from envsuite.families.decision.nim import NimEnv


def observation_hash(env: NimEnv) -> str:
    """sha256 (first 12 hex digits) of every agent's observation, in agent order."""
    digest = hashlib.sha256()
    for agent in env.possible_agents:
        observation = env.observe(agent)
        if isinstance(observation, np.ndarray):
            digest.update(observation.tobytes())
        else:
            digest.update(observation.encode("utf-8"))
    return digest.hexdigest()[:12]


def transcript(kwargs: dict[str, Any], seed: int, actions: list[Any]) -> list[tuple[Any, ...]]:
    env = NimEnv(**kwargs)
    env.reset(seed=seed)
    rows: list[tuple[Any, ...]] = [
        ("reset", None, None, None, env.state_digest()[:16], observation_hash(env))
    ]
    for action in actions:
        agent = env.agent_selection
        env.step(action)
        rows.append(
            (
                agent,
                action,
                env.infos[agent]["parse_error"],
                env.rewards[agent],
                env.state_digest()[:16],
                observation_hash(env),
            )
        )
    return rows


NO_MOVE = "no move found; answer like 'take 2 from heap 3'"
DEAD = (
    "this agent's episode is over: the only action it may take is None (PettingZoo's "
    "dead step); the action was not applied"
)

GOLDEN: list[tuple[dict[str, Any], int, list[tuple[Any, ...]]]] = [
    (
        {},
        0,
        [
            ("reset", None, None, None, "e0c02cc2208ee3c1", "eafda30c4558"),
            ("player_0", "take 2 from heap 3", None, 0.0, "0706fa2656e28150", "c7dc54f859df"),
            ("player_1", "hello", NO_MOVE, -0.1, "de0e66b8d9afdcc7", "46528dcb1898"),
            (
                "player_1",
                "take 5 from heap 1",
                "illegal move: heap 1 has only 3 objects; cannot take 5",
                -0.1,
                "09bc8991d666439c",
                "525f8f1d2aa4",
            ),
            ("player_1", "take 1 from heap 1", None, 0.0, "f0e7ff0c41f0aa1b", "226ec3778f92"),
            ("player_0", "take 1 from heap 2", None, 0.0, "a1edd00929726a37", "9bae80b5ce48"),
            ("player_1", "take 3 from heap 3", None, 0.0, "f1fcb2f5eb4794c8", "3d07e9d7cd3b"),
            ("player_0", "take 1 from heap 2", None, 0.0, "b00940f484157031", "cefd77c48e23"),
            ("player_1", "take 2 from heap 1", None, 0.0, "52bf9cf17b157e12", "094c1aa620c8"),
            ("player_0", "take 2 from heap 2", None, 1.0, "4856ad584e1332b9", "053e5edf1759"),
        ],
    ),
    (
        {"heaps": [5, 6, 7], "random_start": True, "misere": True, "observation_mode": "vector"},
        11,
        [
            ("reset", None, None, None, "15a475559090beee", "196638cfb518"),
            ("player_0", 0, None, 0.0, "2200374b96863f02", "6f52dba9ac25"),
            (
                "player_1",
                3.5,
                "expected action index (int), got float",
                -0.1,
                "0d64dde821bf172c",
                "6f52dba9ac25",
            ),
            (
                "player_1",
                20,
                "illegal move: heap 3 has only 6 objects; cannot take 7",
                -0.1,
                "25b443468ad5da14",
                "6f52dba9ac25",
            ),
            (
                "player_1",
                6,
                "illegal move: heap 1 is empty",
                -0.1,
                "4798430086debffa",
                "6f52dba9ac25",
            ),
            (
                "player_1",
                12,
                "illegal move: heap 2 has only 1 object; cannot take 6",
                -1.1,
                "471905bd6a0b3d67",
                "c2683d4822cc",
            ),
            ("player_0", 13, DEAD, 0.0, "471905bd6a0b3d67", "c2683d4822cc"),
        ],
    ),
]


@pytest.mark.parametrize(("kwargs", "seed", "rows"), GOLDEN)
def test_golden_transcripts_replay(
    kwargs: dict[str, Any], seed: int, rows: list[tuple[Any, ...]]
) -> None:
    actions = [row[1] for row in rows[1:]]
    assert transcript(kwargs, seed, actions) == rows
