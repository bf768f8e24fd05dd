"""Werewolf and Mafia bots as seats of the Parallel form (one adapter per agent).

:class:`ParallelSeat` lets a bot of :mod:`~envsuite.families.social.werewolf_bots`
(:class:`~envsuite.families.social.werewolf_bots.BeliefBot`,
:class:`~envsuite.families.social.werewolf_bots.RandomLegalBot`, made without an env)
play one agent of :class:`~envsuite.families.social.werewolf_parallel.WerewolfParallelEnv`:
when the agent is due (``info["to_act"]``) the bot chooses from the agent's own seat, seeing
the game in the phase the agent acts in (the night is one block, so the doctor chooses
while the engine still waits for the werewolves); otherwise the adapter sends the env's
idle action (``"pass"`` or 0), which the env ignores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import Action, Phase


class ActingView:
    """A game as one seat due in a simultaneous block sees it: in the phase it acts in.

    Every attribute is the game's, but ``phase`` (the seat's acting phase) and
    ``legal_actions(seat)`` (its legal actions in that phase).

    Args:
        game: The game under way.
        phase: The phase the seat acts in.

    """

    def __init__(self, game: WerewolfGame, phase: Phase) -> None:
        self.game = game
        self.phase = phase

    def __getattr__(self, name: str) -> Any:
        if name in ("game", "phase"):  # not set yet (unpickling): never recurse
            raise AttributeError(name)
        return getattr(self.game, name)

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` in the acting phase."""
        return list(self.game.legal_in(self.phase, seat))


class ParallelSeat:
    """One agent of the Parallel form played by a Werewolf bot (see the module).

    Args:
        env: The Parallel env (wrapped or not).
        agent: The agent this seat plays.
        bot: A bot with ``choose(game, seat)`` and ``reset(seed)``.

    """

    def __init__(self, env: Any, agent: str, bot: Any) -> None:
        self.env = env.unwrapped
        self.agent = agent
        self.bot = bot
        self._view: ActingView | None = None

    def reset(self, seed: int | None = None) -> None:
        """Reseed the bot."""
        self.bot.reset(seed)

    def act(self, observation: Any, info: Mapping[str, Any]) -> Any:
        """The bot's action when the agent is due; the idle action otherwise."""
        seat = self.env.seat_of(self.agent)
        phase = self.env.due.get(seat)
        if phase is None or not (isinstance(info, Mapping) and info.get("to_act")):
            return self.env.idle_action()
        game = self.env.game
        if self._view is None or self._view.game is not game:
            self._view = ActingView(game, phase)  # one view per game: the bot keeps its belief
        self._view.phase = phase
        return self.env.encode_action(self.agent, self.bot.choose(self._view, seat))
