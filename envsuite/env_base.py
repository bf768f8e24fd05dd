"""Base classes that give every envsuite env the same action-handling contract.

A concrete env fills in its hooks (template method, as in Minigrid):

- ``new_episode(options)`` builds the first observation and info after seeding;
- ``parse_action(action)`` turns whatever the agent sent into the env's own action type,
  raising :class:`InvalidAction` (or anything else) when it cannot;
- ``apply_action(parsed)`` / ``apply_invalid_action(message)`` advance the env.

The base class owns ``reset`` and ``step``: it never lets a malformed action raise into
agent code, puts ``parse_error`` (``None`` or the reason) into every ``info``, and answers
a step taken after the episode ended with the last observation, reward 0 and a
``parse_error``. A step before the first reset raises Gymnasium's ``ResetNeeded``, as the
``OrderEnforcing`` wrapper of ``gymnasium.make`` does: there is no observation to answer
with.

Rendering: a text env writes ``render_text()`` (its ``ansi`` frame), declares the modes
of :data:`~envsuite.rendering.TEXT_RENDER_MODES` in ``metadata["render_modes"]`` and
checks its ``render_mode`` with :func:`~envsuite.rendering.checked_render_mode`; the
base's ``render`` then gives the text (``"ansi"``), the text drawn on an image
(``"rgb_array"``) or prints it (``"human"``, also after every ``reset`` and ``step``).
Envs with pictures of their own override ``render``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

import gymnasium as gym
from gymnasium.error import ResetNeeded

from envsuite.action_errors import MAX_PARSE_ERROR_CHARS as MAX_PARSE_ERROR_CHARS
from envsuite.action_errors import InvalidAction as InvalidAction
from envsuite.action_errors import describe_parse_failure, is_interrupt
from envsuite.plain_actions import plain_action
from envsuite.registry import registry
from envsuite.rendering import render_text_frame

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")
ParsedT = TypeVar("ParsedT")

#: The sections every env docstring has, in this order.
DOCSTRING_SECTIONS = (
    "Description",
    "Observation",
    "Action",
    "Reward",
    "Termination",
    "Arguments",
    "Version history",
)

EPISODE_OVER = "the episode has ended; call reset() before stepping again"
NOT_STARTED = "call reset() before step(): no episode has started"


class EnvsuiteEnv(gym.Env[ObsType, ActType], Generic[ObsType, ActType, ParsedT]):
    """A Gymnasium env whose ``step`` tolerates any action and reports ``parse_error``.

    Subclasses implement :meth:`new_episode`, :meth:`parse_action`, :meth:`apply_action`
    and :meth:`apply_invalid_action`; the base class seeds ``self.np_random`` in ``reset``
    and records the last step, so that a step after the end of an episode is answered
    without touching the env's state.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self) -> None:
        super().__init__()
        self._last_observation: ObsType | None = None
        self._episode_over = True  # until the first reset
        self._cached_spec_hash: tuple[int, str] | None = None
        #: The env's step limit when ``envsuite.make(..., max_episode_steps=N)`` set one
        #: other than the spec's ``max_episode_steps`` (None: the spec's applies).
        self.max_episode_steps_override: int | None = None

    # -- hooks -------------------------------------------------------------------------
    def new_episode(self, options: dict[str, Any] | None) -> tuple[ObsType, dict[str, Any]]:
        """Start an episode (``self.np_random`` is already seeded); return obs and info."""
        raise NotImplementedError

    def parse_action(self, action: Any) -> ParsedT:
        """Convert the agent's action to the env's action type, or raise InvalidAction."""
        raise NotImplementedError

    def apply_action(self, parsed: ParsedT) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Advance the env with a well-formed action."""
        raise NotImplementedError

    def apply_invalid_action(
        self, message: str
    ) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Advance the env after a malformed action, applying the env's documented penalty."""
        raise NotImplementedError

    def render_text(self) -> str:
        """The env's ``ansi`` frame: the state as a person reading the env sees it now."""
        raise NotImplementedError(f"{type(self).__name__} does not render as text")

    # -- the loop ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Seed ``self.np_random`` (when ``seed`` is given) and start a new episode."""
        super().reset(seed=seed)
        observation, info = self.new_episode(options)
        self._last_observation = observation
        self._episode_over = False
        if self.render_mode == "human":
            self.render()
        return observation, info

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Apply ``action``; a malformed one costs the documented penalty, never an exception."""
        if self._episode_over:
            if self._last_observation is None:
                raise ResetNeeded(NOT_STARTED)
            return self._last_observation, 0.0, True, False, {"parse_error": EPISODE_OVER}
        try:
            parsed = self.parse_action(plain_action(action))
        except BaseException as exc:  # any failure to understand the action is the agent's
            if is_interrupt(exc):
                raise
            message = describe_parse_failure(exc)
            observation, reward, terminated, truncated, info = self.apply_invalid_action(message)
            info["parse_error"] = message
        else:
            observation, reward, terminated, truncated, info = self.apply_action(parsed)
            info.setdefault("parse_error", None)
        self._last_observation = observation
        self._episode_over = bool(terminated or truncated)
        if self.render_mode == "human":
            self.render()
        return observation, float(reward), bool(terminated), bool(truncated), info

    def render(self) -> Any:
        """The frame of ``self.render_mode``, made from :meth:`render_text`.

        ``"ansi"``: the text; ``"rgb_array"``: an ``(H, W, 3)`` uint8 image of the text,
        the same shape for every frame; ``"human"``: prints the text and returns None.
        None when the env was made without a render mode.
        """
        if self.render_mode is None:
            return None
        return render_text_frame(self.render_text(), self.render_mode)

    # -- identity ----------------------------------------------------------------------
    @property
    def spec_hash(self) -> str | None:
        """sha256 of id, effective kwargs, envsuite version and dataset checksums.

        A step limit given to ``envsuite.make(..., max_episode_steps=N)`` other than the
        registered one is part of the hash too.

        Available on envs built by ``envsuite.make`` or ``gymnasium.make``; ``None`` for an
        env constructed directly from its class (it then has no id).
        """
        if self.spec is None or self.spec.id not in registry:
            return None
        kwargs: Mapping[str, Any] = self.spec.kwargs
        key = id(self.spec)
        if self._cached_spec_hash is None or self._cached_spec_hash[0] != key:
            spec = registry[self.spec.id]
            value = spec.hash_for(kwargs, max_episode_steps=self.max_episode_steps_override)
            self._cached_spec_hash = (key, value)
        return self._cached_spec_hash[1]
