"""The drone envs fly the same bits whatever kernels OpenBLAS and numpy pick for the CPU.

OpenBLAS, numpy and glibc pick their kernels per CPU (see
:mod:`envsuite.testing.cpu_kernels`), and OpenBLAS's round dot products, matrix products
and inverses differently. Short episodes of every path through the controllers and
the task rewards (CTBR on the fast and the general path, PID on the explicit dynamics, a
velocity set-point with ground effect, Waypoints, Gate, a swarm) run in one subprocess per
choice of kernels, and their digests must all agree. Before the drone family did its small
products in plain floats (:mod:`envsuite.families.physics.drone.vector_math`), the CTBR,
PID, Waypoints and Gate digests differed between the Haswell and SkylakeX kernels.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pybullet")

from envsuite.testing.cpu_kernels import disagreements, outputs_under_kernels

# (env id, kwargs, seed, action size, steps)
CASES: list[tuple[str, dict[str, Any], int, int, int]] = [
    ("envsuite/DroneHover-v0", {"action_type": "ctbr"}, 5, 4, 30),
    ("envsuite/DroneHover-v0", {"action_type": "ctbr", "physics": "pyb_drag"}, 11, 4, 20),
    ("envsuite/DroneHover-v0", {"action_type": "pid", "physics": "dyn"}, 9, 3, 20),
    ("envsuite/DroneHover-v0", {"action_type": "vel", "physics": "pyb_gnd"}, 2, 4, 20),
    ("envsuite/DroneWaypoints-v0", {}, 1, 4, 30),
    ("envsuite/DroneGate-v0", {}, 2, 4, 30),
    ("envsuite/DroneGate-v0", {"action_type": "pid", "physics": "dyn"}, 3, 3, 20),
    (
        "envsuite/DroneSwarm-v0",
        {"num_drones": 3, "action_type": "pid", "physics": "dyn_gnd"},
        4,
        3,
        10,
    ),
]

# Run in the subprocess: reads the cases as JSON on stdin, prints their digests as JSON.
CHILD = """
import hashlib, json, sys
import numpy as np
import envsuite
from envsuite.jsonable import canonical_json
from envsuite.testing.golden import transcript_digest

def plain(value):
    if isinstance(value, np.ndarray):
        return value.tobytes().hex()
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value

def parallel_digest(env_id, kwargs, seed, actions):
    env = envsuite.make(env_id, parallel=True, **kwargs)
    rows = [plain(env.reset(seed=seed))]
    for row in actions:
        rows.append(plain(env.step({agent: row for agent in env.agents})))
    env.close()
    return hashlib.sha256(canonical_json(rows).encode()).hexdigest()

digests = []
for env_id, kwargs, seed, size, steps in json.load(sys.stdin):
    rng = np.random.default_rng(seed)
    actions = list(rng.uniform(-0.3, 0.3, (steps, size)).astype(np.float32))
    if envsuite.spec(env_id).api == "parallel":
        digests.append(parallel_digest(env_id, kwargs, seed, actions))
    else:
        digests.append(transcript_digest(env_id, kwargs, seed=seed, actions=actions))
print(json.dumps(digests))
"""


def test_drone_transcripts_do_not_depend_on_the_cpus_kernels() -> None:
    outputs = outputs_under_kernels(CHILD, json.dumps(CASES))
    failures = disagreements(outputs, [f"{env_id} {kwargs}" for env_id, kwargs, *_ in CASES])
    assert not failures, f"digests that differ from {next(iter(outputs))}'s: {failures}"
