"""The agent contract and its optional capabilities (``envsuite.agent_protocol``)."""

from __future__ import annotations

from typing import Any

import pytest

import envsuite
from envsuite.agent_protocol import (
    Agent,
    ReportsActionProbabilities,
    ReportsActionProbability,
    ReportsEpisodeInfo,
)
from envsuite.agents import RandomAgent
from envsuite.agents.chat_agent import ChatAgent
from envsuite.evaluation.policy_selection.policy import logs_probabilities, reports_probabilities
from envsuite.families.decision.candidate_policies import EpsilonGreedy, LinearEpsilonGreedy

CAPABILITIES = (ReportsEpisodeInfo, ReportsActionProbability, ReportsActionProbabilities)


def _has(agent: Any) -> set[str]:
    return {protocol.__name__ for protocol in CAPABILITIES if isinstance(agent, protocol)}


def test_built_in_agents_declare_the_capabilities_they_have() -> None:
    bandit = envsuite.make("envsuite/Bandit-v0", num_arms=3, observation_mode="vector")
    contextual = envsuite.make("envsuite/ContextualBandit-v0", observation_mode="vector")
    chat = ChatAgent(model="m", base_url="http://127.0.0.1:9/v1")
    assert _has(chat) == {"ReportsEpisodeInfo"}
    assert ReportsEpisodeInfo in type(chat).__mro__  # declared, not only matched
    for policy in (EpsilonGreedy(bandit), LinearEpsilonGreedy(contextual)):
        assert isinstance(policy, Agent)
        assert _has(policy) == {"ReportsActionProbability", "ReportsActionProbabilities"}
        assert ReportsActionProbabilities in type(policy).__mro__
    assert _has(RandomAgent(bandit.action_space)) == set()


@pytest.mark.parametrize(
    ("methods", "expected"),
    [
        ({"episode_info": lambda self: {}}, {"ReportsEpisodeInfo"}),
        ({"last_action_probability": lambda self: None}, {"ReportsActionProbability"}),
        ({"action_probabilities": lambda self, o, i: {}}, {"ReportsActionProbabilities"}),
        ({}, set()),
    ],
)
def test_capabilities_are_structural_and_agree_with_policy_selection(
    methods: dict[str, Any], expected: set[str]
) -> None:
    """A user's agent needs no base class; the runner's checks see the same capabilities."""
    agent = type("UserAgent", (), {"reset": lambda self, seed=None: None, **methods})()
    assert _has(agent) == expected
    assert reports_probabilities(agent) == ("ReportsActionProbabilities" in expected)
    assert logs_probabilities(agent) == ("ReportsActionProbability" in expected)
