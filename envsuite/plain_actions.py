"""Copying whatever an agent sent into plain data before an env parses it.

An action is untrusted: it may be a ``str`` subclass whose ``lower`` raises, a ``dict``
subclass whose ``__contains__`` raises, an object whose ``__class__`` claims to be ``str``,
a list that contains itself. The env bases pass every action through :func:`plain_action`
before ``parse_action`` sees it, so that

- a subclass of a builtin (``str``, ``int``, ``float``, ``bytes``, ``list``, ``tuple``,
  ``dict``) and of a numpy array or scalar becomes the exact builtin or numpy type, copied
  with the base type's own methods (no override of the subclass runs). What the env parses
  and what it later applies then behave like the builtin they claim to be;
- containers are copied item by item down to :data:`MAX_ACTION_DEPTH` levels and
  :data:`MAX_ACTION_ITEMS` items in all; deeper or bigger actions are malformed;
- any other object is passed on as it is (the env's ``parse_action`` decides), unless its
  ``__class__`` is not its type (it would pass ``isinstance`` checks it has no right to).

Anything that fails on the way raises :class:`~envsuite.env_base.InvalidAction`, which the
bases turn into ``parse_error`` and the env's documented penalty. Exact builtins of the
common kinds (a ``str``, an ``int``, a non-object numpy array) are returned as they are,
so the copy costs a type check on the usual path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from envsuite.action_errors import (
    MAX_PARSE_ERROR_CHARS,
    InvalidAction,
    exception_text,
    is_interrupt,
    parse_failure_text,
)

#: Deepest nesting of lists, tuples and dicts an action may have.
MAX_ACTION_DEPTH = 64
#: Most list, tuple and dict items (and object-array elements) an action may hold in all.
MAX_ACTION_ITEMS = 100_000

#: ``parse_error`` of an agent whose action could not be read from the actions mapping.
UNREADABLE_ACTION = "could not read this agent's action from the actions mapping ({why})"

_AS_IS = frozenset({str, int, float, bool, complex, bytes, type(None), type(Ellipsis)})
_NUMPY_SCALARS = frozenset(np.sctypeDict.values())
# Base-type copies of builtin subclasses; each runs the base type's C method, never an
# override: str.__str__ of a subclass returns an exact str, and so on.
_BUILTIN_COPIES: tuple[tuple[type, Callable[[Any], Any]], ...] = (
    (str, str.__str__),
    (int, int.__index__),
    (float, float.__float__),
    (bytes, lambda value: bytes.__getitem__(value, slice(None))),
)


def plain_action(action: Any) -> Any:
    """Return ``action`` as plain data (see the module docstring).

    Raises:
        InvalidAction: the action is nested too deeply, holds too many items, lies about
            its class, or raised while being copied.
    """
    kind = type(action)
    if kind in _AS_IS:
        return action
    if kind is np.ndarray and action.dtype.kind != "O":  # "O": only the object dtype
        return action
    try:
        return _Copier().copy(action, 0)
    except InvalidAction:
        raise
    except BaseException as exc:  # a hostile override raised while the action was read
        if is_interrupt(exc):
            raise
        raise InvalidAction(parse_failure_text(exc)) from exc


class _Copier:
    """One copy of one action, counting the items it visits."""

    def __init__(self) -> None:
        self.items = 0

    def count(self, more: int) -> None:
        self.items += more
        if self.items > MAX_ACTION_ITEMS:
            raise InvalidAction(f"the action holds more than {MAX_ACTION_ITEMS:,} items")

    def copy(self, value: Any, depth: int) -> Any:
        kind = type(value)
        if kind in _AS_IS or kind in _NUMPY_SCALARS:
            return value
        if depth > MAX_ACTION_DEPTH:
            raise InvalidAction(f"the action is nested more than {MAX_ACTION_DEPTH} levels deep")
        if issubclass(kind, np.ndarray):
            return self.array(np.asarray(value), depth)
        if issubclass(kind, np.generic):
            return np.asarray(value)[()]
        for base, convert in _BUILTIN_COPIES:
            if issubclass(kind, base):
                return convert(value)
        if issubclass(kind, dict):
            pairs = list(dict.items(value))
            self.count(len(pairs))
            return {self.copy(k, depth + 1): self.copy(v, depth + 1) for k, v in pairs}
        if issubclass(kind, list | tuple):
            items = list.copy(value) if issubclass(kind, list) else tuple.__iter__(value)
            copied = [self.copy(item, depth + 1) for item in self.counted(items)]
            return copied if issubclass(kind, list) else tuple(copied)
        claimed = value.__class__
        if claimed is not kind:
            raise InvalidAction(
                f"the action is a {kind.__name__} whose __class__ claims to be "
                f"{getattr(claimed, '__name__', 'something else')}"
            )
        return value

    def counted(self, items: Any) -> Any:
        for item in items:
            self.count(1)
            yield item

    def array(self, array: np.ndarray, depth: int) -> np.ndarray:
        if array.dtype != object:
            return array
        self.count(array.size)
        copied = np.empty(array.size, dtype=object)
        for index, item in enumerate(array.reshape(-1)):
            copied[index] = self.copy(item, depth + 1)
        return copied.reshape(array.shape)


def _is_mapping(actions: Any) -> bool:
    if type(actions) is dict:  # the usual case, without the ABC check
        return True
    try:
        return isinstance(actions, Mapping)
    except BaseException as exc:  # an object whose __class__ raises is no mapping
        if is_interrupt(exc):
            raise
        return False


def _has(actions: Any, name: str) -> bool:
    """``name in actions``; an exception (a hostile mapping) propagates."""
    return bool(name in actions)


def read_joint_action(
    actions: Any, names: Sequence[str], missing: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """Read each named agent's action from a joint ``actions`` mapping, never raising.

    Args:
        actions: What was passed to a Parallel env's ``step`` (normally name -> action).
        names: The agents whose actions are wanted.
        missing: ``parse_error`` of an agent the mapping has no action for.

    Returns:
        ``(actions, errors)``: the plain action of each agent that has a readable one, and
        the reason for each agent that has none (missing, unreadable or malformed). When
        ``actions`` is not a mapping, every agent is missing.
    """
    found: dict[str, Any] = {}
    errors: dict[str, str] = {}
    is_mapping = _is_mapping(actions)
    for name in names:
        if not is_mapping:
            errors[name] = missing
            continue
        try:
            present = _has(actions, name)
            action = actions[name] if present else None
        except BaseException as exc:  # a hostile mapping: this agent sent nothing readable
            if is_interrupt(exc):
                raise
            errors[name] = UNREADABLE_ACTION.format(why=exception_text(exc))[:MAX_PARSE_ERROR_CHARS]
            continue
        if not present:
            errors[name] = missing
            continue
        try:
            found[name] = plain_action(action)
        except InvalidAction as exc:
            errors[name] = parse_failure_text(exc)
    return found, errors


def named_in(actions: Any, names: Sequence[str]) -> list[str]:
    """The ``names`` that ``actions`` (a mapping, or anything) has a key for, never raising."""
    if not _is_mapping(actions):
        return []
    named = []
    for name in names:
        try:
            if _has(actions, name):
                named.append(name)
        except BaseException as exc:  # a hostile mapping names nobody it cannot answer for
            if is_interrupt(exc):
                raise
    return named
