"""A tiny turn-based (AEC) text game for the tests of the episode loops, runner and play.

Two players, ``first`` and ``second``, take turns naming a number from 1 to 3; each earns
what it names (a malformed answer costs 1 and sets ``parse_error``). After ``turns`` turns
each the game ends: the higher total wins (``info["outcome"]``). With ``first_leaves``
set, ``first`` is done after that many turns while ``second`` plays on, so the loop must
give ``first`` its dead step in mid-game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from envsuite.registry import EnvSpec, registry
from envsuite.spaces import UnicodeText

TURN_GAME = "envsuite/TestTurnGame-v0"
PLAYERS = ("first", "second")


class TurnGame(AECEnv):
    """Name 1, 2 or 3 on your turn; the higher total after ``turns`` turns each wins."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "name": "turn_game",
        "is_parallelizable": False,
    }

    def __init__(
        self, turns: int = 2, first_leaves: int | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.possible_agents = list(PLAYERS)
        self.turns = turns
        self.first_leaves = first_leaves
        self.render_mode = render_mode
        self._space = UnicodeText(64)

    def observation_space(self, agent: str) -> UnicodeText:
        return self._space

    def action_space(self, agent: str) -> UnicodeText:
        return self._space

    def observe(self, agent: str) -> str:
        return f"you have {self.totals[agent]}, they have {self.totals[self._other(agent)]}"

    @staticmethod
    def _other(agent: str) -> str:
        return PLAYERS[1 - PLAYERS.index(agent)]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.totals = dict.fromkeys(self.agents, 0)
        self.played = dict.fromkeys(self.agents, 0)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            a: {"legal_actions": ["1", "2", "3"]} for a in self.agents
        }
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        number = int(action) if action in ("1", "2", "3") else 0
        self.totals[agent] += number
        self.played[agent] += 1
        self.rewards[agent] = float(number) if number else -1.0
        self.infos[agent] = {
            "legal_actions": ["1", "2", "3"],
            "parse_error": None if number else f"{action!r} is not 1, 2 or 3",
        }
        if self.first_leaves is not None and self.played["first"] >= self.first_leaves:
            self.terminations["first"] = True
        if all(self.played[a] >= self.turns or self.terminations[a] for a in self.agents):
            self._end()
        self._accumulate_rewards()
        for _ in range(2 * len(PLAYERS)):  # the next agent still in the game
            nxt = self._selector.next()
            if nxt in self.agents and (self.terminations[nxt] or self.played[nxt] < self.turns):
                break
        self.agent_selection = nxt
        self._deads_step_first()

    def _end(self) -> None:
        first, second = self.totals["first"], self.totals["second"]
        outcomes = {
            "first": "win" if first > second else "loss" if first < second else "draw",
            "second": "win" if second > first else "loss" if second < first else "draw",
        }
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent] = {**self.infos[agent], "outcome": outcomes[agent]}

    def episode_success(self, final_infos: Mapping[str, Mapping[str, Any]]) -> bool | None:
        """Env-level success (for the tests): ``first`` won."""
        outcome = final_infos.get("first", {}).get("outcome")
        return None if outcome is None else outcome == "win"


class SayThree:
    """The oracle: always names 3."""

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        return "3"


def turn_game_oracle(env: Any) -> dict[str, SayThree]:
    return {agent: SayThree() for agent in env.possible_agents}


@contextmanager
def registered_turn_game() -> Iterator[EnvSpec]:
    """:data:`TURN_GAME` registered for the duration."""
    spec = registry.register(
        EnvSpec(
            id=TURN_GAME,
            entry_point=f"{__name__}:TurnGame",
            family="test",
            api="aec",
            description="Name 1, 2 or 3 on your turn.",
            oracle=f"{__name__}:turn_game_oracle",
        )
    )
    try:
        yield spec
    finally:
        registry.unregister(TURN_GAME)
