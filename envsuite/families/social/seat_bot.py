"""The base of the social games' scripted bots: one seat, a seeded generator, rule actions.

Every game's bots (:mod:`~envsuite.families.social.werewolf_bots`,
:mod:`~envsuite.families.social.avalon_bots`, :mod:`~envsuite.families.social.amongus_bots`)
choose a rule action of the game's engine for a seat (``choose(game, seat)``); made with an
env, ``act(observation, info)`` plays the env's agent to move through it: a belief probe
(``info["probe"]``) gets :meth:`SeatBot.answer_probe`, any other turn the chosen action in
the env's action form (``env.encode_action``). Each game names its generator's stream
(:attr:`SeatBot.RNG_LABEL`), so its bots' draws stay its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from envsuite.families.social.belief_probes import UNIFORM_ANSWER
from envsuite.seeding import make_generator


class SeatBot:
    """What every bot shares: the env, a seeded generator, acting on rule actions.

    Args:
        env: The env (wrapped or not) whose agent to move the bot plays in :meth:`act`;
            None for a bot that only plays a bare engine through :meth:`choose`.
    """

    #: The name of the bot's generator stream (``make_generator(seed, RNG_LABEL)``).
    RNG_LABEL: ClassVar[str] = "seat-bot"

    def __init__(self, env: Any = None) -> None:
        self.env = None if env is None else env.unwrapped
        self.rng = make_generator(0, self.RNG_LABEL)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the bot's generator (its tie-breaking and any draw)."""
        self.rng = make_generator(0 if seed is None else seed, self.RNG_LABEL)

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The bot's action for the agent to move, in the env's action form."""
        if self.env is None:
            raise ValueError("this bot was made without an env: call choose(game, seat)")
        agent = self.env.agent_selection
        seat = self.env.seat_of(agent)
        if isinstance(info, Mapping) and info.get("probe"):
            return self.answer_probe(self.env.game, seat)
        return self.env.encode_action(agent, self.choose(self.env.game, seat))

    def answer_probe(self, game: Any, seat: int) -> str:
        """The answer to a belief probe put to ``seat``: ``uniform`` unless a bot knows better."""
        return UNIFORM_ANSWER

    def choose(self, game: Any, seat: int) -> Any:
        """The rule action of ``seat`` (the seat to move)."""
        raise NotImplementedError


class RandomLegalSeatBot(SeatBot):
    """Plays a uniformly random legal action (``say`` aside): the weakest baseline."""

    def choose(self, game: Any, seat: int) -> Any:
        """A uniformly random legal action (of ``game.legal_actions(seat)``, ``say`` aside)."""
        legal = [action for action in game.legal_actions(seat) if action.kind != "say"]
        return legal[int(self.rng.integers(len(legal)))]
