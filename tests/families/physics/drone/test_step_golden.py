"""Golden transcripts of the single-drone envs: fixed seeds and actions, every value pinned.

The digests of the RPM, one-D RPM, action-buffer, randomised-dynamics-and-wind and
held-target cases were taken on the tree before issue 19's shortcuts (the base step's action
test and type conversions, the checking wrappers skipped on reset, the drone step's direct
calls) and must not move. The scripts hold malformed actions (NaN, a list, text, a wrong
shape, None: penalised steps with the motors stopped), out-of-range values (clipped),
float64 and integer arrays, and reach the time limit or a crash, in the fast paths (RPM,
CTBR, one-D RPM) and the general ones (action buffer, explicit dynamics with PID,
randomised dynamics and wind, drag, Waypoints and Gate).

The bits do not depend on the CPU. The rate-controller paths (CTBR, PID) and the Waypoints
and Gate rewards once took their small dot products, norms, 3×3 products and the mixer's
inverse through numpy's OpenBLAS, whose kernels (picked per CPU, or by
``OPENBLAS_CORETYPE``) round differently, so their digests taken with the Haswell kernels
failed where OpenBLAS picked SkylakeX. The drone family now does that arithmetic in plain
floats in a fixed order (:mod:`envsuite.families.physics.drone.vector_math`);
``test_cpu_independence.py`` runs drone episodes under several kernel choices and checks
they agree. The CTBR, PID and drag digests were renewed with that change (its rounding
differs from the old kernels'); the Waypoints and Gate cases (RPM actions: only their
rewards' norms and dot products went through OpenBLAS) kept the digests taken with the
Haswell kernels, whose short sums rounded as the plain floats do in these episodes.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

from envsuite.testing.golden import transcript_digest

HOVER = "envsuite/DroneHover-v0"


def drone_script(seed: int, size: int, spread: float, count: int = 60) -> list[Any]:
    """``count`` random actions in ``[-spread, spread]`` with malformed ones among them."""
    rng = np.random.default_rng(seed)
    actions: list[Any] = list(rng.uniform(-spread, spread, (count, size)).astype(np.float32))
    malformed = [np.full(size, np.nan, np.float32), [0.1] * size, "up",
                 np.zeros(size + 1, np.float32), np.full(size, 3.0), np.ones(size, np.int64),
                 None]  # fmt: skip
    for index, action in enumerate(malformed):
        actions.insert(3 + 4 * index, action)
    return actions


# (env id, kwargs, seed, (script seed, action size, spread), digest)
CASES: list[tuple[str, dict[str, Any], int, tuple[int, int, float], str]] = [
    (
        HOVER,
        {"episode_len_sec": 1.0},
        3,
        (1, 4, 0.1),
        "920de1dd4ea791cdafec602ddccafdea7c77cd98c9a2bcdb11b56e657acc7e72",
    ),
    (HOVER, {}, 4, (2, 4, 1.0), "15d11149cb3803bb1521e1ba649dd996c0784a8c0a2f7e2ca4ff7d02e1f650ff"),
    (
        HOVER,
        {"action_type": "ctbr", "episode_len_sec": 1.0},
        5,
        (3, 4, 0.2),
        "879f3454d55ed09878d55590110468f8d69deb96891cd667ea2c81d07592ff95",
    ),
    (
        HOVER,
        {"action_type": "ctbr"},
        6,
        (4, 4, 1.0),
        "4fb80064771fdf456d385df707fc6b3ad880d85c986509cfde1209c84d177e3e",
    ),
    (
        HOVER,
        {"action_type": "one_d_rpm", "episode_len_sec": 1.0},
        7,
        (5, 1, 0.1),
        "b3ebdeb993eca99279eb0946e5ba38acf30830e34a910999d35ba8bcb0cdd8f1",
    ),
    (
        HOVER,
        {"action_buffer": 2, "episode_len_sec": 1.0},
        8,
        (6, 4, 0.1),
        "ebe4798115b5db16e01a60ed3943b41b0603e448f20133265fdf4ca9ada57302",
    ),
    (
        HOVER,
        {"physics": "dyn", "action_type": "pid", "episode_len_sec": 1.0},
        9,
        (7, 3, 0.5),
        "7357475dcdea07f5111db89f1e46b4a78ce2f3258f8686680e055f838e601504",
    ),
    (
        HOVER,
        {"domain_randomization": True, "wind": True, "episode_len_sec": 1.0},
        10,
        (8, 4, 0.1),
        "47416049d77f24a6a8dd1d1f506a5e055a1d88fd77983e87c5d0ccefd510fe05",
    ),
    (
        HOVER,
        {"action_type": "ctbr", "physics": "pyb_drag", "episode_len_sec": 1.0},
        11,
        (9, 4, 0.2),
        "26442cc9f6625a75d2fc3541a1e10abc4eb3ea6fa154ef10270b5c5af5729e69",
    ),
    (
        HOVER,
        {
            "target": (0.5, -0.5, 1.5),
            "success_radius": 1.0,
            "hold_sec": 0.2,
            "episode_len_sec": 0.5,
        },
        12,
        (10, 4, 0.05),
        "dfab478c3da85a2ef263bd0a57bd65f51a755c02cf14a6b3528981b8121c065a",
    ),
    (
        "envsuite/DroneWaypoints-v0",
        {},
        13,
        (11, 4, 0.1),
        "911f57f52589c1d9f16e305c54148d8399d6ccf6ef5cb998b2ac731e666f69e9",
    ),
    (
        "envsuite/DroneGate-v0",
        {},
        14,
        (12, 4, 0.1),
        "9019d744f3054341bd289bab41b74d23528831a14774fb1bcfad58be5e527f94",
    ),
]


@pytest.mark.parametrize(
    ("env_id", "kwargs", "seed", "script", "digest"),
    CASES,
    ids=[f"{case[0].split('/')[1]}-{case[2]}" for case in CASES],
)
def test_drone_transcripts_are_unchanged(
    env_id: str, kwargs: dict[str, Any], seed: int, script: tuple[int, int, float], digest: str
) -> None:
    actions = drone_script(*script)
    assert transcript_digest(env_id, kwargs, seed=seed, actions=actions) == digest
