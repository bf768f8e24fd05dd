"""Agents that misbehave on purpose, for runner tests (importable as module:Class)."""

from __future__ import annotations

import os
import time
from typing import Any

CALLS: dict[str, int] = {}


class AlwaysCrashes:
    def __init__(self, env: Any) -> None:
        self.env = env

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Any) -> Any:
        CALLS["always"] = CALLS.get("always", 0) + 1
        raise ConnectionError("endpoint unreachable")


class CrashesOnce:
    def __init__(self, env: Any) -> None:
        self.env = env

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Any) -> Any:
        CALLS["once"] = CALLS.get("once", 0) + 1
        if CALLS["once"] == 1:
            raise TimeoutError("first call times out")
        return info.get("legal_actions", ["blue"])[0]


class Slow:
    def __init__(self, env: Any) -> None:
        self.env = env

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Any) -> Any:
        time.sleep(0.02)
        return "blue"


class Hostile:
    """Returns a different hostile action object on each step (see envsuite.testing)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.step = 0

    def reset(self, seed: int | None = None) -> None:
        self.step = 0

    def act(self, observation: Any, info: Any) -> Any:
        from envsuite.testing.hostile_actions import HOSTILE_ACTIONS

        _, make = HOSTILE_ACTIONS[self.step % len(HOSTILE_ACTIONS)]
        self.step += 1
        return make()


class EndsItsProcess:
    """Ends the process it runs in at its first action, as a crash in native code would."""

    def __init__(self, env: Any) -> None:
        self.env = env

    def reset(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Any, info: Any) -> Any:
        os._exit(3)
