"""A tiny turn-based text game (PettingZoo AEC) for the transcript tests.

Two players take turns saying a word; saying ``"yes"`` earns the speaker 1 and costs the
other 0.5. The game ends after four words. Observations are the words said so far.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from envsuite.spaces import UnicodeText

MOVES = 4


class TurnEchoEnv(AECEnv):
    """Two players say words in turn (see the module docstring)."""

    metadata = {"name": "turn_echo_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        self.possible_agents = ["first", "second"]
        self.render_mode = render_mode
        self.words: list[str] = []
        self.observation_spaces = {agent: UnicodeText(1000) for agent in self.possible_agents}
        self.action_spaces = {agent: UnicodeText(100) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> str:
        said = ", ".join(self.words) or "nothing yet"
        return f"You are {agent}. Said so far: {said}."

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.words = []
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"legal_actions": ["yes", "no"]} for agent in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.next()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        word = str(action)
        self.words.append(word)
        if word == "yes":
            other = next(a for a in self.agents if a != agent)
            self.rewards[agent] = 1.0
            self.rewards[other] = -0.5
        if len(self.words) >= MOVES:
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._selector.next()
