"""The ``TextWorld-v0`` oracle: TextWorld's walkthrough, or its winning policy after a detour."""

from __future__ import annotations

from functools import cache
from typing import Any


class TextWorldOracle:
    """Plays the game's walkthrough; after a detour, TextWorld's winning policy from there.

    It reads the walkthrough and the commands played so far from ``env.unwrapped`` (hidden
    state). While the commands played are the walkthrough's first ones, it plays the next
    (so from a reset it wins in ``optimal_steps`` turns). Otherwise (the agent deviated)
    it asks TextWorld's own quest tracker (``GameProgression`` with quest tracking, the
    state reached by replaying the commands) for the winning policy from the state now.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped

    def reset(self, seed: int | None = None) -> None:
        """Nothing to forget: every answer is read from the env's state."""

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        """The next command of the walkthrough, or of a winning policy from here."""
        raw = self.env
        played, walkthrough = raw.commands, raw.walkthrough
        if played == walkthrough[: len(played)] and len(played) < len(walkthrough):
            return str(walkthrough[len(played)])
        policy = winning_policy(str(raw.game.story.with_suffix(".json")), tuple(played))
        return policy[0] if policy else "look"


@cache
def _game(description: str) -> tuple[Any, Any]:
    from textworld import Game
    from textworld.generator.inform7 import Inform7Game

    game = Game.load(description)
    return game, Inform7Game(game)


def winning_policy(description: str, played: tuple[str, ...]) -> list[str]:
    """TextWorld's winning commands after ``played`` in the game ``description`` (a .json)."""
    from textworld.generator.game import GameProgression

    game, inform7 = _game(description)
    progression = GameProgression(game, track_quests=True)
    for command in played:
        commands = inform7.gen_commands_from_actions(progression.valid_actions)
        if command in commands:
            progression.update(progression.valid_actions[commands.index(command)])
    policy = progression.winning_policy
    return list(inform7.gen_commands_from_actions(policy)) if policy else []


def textworld_oracle(env: Any) -> TextWorldOracle:
    """The TextWorld-v0 oracle (see :class:`TextWorldOracle`)."""
    return TextWorldOracle(env)
