"""Agent-string forms of the scripted game bots the boards are seeded with.

:class:`HalfOracle` is a player of middling strength for any game with an oracle: the
oracle's move half of the time, a random legal move otherwise (the text-games-2p board's
middle baseline and panel opponent).

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
from envsuite.seeding import make_generator

#: Chance that :class:`HalfOracle` plays the oracle's move rather than a random one.
ORACLE_SHARE = 0.5


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


class HalfOracle:
    """The env's oracle with probability 1/2, else a uniformly random legal action.

    For turn-based games (PettingZoo AEC) whose oracle is one player per seat and whose
    info lists the legal actions (text mode). Each seat gets its own instance; it plays
    for the seat whose turn it is. One generator, seeded by ``reset(seed)``, draws both
    the coin and the random move; the oracle's own players are reset with the same seed.

    Args:
        env: The made env (the loader passes it).
        spec: Its spec (the loader passes it), whose oracle is used.
    """

    def __init__(self, env: Any, spec: Any) -> None:
        self.env = env.unwrapped
        oracles = spec.load_oracle()(env)
        if not isinstance(oracles, Mapping):
            raise TypeError(f"{spec.id}'s oracle is not one player per seat")
        self.oracles: Mapping[str, Any] = oracles
        self.rng = make_generator(0, "half-oracle")

    def reset(self, seed: int | None = None) -> None:
        """A fresh generator and fresh oracle players from ``seed``."""
        self.rng = make_generator(0 if seed is None else seed, "half-oracle")
        for oracle in self.oracles.values():
            oracle.reset(seed)

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The oracle's move or a random legal one (a fair coin from the generator).

        Raises:
            ValueError: the env lists no legal actions (vector mode).
        """
        legal = info.get("legal_actions")
        if not legal:
            raise ValueError("HalfOracle needs info['legal_actions'] (a text-mode game)")
        seat = self.env.agent_selection
        if self.rng.random() < ORACLE_SHARE:
            return self.oracles[seat].act(observation, info)
        return legal[int(self.rng.integers(len(legal)))]
