"""What each message type does to a session, for the WebSocket and the HTTP routes alike.

:func:`handle` takes a message type and its ``data`` and returns the answer's type and
data; every refusal is a :class:`~envsuite.serve.errors.RequestError` with a code the
client sees. Reset data (OpenEnv's ``ResetRequest``): ``seed`` (a non-negative int or
null), ``episode_id`` (a string), ``options`` (an object, encoded by
:mod:`envsuite.remote.wire`), ``render_mode`` and ``max_episode_steps``; any other key is
a keyword argument of the env, within the server's allow-list (a changed argument makes
the session's env again).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from envsuite.remote import protocol, wire
from envsuite.serve.env_session import EnvSession
from envsuite.serve.errors import RequestError
from envsuite.serve.kwargs_policy import MAKE_OPTIONS
from envsuite.serve.session_table import SessionTable

#: Largest seed accepted (numpy seeds any non-negative int; this bounds the work).
MAX_SEED = 2**128 - 1
#: Longest ``episode_id`` (as OpenEnv's ``ResetRequest``).
MAX_EPISODE_ID = 255

_RESET_FIELDS = frozenset({"seed", "episode_id", "options", *MAKE_OPTIONS})


def check_seed(seed: Any) -> int | None:
    """``seed`` if it is None or an int in [0, :data:`MAX_SEED`].

    Raises:
        RequestError: ``VALIDATION_ERROR`` naming the type or range.
    """
    if seed is None:
        return None
    if type(seed) is not int:
        raise RequestError(
            "VALIDATION_ERROR",
            f"seed must be a non-negative int or null, got {type(seed).__name__} {seed!r:.40}",
        )
    if not 0 <= seed <= MAX_SEED:
        raise RequestError("VALIDATION_ERROR", f"seed must lie in [0, 2**128), got {seed}")
    return seed


def _object(data: Any, what: str) -> dict[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RequestError("VALIDATION_ERROR", f"{what} must be a JSON object")
    return data


def _decoded(value: Any, what: str) -> Any:
    try:
        return wire.decode(value)
    except wire.WireError as exc:
        raise RequestError("VALIDATION_ERROR", f"{what}: {exc}") from exc


async def handle(
    table: SessionTable, session: EnvSession, kind: str, data: Any
) -> tuple[str, dict[str, Any]]:
    """Carry out one message on ``session``; the answer's type and data.

    Raises:
        RequestError: the message is refused (its code says why).
    """
    data = _object(data, "data")
    if kind == protocol.RESET:
        return protocol.OBSERVATION, await _reset(table, session, data)
    if kind == protocol.STEP:
        call = functools.partial(session.step, data)
        return protocol.OBSERVATION, await table.run(session, call, "step")
    if kind == protocol.STATE:
        return protocol.STATE, session.state()
    if kind == protocol.MAKE:
        return protocol.SPACES, await _make(table, session, data)
    if kind == protocol.RENDER:
        return protocol.FRAME, await table.run(session, session.render)
    if kind == protocol.ORACLE_RESET:
        seed = check_seed(data.get("seed"))
        call = functools.partial(session.oracle_reset, data.get("agent"), seed)
        return protocol.ACTION, await table.run(session, call)
    if kind == protocol.ORACLE_ACT:
        call = functools.partial(
            session.oracle_act, data.get("agent"), data.get("observation"), data.get("info")
        )
        return protocol.ACTION, await table.run(session, call)
    if kind == protocol.EPISODE_SUCCESS:
        call = functools.partial(session.episode_success, data.get("infos"))
        return protocol.OUTCOME, await table.run(session, call)
    if kind == protocol.FORK:
        return protocol.FORKED, await _fork(table, session)
    raise RequestError("UNKNOWN_TYPE", f"unknown message type: {str(kind)[:40]!r}")


async def _reset(table: SessionTable, session: EnvSession, data: dict[str, Any]) -> Any:
    seed = check_seed(data.get("seed"))
    episode_id = data.get("episode_id")
    if episode_id is not None and (
        not isinstance(episode_id, str) or len(episode_id) > MAX_EPISODE_ID
    ):
        raise RequestError("VALIDATION_ERROR", "episode_id must be a string of <= 255 chars")
    options = _decoded(data.get("options"), "options")
    if options is not None and not isinstance(options, dict):
        raise RequestError("VALIDATION_ERROR", "options must be an object or null")
    kwargs = {k: v for k, v in data.items() if k not in _RESET_FIELDS}
    make_options = {k: data[k] for k in MAKE_OPTIONS if k in data}
    call = functools.partial(session.reset, seed, options, kwargs, make_options, episode_id)
    return await table.run(session, call, "reset")


async def _make(table: SessionTable, session: EnvSession, data: dict[str, Any]) -> Any:
    unknown = sorted(set(data) - {"kwargs", "form", *MAKE_OPTIONS})
    if unknown:
        raise RequestError("VALIDATION_ERROR", f"unknown make fields: {', '.join(unknown)}")
    kwargs = _object(_decoded(data.get("kwargs"), "kwargs"), "kwargs")
    options = {k: data[k] for k in MAKE_OPTIONS if k in data}
    form = data.get("form")
    if form is not None and not isinstance(form, str):
        raise RequestError("VALIDATION_ERROR", "form must be a string")

    def make() -> dict[str, Any]:
        session.configure(kwargs, options, form)
        return {**session.describe(), "max_message_bytes": table.config.max_message_bytes}

    return await table.run(session, make)


async def _fork(table: SessionTable, session: EnvSession) -> dict[str, Any]:
    """A copy of ``session`` (env state included) as a new session no connection owns yet."""
    twin = table.open(session.spec.id)

    def copy_env() -> None:
        twin.env = copy.deepcopy(session.env)
        twin.kwargs, twin.options, twin.form = dict(session.kwargs), session.options, session.form
        twin.episode_id, twin.step_count = session.episode_id, session.step_count
        twin.episode_over = session.episode_over

    try:
        await table.run(session, copy_env)
    except BaseException:
        await table.close(twin.id, "failed")
        raise
    return {"session_id": twin.id}


def split_message(message: Any) -> tuple[str, Any]:
    """The ``type`` and ``data`` of a client message.

    Raises:
        RequestError: not an object with a string ``type``.
    """
    if not isinstance(message, Mapping) or not isinstance(message.get("type"), str):
        raise RequestError("VALIDATION_ERROR", 'a message is an object with a string "type"')
    return message["type"], message.get("data")
