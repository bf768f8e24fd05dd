"""Replaying logged episodes: candidates stay in step with the log; tampering is caught."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.agents.loading import load_agent
from envsuite.evaluation.policy_selection.logged_replay import LoggedReplayError, replay_logged
from envsuite.evaluation.policy_selection.policy import PolicyProbabilityError
from envsuite.evaluation.protocol import EnvEntry, TaskProtocol
from envsuite.evaluation.run_directory import evaluate
from envsuite.records import Step
from envsuite.registry import registry

MODULE = "envsuite.families.decision.candidate_policies"
BANDIT = "envsuite/Bandit-v0"


def log(tmp_path, agent, options=None, env_id=BANDIT, **kwargs):
    kwargs = {"num_arms": 3, "horizon": 6, "observation_mode": "vector", **kwargs}
    protocol = TaskProtocol(
        id="logged", envs=[EnvEntry(id=env_id, kwargs=kwargs)], seeds=[3, 1, 4, 5]
    )
    result = evaluate(protocol, agent, tmp_path / "run", agent_options=options, progress=False)
    spec = registry[env_id]
    return sorted(result.records, key=lambda r: r.seed), spec, spec.make(**kwargs)


def build(spec, env, name, **options):
    return load_agent(f"{MODULE}:{name}", spec, env, options)


@pytest.mark.parametrize("mode", ["vector", "text"])
def test_the_behaviour_policy_replayed_gives_back_its_logged_probabilities(tmp_path, mode):
    # ε-greedy learns from every pull, so this holds only if replay feeds it the same
    # history as the logged run, step by step.
    records, spec, env = log(
        tmp_path, f"{MODULE}:EpsilonGreedy", {"epsilon": 0.3}, observation_mode=mode
    )
    candidates = {
        "same": build(spec, env, "EpsilonGreedy", epsilon=0.3),
        "uniform": build(spec, env, "UniformPolicy"),
    }
    data = replay_logged(records, env, candidates)
    logged = np.array([[step.probability for step in r.trace] for r in records])
    assert np.array_equal(data.target_probs("same"), logged)
    assert np.all(data.target_probs("uniform") == 1 / 3)
    assert data.rewards.tolist() == [[step.reward for step in r.trace] for r in records]
    assert data.seeds == [1, 3, 4, 5]
    assert data.features.shape[2] == (5 if mode == "vector" else 0)  # K + 2 floats or none
    assert len(data.vocabulary) == 3


def test_a_tampered_reward_is_caught(tmp_path):
    records, spec, env = log(tmp_path, f"{MODULE}:UniformPolicy")
    step = records[2].trace[3]
    records[2].trace[3] = Step(action=step.action, reward=step.reward + 1.0, probability=1 / 3)
    with pytest.raises(LoggedReplayError, match=r"seed 4\), step 3: the replayed reward"):
        replay_logged(records, env, {"u": build(spec, env, "UniformPolicy")})


def test_a_shortened_trace_is_caught(tmp_path):
    records, spec, env = log(tmp_path, f"{MODULE}:UniformPolicy")
    # Drop the last step: the replayed episode does not end where the record says.
    records[0].trace.pop()
    records[0].length -= 1
    with pytest.raises(LoggedReplayError, match="goes on"):
        replay_logged(records, env, {"u": build(spec, env, "UniformPolicy")})


def test_records_without_probabilities_cannot_be_used(tmp_path):
    records, spec, env = log(tmp_path, "random")
    with pytest.raises(LoggedReplayError, match="last_action_probability"):
        replay_logged(records, env, {"u": build(spec, env, "UniformPolicy")})


def test_a_candidate_with_a_bad_distribution_is_named(tmp_path):
    records, _, env = log(tmp_path, f"{MODULE}:UniformPolicy")

    class Broken:
        def reset(self, seed=None):
            pass

        def act(self, observation, info):
            return 0

        def action_probabilities(self, observation, info):
            return {0: 0.5, 1: 0.2}

    with pytest.raises(PolicyProbabilityError, match=r"'broken'.*sum to 0\.7"):
        replay_logged(records, env, {"broken": Broken()})


def test_contextual_bandit_replay(tmp_path):
    env_id = "envsuite/ContextualBandit-v0"
    records, spec, env = log(
        tmp_path,
        f"{MODULE}:LinearEpsilonGreedy",
        {"epsilon": 0.2, "alpha": 0.5},
        env_id=env_id,
        num_arms=3,
        context_dim=2,
        horizon=5,
        observation_mode="vector",
    )
    agent = build(spec, env, "LinearEpsilonGreedy", epsilon=0.2, alpha=0.5)
    data = replay_logged(records, env, {"same": agent})
    logged = np.array([[step.probability for step in r.trace] for r in records])
    assert np.array_equal(data.target_probs("same"), logged)
