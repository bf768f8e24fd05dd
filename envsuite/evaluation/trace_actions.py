"""The action trace of a single-agent episode: actions as records store them, and steps.

A trace step stores an action of at most :data:`MAX_TRACE_ACTION_BYTES` of JSON; a bigger
one is stored as a ``{"trace_cut": ...}`` stand-in with its size, sha256 and first
characters, so one huge reply cannot blow up a records file. An action with no faithful
JSON form is stored as an ``{"unserialisable": ...}`` description.

:class:`TraceCollector` keeps an episode's actions and rewards as they come and builds the
trace's steps when the episode ends, so a step of a fast env costs two list appends: an
action of an immutable builtin type (``str``, ``int``, ``float``, ``bool``, None) can wait,
since nothing can change it meanwhile; any other action is turned into its stored form at
once (an agent may change a list or array it sent). Equal steps are one shared object
(:func:`~envsuite.records.shared_steps`).
"""

from __future__ import annotations

import hashlib
import json
import reprlib
from collections.abc import Callable
from typing import Any

import numpy as np

from envsuite.action_errors import is_interrupt
from envsuite.episodes import StepObserver
from envsuite.jsonable import to_jsonable
from envsuite.plain_actions import plain_action
from envsuite.records import Step, shared_steps, trusted_step

#: Largest action (its JSON, in UTF-8 bytes) a trace step stores; see the module docstring.
MAX_TRACE_ACTION_BYTES = 64 << 10
#: Characters of a cut action kept in its ``trace_cut`` stand-in.
TRACE_CUT_HEAD_CHARS = 1000


#: Exact numpy number types, stored as the Python number ``item()`` gives (as
#: :func:`~envsuite.jsonable.to_jsonable` does).
_NUMPY_NUMBERS = frozenset(
    kind for kind in np.sctypeDict.values() if issubclass(kind, np.integer | np.floating | np.bool_)
)


def stored_action(action: Any) -> Any:
    """The action as a trace step stores it: JSON, cut to :data:`MAX_TRACE_ACTION_BYTES`.

    An action with no faithful JSON form (or a hostile object) is stored as an
    ``{"unserialisable": <short repr>}`` description.
    """
    kind = type(action)
    # Exact builtins (never a subclass, whose methods could be hostile) are their own JSON.
    if kind is str:
        if len(action) * 4 <= MAX_TRACE_ACTION_BYTES:
            return action  # within the cap whatever its characters' UTF-8 lengths
    elif action is None or kind is int or kind is float or kind is bool:
        return action
    elif kind in _NUMPY_NUMBERS:
        return action.item()
    try:
        # The plain copy first: a str subclass with hostile methods would survive
        # to_jsonable as it is and raise later, while the trace is written.
        value = to_jsonable(plain_action(action))
        kind = type(value)
        if value is None or kind in (bool, int, float):
            return value
        if kind is str and len(value) * 4 <= MAX_TRACE_ACTION_BYTES:
            return value  # within the cap whatever its characters' UTF-8 lengths
        text = value if kind is str else json.dumps(value, ensure_ascii=False)
    except BaseException as exc:  # no faithful JSON form (or a hostile object): describe it
        if is_interrupt(exc):
            raise
        return {"unserialisable": _short_repr(action)}
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) <= MAX_TRACE_ACTION_BYTES:
        return value
    return {
        "trace_cut": {
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "head": text[:TRACE_CUT_HEAD_CHARS],
        }
    }


def _short_repr(action: Any) -> str:
    try:
        return reprlib.repr(action)[:200]
    except BaseException as exc:  # a hostile __repr__
        if is_interrupt(exc):
            raise
        return f"<{type(action).__name__} whose repr raised>"


#: Exact types whose stored form follows from their value alone (see the module docstring).
_IMMUTABLE_ACTIONS = frozenset({str, int, float, bool, type(None)})


