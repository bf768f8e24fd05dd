"""A tiny text env for tests: it echoes the action back, so any Unicode can be observed."""

from __future__ import annotations

from typing import Any

from envsuite.env_base import EnvsuiteEnv, InvalidAction
from envsuite.spaces import UnicodeText

GREETING = "héllo wörld λ 中文 😀 \x00 end"


class UnicodeEchoEnv(EnvsuiteEnv[str, str, str]):
    """Echoes the agent's text.

    Description:
        Test env: the observation is the last action, prefixed by a random digit.

    Observation:
        UnicodeText(64).

    Action:
        Any string up to 48 characters.

    Reward:
        The length of the action.

    Termination:
        After 5 steps.

    Arguments:
        None.

    Version history:
        v0: Test only.
    """

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        self.observation_space = UnicodeText(64)
        self.action_space = UnicodeText(48)
        self.t = 0

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        self.t = 0
        return f"{self.np_random.integers(10)}{GREETING}", {}

    def parse_action(self, action: Any) -> str:
        if not self.action_space.contains(action):
            raise InvalidAction("not a string of at most 48 characters")
        return str(action)

    def apply_action(self, parsed: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self.t += 1
        return f"{self.np_random.integers(10)}{parsed}", float(len(parsed)), self.t >= 5, False, {}

    def apply_invalid_action(self, message: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self.t += 1
        return "?", -1.0, self.t >= 5, False, {}
