"""Actions on their way to the server: whatever an agent passes is sent, never raised on.

An in-process env takes any object as an action and answers a malformed one with
``parse_error`` and its penalty. A remote env keeps that promise: an action is first
copied to plain data (:func:`envsuite.plain_actions.plain_action`, which bounds depth and
size and defuses hostile subclasses) and encoded (:mod:`envsuite.remote.wire`); one that
has no wire form (an arbitrary object, a too-big list) is sent as ``{"$unencodable":
reason}``, which the server hands to the env as an object it cannot read, so the env
applies its own penalty.
"""

from __future__ import annotations

from typing import Any

from envsuite.action_errors import is_interrupt
from envsuite.plain_actions import plain_action
from envsuite.remote import wire

#: Tag of an action the client had no wire form for.
UNENCODABLE = "$unencodable"


def encode_action(action: Any) -> Any:
    """``action`` as wire data, or ``{"$unencodable": reason}``; never raises."""
    try:
        return wire.encode(plain_action(action))
    except BaseException as exc:
        if is_interrupt(exc):
            raise
        try:
            reason = f"{type(exc).__name__}: {exc}"[:300]
        except BaseException:
            reason = "an action with no wire form"
        return {UNENCODABLE: reason}


def encode_joint_action(actions: Any) -> Any:
    """A Parallel env's actions: agent by agent when they come as a plain dict of names."""
    if type(actions) is dict and all(type(name) is str for name in actions):
        if not any(name.startswith("$") for name in actions):
            return {name: encode_action(action) for name, action in actions.items()}
    return encode_action(actions)