class TraceCollector:
    """An episode's action trace and curves, kept step by step by :meth:`observer`.

    Args:
        record_trace: Whether to keep the trace (else :meth:`steps` is empty).
        probability: Reads the probability the agent gave its last action, or None when
            the agent reports none (then every step's probability is None, unread).
        curve_keys: ``info`` keys whose values (when not None) make :attr:`curves`.

    Attributes:
        curves: Key -> the float of each step's value, a key entered at its first value.
    """

    def __init__(
        self,
        record_trace: bool,
        probability: Callable[[], float | None] | None,
        curve_keys: tuple[str, ...],
    ) -> None:
        self._record_trace = record_trace
        self._actions: list[Any] = []
        self._rewards: list[float] = []
        self._probability = probability
        self._probabilities: list[float | None] = []
        self._curve_keys = curve_keys
        self.curves: dict[str, list[float]] = {}

    def observer(self) -> StepObserver:
        """The loop's observer: keeps each step's action, reward and curve values.

        One closure for the case at hand, so a step costs a few list appends.
        """
        actions = self._actions.append
        rewards = self._rewards.append
        series_of: tuple[tuple[str, list[Any]], ...] = tuple((key, []) for key in self._curve_keys)
        curves = self.curves
        immutable = _IMMUTABLE_ACTIONS

        def trace_only(
            nobody: None,
            action: Any,
            observation: Any,
            reward: float,
            terminated: bool,
            truncated: bool,
            info: Any,
        ) -> None:
            actions(action if type(action) in immutable else stored_action(action))
            rewards(reward)

        if not (self._record_trace and self._probability is None):
            return self._observe_each(series_of)
        if not series_of:
            return trace_only
        if len(series_of) == 2:
            return self._trace_and_two_curves(series_of)
        if len(series_of) > 2:
            return self._observe_each(series_of)
        key, series = series_of[0]
        add = series.append

        def trace_and_curve(
            nobody: None,
            action: Any,
            observation: Any,
            reward: float,
            terminated: bool,
            truncated: bool,
            info: Any,
        ) -> None:
            actions(action if type(action) in immutable else stored_action(action))
            rewards(reward)
            value = info.get(key)
            if value is not None:
                if not series:
                    curves[key] = series
                add(float(value))

        return trace_and_curve

    def _observe_each(self, series_of: tuple[tuple[str, list[Any]], ...]) -> StepObserver:
        """The general observer: any trace setting, any number of curves (``series_of``)."""
        actions, rewards = self._actions.append, self._rewards.append
        probability, probabilities = self._probability, self._probabilities.append
        curves = self.curves
        record_trace = self._record_trace
        immutable = _IMMUTABLE_ACTIONS

        def observe(
            nobody: None,
            action: Any,
            observation: Any,
            reward: float,
            terminated: bool,
            truncated: bool,
            info: Any,
        ) -> None:
            if record_trace:
                actions(action if type(action) in immutable else stored_action(action))
                rewards(reward)
                if probability is not None:
                    probabilities(probability())
            for key, series in series_of:
                value = info.get(key)
                if value is not None:
                    if not series:
                        curves[key] = series
                    series.append(float(value))

        return observe

    def _trace_and_two_curves(self, series_of: tuple[tuple[str, list[Any]], ...]) -> StepObserver:
        """The observer of a kept trace (no probabilities) and two curves, written out.

        What the general observer does, without its loop over the curves: a bandit records
        two (``regret``, ``arm``), and the loop cost as much as the rest of the step. The
        curves are entered in :attr:`curves` in the same order (at its first value, the
        first key before the second).
        """
        actions, rewards = self._actions.append, self._rewards.append
        curves = self.curves
        (first, first_series), (second, second_series) = series_of
        add_first, add_second = first_series.append, second_series.append
        immutable = _IMMUTABLE_ACTIONS

        def trace_and_two_curves(
            nobody: None,
            action: Any,
            observation: Any,
            reward: float,
            terminated: bool,
            truncated: bool,
            info: Any,
        ) -> None:
            actions(action if type(action) in immutable else stored_action(action))
            rewards(reward)
            value = info.get(first)
            if value is not None:
                if not first_series:
                    curves[first] = first_series
                add_first(float(value))
            value = info.get(second)
            if value is not None:
                if not second_series:
                    curves[second] = second_series
                add_second(float(value))

        return trace_and_two_curves

    def steps(self) -> list[Step]:
        """The trace: one :class:`~envsuite.records.Step` per step kept, in order."""
        actions = self._actions
        kinds = set(map(type, actions))
        action_types: set[type] | None = kinds
        # The stored form of the waiting actions: only a long str can differ from itself.
        if _has_long_str(actions, kinds):
            actions = [
                stored_action(action)
                if type(action) is str and len(action) * 4 > MAX_TRACE_ACTION_BYTES
                else action
                for action in actions
            ]
            action_types = None  # a stored form may be of another type
        if self._probability is None:
            return shared_steps(actions, self._rewards, action_types=action_types)
        triples = zip(actions, self._rewards, self._probabilities, strict=True)
        return [trusted_step(action, reward, chance) for action, reward, chance in triples]


def _has_long_str(actions: list[Any], kinds: set[type]) -> bool:
    """Whether an action is a ``str`` that a step may not store as it is.

    When every action is of an exact immutable builtin type, whose values hash and compare
    without running any code of the agent's, the distinct actions stand for the rest (equal
    strs have the same length; a trace repeats a few actions); otherwise (a stored list or
    dict, or a subclass of str an agent slipped in through an enum's value) each action is
    asked. ``kinds`` is the set of the actions' exact types.
    """
    if str not in kinds:
        return False
    candidates = set(actions) if kinds <= _IMMUTABLE_ACTIONS else actions
    return any(
        type(action) is str and len(action) * 4 > MAX_TRACE_ACTION_BYTES for action in candidates
    )
