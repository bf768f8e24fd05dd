"""Agent-string forms of the scripted game bots the boards are seeded with.

The bots of :mod:`envsuite.families.decision.game_policies` are built from one seat's
payoff matrix, which an agent string cannot pass. These adapters (``module:Class`` agents,
so ``envsuite eval ... --agent envsuite.leaderboard.baseline_agents:TitForTat`` works) read
the seat's payoffs and action names from the reset ``info`` the env gives each player, then
play the bot. Each seat gets its own instance, so one string plays both seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from envsuite.families.decision.game_policies import (
    AlwaysAgent,
    HedgeAgent,
    TitForTatAgent,
)


class _SeatBot:
    """Builds the wrapped bot on the first action, from that seat's reset info.

    Args:
        env: The made RepeatedGame env (the loader passes it).
    """

    def __init__(self, env: Any) -> None:
        raw = env.unwrapped
        self.horizon = int(raw.horizon)
        self.text = raw.observation_mode == "text"
        self._bot: Any = None
        self._seed: int | None = None

    def build(self, payoffs: Any, names: Sequence[str] | None) -> Any:
        """The bot for one seat."""
        raise NotImplementedError

    def reset(self, seed: int | None = None) -> None:
        """Forget the episode; the bot is rebuilt (and seeded) on the next action."""
        self._bot = None
        self._seed = seed

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The wrapped bot's action."""
        if self._bot is None:
            names = info["action_names"] if self.text else None
            self._bot = self.build(info["payoff_matrix"], names)
            self._bot.reset(self._seed)
        return self._bot.act(observation, info)


class TitForTat(_SeatBot):
    """Tit-for-tat: the first action first, then the opponent's last action."""

    def build(self, payoffs: Any, names: Sequence[str] | None) -> Any:
        """A :class:`~envsuite.families.decision.game_policies.TitForTatAgent`."""
        return TitForTatAgent(payoffs, names)


class Hedge(_SeatBot):
    """Hedge (multiplicative weights) tuned to the env's horizon."""

    def build(self, payoffs: Any, names: Sequence[str] | None) -> Any:
        """A :class:`~envsuite.families.decision.game_policies.HedgeAgent`."""
        return HedgeAgent(payoffs, names, horizon=self.horizon)


class AlwaysFirst(_SeatBot):
    """Always the seat's first action (cooperate, heads, rock, opera, stag)."""

    def build(self, payoffs: Any, names: Sequence[str] | None) -> Any:
        """An :class:`~envsuite.families.decision.game_policies.AlwaysAgent` of action 0."""
        return AlwaysAgent(payoffs, names, action=0)
