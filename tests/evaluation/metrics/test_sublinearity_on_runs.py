"""The no-regret verdict on real runs: a no-regret oracle is sublinear, uniform play linear."""

from __future__ import annotations

import pytest

from envsuite.evaluation.metrics import regret_summary
from envsuite.evaluation.protocol import adhoc_protocol
from envsuite.evaluation.runner import evaluate

CASES = [
    ("envsuite/Bandit-v0", {"horizon": 50}),
    ("envsuite/Bandit-v0", {"horizon": 300}),
    ("envsuite/ContextualBandit-v0", {"horizon": 100}),
    ("envsuite/Experts-v0", {"loss_sequence": "adversarial", "horizon": 200}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), CASES, ids=[f"{e}{k}" for e, k in CASES])
def test_oracle_is_sublinear_and_random_is_linear(tmp_path, env_id, kwargs):
    verdicts = {}
    for agent in ("oracle", "random"):
        protocol = adhoc_protocol(env_id, kwargs, episodes=5, attempts=3)
        records = evaluate(protocol, agent, tmp_path / agent, progress=False).records
        verdicts[agent] = regret_summary(records).sublinearity.verdict
    assert verdicts == {"oracle": "sublinear", "random": "linear"}
