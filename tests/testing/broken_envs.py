"""A correct toy env and copies of it broken in exactly one way each, for testing the kit."""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.env_base import EnvsuiteEnv, InvalidAction
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode


class GoodEnv(EnvsuiteEnv[np.ndarray, int, int]):
    """Guess the hidden digit.

    Description:
        A digit in [0, 10) is drawn at reset; each guess is told "higher" or "lower".

    Observation:
        Box(2): the last guess and the hint (-1 lower, 0 none/correct, 1 higher).

    Action:
        Discrete(10): the guess. Anything else wastes a step with reward -1.

    Reward:
        1 for the right guess, 0 otherwise, -1 for a malformed action.

    Termination:
        On the right guess; truncated after 20 steps.

    Arguments:
        render_mode: "ansi", "rgb_array", "human" or None.

    Version history:
        v0: Test only.
    """

    metadata = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 4}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self.observation_space = spaces.Box(-1.0, 10.0, (2,), np.float32)
        self.action_space = spaces.Discrete(10)
        self.target = 0
        self.t = 0

    def draw_target(self) -> int:
        return int(self.np_random.integers(10))

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self.target = self.draw_target()
        self.t = 0
        return np.zeros(2, dtype=np.float32), {}

    def parse_action(self, action: Any) -> int:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise InvalidAction("expected an int")
        if not 0 <= int(action) < 10:
            raise InvalidAction("out of range")
        return int(action)

    def apply_action(self, parsed: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.t += 1
        hint = float(np.sign(self.target - parsed))
        done = parsed == self.target
        info: dict[str, Any] = {"oracle_action": self.target}
        if done or self.t >= 20:
            info["success"] = bool(done)
        obs = np.array([parsed, hint], dtype=np.float32)
        return obs, float(done), bool(done), self.t >= 20 and not done, info

    def apply_invalid_action(
        self, message: str
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.t += 1
        truncated = self.t >= 20
        info: dict[str, Any] = {"success": False} if truncated else {}
        return np.zeros(2, dtype=np.float32), -1.0, False, truncated, info

    def render_text(self) -> str:
        return f"t={self.t}"


class BinarySearchOracle:
    """Solves GoodEnv by binary search on the hints."""

    def __init__(self) -> None:
        self.low, self.high = 0, 9

    def reset(self, seed: int | None = None) -> None:
        self.low, self.high = 0, 9

    def act(self, observation: Any, info: Any) -> int:
        guess, hint = int(observation[0]), float(observation[1])
        if hint > 0:
            self.low = guess + 1
        elif hint < 0:
            self.high = guess - 1
        return (self.low + self.high) // 2


def good_oracle(env: Any) -> BinarySearchOracle:
    return BinarySearchOracle()


def useless_oracle(env: Any) -> Any:
    class AlwaysZero(BinarySearchOracle):
        def act(self, observation: Any, info: Any) -> int:
            return 0

    return AlwaysZero()


class GlobalRandomEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def draw_target(self) -> int:
        return int(np.random.randint(10))  # the bug: the global generator


class SeedIgnoringEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.own = np.random.default_rng()  # the bug: unseeded, ignores reset(seed=...)

    def draw_target(self) -> int:
        return int(self.own.integers(10))


class OutOfSpaceEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def apply_action(self, parsed: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().apply_action(parsed)
        return obs * 100.0, reward, terminated, truncated, info  # the bug: outside the Box


class CrashingEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def step(self, action: Any) -> Any:
        return self.apply_action(int(action))  # the bug: no parsing, so bad input raises


class UndocumentedEnv(GoodEnv):
    """Guess the hidden digit (no template sections)."""


class UnpicklableEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.lock = threading.Lock()  # the bug: cannot be pickled


class NoParseErrorEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = super().step(action)
        info.pop("parse_error")  # the bug: the shared key is missing
        return obs, reward, terminated, truncated, info


class TextRewardEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, str(reward), terminated, truncated, info  # the bug: "1.0" is not a number


class NoRewardEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def step(self, action: Any) -> Any:
        obs, _, terminated, truncated, info = super().step(action)
        return obs, None, terminated, truncated, info  # the bug: no reward at all


class AnsiOnlyEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # the bug: no rgb_array


class NoisyFrameEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def render(self) -> Any:
        frame = super().render()
        if self.render_mode == "rgb_array":
            frame[0, 0] = np.frombuffer(os.urandom(3), np.uint8)  # the bug: not reproducible
        return frame


class GrowingFrameEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def render(self) -> Any:
        frame = super().render()
        if self.render_mode == "rgb_array":
            return frame[: 100 + self.t]  # the bug: the frame size changes as the episode goes
        return frame


class GreyFrameEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def render(self) -> Any:
        frame = super().render()
        if self.render_mode == "rgb_array":
            return frame[:, :, 0]  # the bug: one channel, not RGB
        return frame


class HumanReturnsTextEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def render(self) -> Any:
        return self.render_text() if self.render_mode == "human" else super().render()


class BuggyParserEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def parse_action(self, action: Any) -> int:
        if isinstance(action, str):
            return int(action.split()[3])  # the bug: IndexError, not InvalidAction
        return super().parse_action(action)


class SeededOnlyGeneratorEnv(GoodEnv):
    __doc__ = GoodEnv.__doc__

    def draw_target(self) -> int:
        return 3  # a fixed target: the reset draws nothing, so no generator is made

    def apply_action(self, parsed: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().apply_action(parsed)
        info["noise"] = float(self._np_random.random())  # type: ignore[union-attr]
        return obs, reward, terminated, truncated, info  # the bug: None unless a seed made it
