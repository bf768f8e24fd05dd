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

from collections.abc import Mapping, Sequence
from typing import Any

from envsuite.action_errors import is_interrupt
from envsuite.plain_actions import plain_action, read_joint_action
from envsuite.remote import wire

#: Tag of an action the client had no wire form for.
UNENCODABLE = "$unencodable"
#: Bytes kept free for the message around an action.
ENVELOPE_BYTES = 4096


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


def within_limit(encoded: Any, limit: int | None) -> Any:
    """``encoded`` if its JSON fits ``limit`` bytes (with room for the envelope), else unencodable.

    A server refuses a message over its limit by closing the connection; an action that
    big is the agent's malformed action, which the env answers with its penalty.
    """
    if limit is None:
        return encoded
    size = len(wire.dumps(encoded))
    if size <= limit - ENVELOPE_BYTES:
        return encoded
    return {UNENCODABLE: f"an action of {size} bytes, over the server's limit of {limit}"}


def encode_joint_action(actions: Any, names: Sequence[str]) -> Any:
    """A Parallel env's joint action, read as the Parallel base reads it, agent by agent.

    Each of ``names`` (the live agents) whose action can be read from ``actions`` is sent
    encoded; one whose action cannot be read (a hostile mapping) is sent as unencodable,
    so the env refuses it as in-process; agents without an action are left out (the env
    calls them missing). Something that is not a mapping is sent as it is.
    """
    if not _is_mapping(actions):
        return encode_action(actions)
    found, errors = read_joint_action(actions, names, missing="")
    joint = {name: encode_action(action) for name, action in found.items()}
    joint.update({name: {UNENCODABLE: why} for name, why in errors.items() if why})
    return joint


def _is_mapping(actions: Any) -> bool:
    """Whether ``actions`` is a mapping (never raising: a hostile ``__class__`` is not)."""
    if type(actions) is dict:
        return True
    try:
        return isinstance(actions, Mapping)
    except BaseException as exc:
        if is_interrupt(exc):
            raise
        return False
