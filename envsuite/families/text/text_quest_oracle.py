"""The ``TextQuest-v0`` oracle: play the planner's certified shortest walkthrough."""

from __future__ import annotations

from typing import Any

from envsuite.families.text.text_quest_planner import plan
from envsuite.families.text.text_quest_rules import Command, State


class TextQuestOracle:
    """Plays the env's walkthrough, re-planning when the state is not the one it expects.

    It reads the world, the state and the walkthrough from ``env.unwrapped`` (hidden
    state). From the reset state it plays the env's walkthrough (shortest, so it wins in
    ``optimal_steps`` turns); if anybody else moved in between (the agent deviated, an
    illegal command was answered), it plans again from the state it finds.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self._plan: list[Command] = []
        self._expected: State | None = None
        self._world: Any = None

    def reset(self, seed: int | None = None) -> None:
        """Forget the last plan (the oracle draws nothing)."""
        self._plan, self._expected, self._world = [], None, None

    def act(self, observation: Any, info: dict[str, Any]) -> str:
        """The next command of a shortest plan from the current state."""
        raw = self.env
        game = raw.game
        state = game.state()
        if raw.world is not self._world:  # a new episode: its walkthrough from the start
            self._world = raw.world
            self._plan = list(raw.walkthrough)
            self._expected = state if game.state() == _initial(raw.world) else None
        if state != self._expected or not self._plan:
            self._plan = plan(raw.world, state) or []
        if not self._plan:  # won already, or nothing wins: look around
            self._expected = state
            return "look"
        command = self._plan.pop(0)
        after = type(game)(raw.world, state)
        after.apply(command)
        self._expected = after.state()
        return raw.command_text(command)


def _initial(world: Any) -> State:
    return (world.start, world.door_states, world.receptacle_states, world.object_places)


def text_quest_oracle(env: Any) -> TextQuestOracle:
    """The TextQuest-v0 oracle (see :class:`TextQuestOracle`)."""
    return TextQuestOracle(env)
