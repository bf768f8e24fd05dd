"""Base classes that give every envsuite env the same action-handling contract.

A concrete env fills in its hooks (template method, as in Minigrid); they are abstract, so
an env that misses one fails when it is made, naming it:

- ``new_episode(seed, options)`` builds the first observation and info. ``self.np_random``
  is already seeded; ``seed`` is the seed ``reset`` got (None when the generator keeps
  running), for envs whose seed names a dataset item (:mod:`envsuite.dataset_items`);
  most envs draw everything from ``self.np_random`` and ignore it;
- ``parse_action(action)`` turns whatever the agent sent into the env's own action type,
  raising :class:`InvalidAction` with the reason when it cannot;
- ``apply_action(parsed)`` / ``apply_invalid_action(message)`` advance the env.

``render_text()`` is optional (see Rendering). The class-level declarations the runner,
the registry and the reports read (``record_curves``, ``record_metrics``,
``dataset_files``, ``item_labels``) come with defaults from
:class:`~envsuite.env_attributes.EnvAttributes`; an env overrides the ones it uses.

The base class owns ``reset`` and ``step``; no env overrides them. ``step`` never lets a
malformed action raise into agent code, puts ``parse_error`` (``None`` or the reason) into
every ``info``, and answers a step taken after the episode ended with the last
observation, reward 0 and a ``parse_error``. A step before the first reset raises
Gymnasium's ``ResetNeeded``, as the ``OrderEnforcing`` wrapper of ``gymnasium.make`` does:
there is no observation to answer with.

Malformed actions and parser bugs: the action first goes through
:func:`~envsuite.plain_actions.plain_action` (a hostile object that fails while being
copied is the agent's malformed action, nothing more). Then ``parse_action`` must raise
:class:`InvalidAction` for anything it refuses, and must not call methods of objects it
has not type-checked (an agent's object may raise anything; see
:func:`~envsuite.action_parsing.is_numeric_data`). Any other exception out of
``parse_action`` is a bug in the parser: the agent still gets a ``parse_error`` and the
penalty (agents never see an exception), and
:func:`~envsuite.action_errors.describe_parse_failure` warns with
:class:`~envsuite.action_errors.ParseActionBugWarning`, naming the env, the exception and
where it was raised. envsuite's tests turn that warning into an error, so a parser bug
fails the tests instead of passing as a silent penalty.

Rendering: a text env writes ``render_text()`` (its ``ansi`` frame), declares the modes
of :data:`~envsuite.rendering.TEXT_RENDER_MODES` in ``metadata["render_modes"]`` and
checks its ``render_mode`` with :func:`~envsuite.rendering.checked_render_mode`; the
base's ``render`` then gives the text (``"ansi"``), the text drawn on an image
(``"rgb_array"``) or prints it (``"human"``, also after every ``reset`` and ``step``).
Envs with pictures of their own override ``render``.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

import gymnasium as gym
import numpy as np
from gymnasium.error import ResetNeeded

from envsuite.action_errors import MAX_PARSE_ERROR_CHARS as MAX_PARSE_ERROR_CHARS
from envsuite.action_errors import InvalidAction as InvalidAction
from envsuite.action_errors import describe_parse_failure, is_interrupt
from envsuite.env_attributes import EnvAttributes
from envsuite.plain_actions import plain_action
from envsuite.registry import registry
from envsuite.rendering import TextRendering

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

_NDARRAY = np.ndarray

EPISODE_OVER = "the episode has ended; call reset() before stepping again"
NOT_STARTED = "call reset() before step(): no episode has started"


class EnvsuiteEnv(
    EnvAttributes,
    TextRendering,
    gym.Env[ObsType, ActType],
    Generic[ObsType, ActType, ParsedT],
    metaclass=abc.ABCMeta,
):
    """A Gymnasium env whose ``step`` tolerates any action and reports ``parse_error``.

    Subclasses implement the abstract hooks :meth:`new_episode`, :meth:`parse_action`,
    :meth:`apply_action` and :meth:`apply_invalid_action`; the base class seeds
    ``self.np_random`` in ``reset``, hands the seed on to :meth:`new_episode`, and records
    the last step, so that a step after the end of an episode is answered without touching
    the env's state.

    Attributes:
        step_limit: A step limit other than the registered one, set by ``envsuite.make``
            (None otherwise).
        record_curves: Info keys the runner records every step (see
            :class:`~envsuite.env_attributes.EnvAttributes`, as for ``record_metrics``,
            ``dataset_files`` and ``item_labels``).
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
    @abc.abstractmethod
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Start an episode; return the first observation and info.

        Args:
            seed: The seed ``reset`` was given (``self.np_random`` is already seeded from
                it), or None when the generator simply keeps running. Most envs draw
                everything from ``self.np_random`` and ignore it; an env whose seed names a
                dataset item reads it (see :mod:`envsuite.dataset_items`).
            options: The ``options`` ``reset`` was given.
        """
        raise NotImplementedError

    @abc.abstractmethod
    def parse_action(self, action: Any) -> ParsedT:
        """Convert the agent's action to the env's action type, or raise InvalidAction."""
        raise NotImplementedError

    @abc.abstractmethod
    def apply_action(self, parsed: ParsedT) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Advance the env with a well-formed action."""
        raise NotImplementedError

    @abc.abstractmethod
    def apply_invalid_action(
        self, message: str
    ) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        """Advance the env after a malformed action, applying the env's documented penalty."""
        raise NotImplementedError

    # -- the loop ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Seed ``self.np_random`` (when ``seed`` is given) and start a new episode."""
        super().reset(seed=seed)
        observation, info = self.new_episode(seed, options)
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
            # plain_action's first test, inlined (a call saved on the usual path): an exact
            # numpy array of any dtype but object is plain data as it is.
            if type(action) is not _NDARRAY or action.dtype.kind == "O":
                action = plain_action(action)
            parsed = self.parse_action(action)
        except BaseException as exc:  # any failure to understand the action is the agent's
            if is_interrupt(exc):
                raise
            message = describe_parse_failure(exc, self)
            observation, reward, terminated, truncated, info = self.apply_invalid_action(message)
            info["parse_error"] = message
        else:
            observation, reward, terminated, truncated, info = self.apply_action(parsed)
            if "parse_error" not in info:  # info.setdefault, without the method call
                info["parse_error"] = None
        self._last_observation = observation
        # Converted only when not already exact (a type test costs less than the call).
        if type(terminated) is not bool:
            terminated = bool(terminated)
        if type(truncated) is not bool:
            truncated = bool(truncated)
        self._episode_over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        if type(reward) is not float:
            reward = float(reward)
        return observation, reward, terminated, truncated, info

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
