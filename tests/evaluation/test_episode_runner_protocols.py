"""The runner's cheap protocol checks answer as ``isinstance`` does."""

from __future__ import annotations

from typing import Any

import pytest

from envsuite.agent_protocol import Agent, ReportsActionProbability, ReportsEpisodeInfo
from envsuite.evaluation.episode_runner import _provides


class Plain:
    def reset(self, seed: int | None = None) -> None: ...

    def act(self, observation: Any, info: Any) -> Any: ...


class Reporting(Plain):
    def last_action_probability(self) -> float:
        return 0.5

    def episode_info(self) -> dict[str, Any]:
        return {}


class ReportsNone(Plain):
    last_action_probability = None


class AttributeOnInstance(Plain):
    def __init__(self) -> None:
        self.episode_info = dict


@pytest.mark.parametrize("agent", [Plain(), Reporting(), ReportsNone(), AttributeOnInstance(), 3])
@pytest.mark.parametrize("protocol", [Agent, ReportsActionProbability, ReportsEpisodeInfo])
def test_same_answer_as_isinstance(agent: Any, protocol: type) -> None:
    assert _provides(agent, protocol) == isinstance(agent, protocol)
