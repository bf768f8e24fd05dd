"""Experts-v0 and ContextualBandit-v0 pay the same bits whatever kernels the CPU gets.

Their losses and means were products through OpenBLAS (``play @ losses``, ``contexts @
theta.T``), whose kernels, picked per CPU or by ``OPENBLAS_CORETYPE``, round differently:
with 64 actions and 32 context dimensions the digests below differed between the Haswell
and SkylakeX kernels. Episodes run in one subprocess per choice of kernels
(:mod:`envsuite.testing.cpu_kernels`) and their digests must agree.
"""

from __future__ import annotations

import json

from envsuite.testing.cpu_kernels import outputs_under_kernels

# (env id, kwargs, seed, steps)
CASES = [
    ("envsuite/Experts-v0", {"num_actions": 64, "observation_mode": "vector"}, 3, 40),
    (
        "envsuite/ContextualBandit-v0",
        {"num_arms": 8, "context_dim": 32, "observation_mode": "vector"},
        4,
        40,
    ),
]

# Run in the subprocess: reads the cases as JSON on stdin, prints their digests as JSON.
CHILD = """
import json, sys
import numpy as np
import envsuite
from envsuite.testing.golden import transcript_digest

digests = []
for env_id, kwargs, seed, steps in json.load(sys.stdin):
    space = envsuite.make(env_id, **kwargs).action_space
    rng = np.random.default_rng(seed)
    if hasattr(space, "n"):
        actions = rng.integers(0, space.n, steps).tolist()
    else:
        actions = list(rng.dirichlet(np.ones(space.shape[0]), steps).astype(np.float32))
    digests.append(transcript_digest(env_id, kwargs, seed=seed, actions=actions))
print(json.dumps(digests))
"""


def test_decision_transcripts_do_not_depend_on_the_cpus_kernels() -> None:
    outputs = outputs_under_kernels(CHILD, json.dumps(CASES))
    digests = {name: json.loads(out) for name, out in outputs.items()}
    reference_name, reference = next(iter(digests.items()))
    failures = {
        env_id: sorted(
            name for name, values in digests.items() if values[index] != reference[index]
        )
        for index, (env_id, *_) in enumerate(CASES)
    }
    failures = {env_id: names for env_id, names in failures.items() if names}
    assert not failures, f"digests that differ from {reference_name}'s: {failures}"
