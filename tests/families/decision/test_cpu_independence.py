"""Experts-v0 pays the same bits whatever kernels the CPU gets.

Its loss was a product through OpenBLAS (``play @ losses``), whose kernels, picked per CPU
or by ``OPENBLAS_CORETYPE``, round differently: with 64 actions the digest below differed
between the Haswell and SkylakeX kernels. Episodes run in one subprocess per choice of
kernels (:mod:`envsuite.testing.cpu_kernels`) and their digests must agree.

ContextualBandit-v0 is not here: its means are still ``contexts @ theta.T`` through
OpenBLAS, whose kernels sum with fused multiply-adds. numpy's own loops (einsum, a sum
of products) round differently from them already at the default 5 dimensions, which the
committed decision-regret board's replays caught; Python 3.11 has no fused multiply-add
to write the kernels' order out. Its bits agree between the kernels at small dimensions
(the board replays under both Haswell and SkylakeX) and may differ at large ones
(32 dimensions did).
"""

from __future__ import annotations

import json

from envsuite.testing.cpu_kernels import disagreements, outputs_under_kernels

# (env id, kwargs, seed, steps)
CASES = [
    ("envsuite/Experts-v0", {"num_actions": 64, "observation_mode": "vector"}, 3, 40),
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
    failures = disagreements(outputs, [env_id for env_id, *_ in CASES])
    assert not failures, f"digests that differ from {next(iter(outputs))}'s: {failures}"
