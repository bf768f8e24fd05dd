"""One WebSocket connection: one session, its messages in order, its env closed at the end.

The connection is accepted first, so that every refusal reaches the client as an OpenEnv
error message it can read (a wrong token, an unknown env, a full server), followed by a
close code (:data:`~envsuite.remote.protocol.CLOSE_UNAUTHORIZED`, 1008,
:data:`~envsuite.remote.protocol.CLOSE_CAPACITY`). A message the server cannot read
(not JSON, not an object, too big, an unknown type, a refused argument) is answered with
an error and the session goes on. When the connection ends, however it ends (a close
message, the client vanishing, the idle reaper), the session's env is closed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from envsuite.remote import protocol, wire
from envsuite.serve.dispatch import handle, split_message
from envsuite.serve.errors import RequestError
from envsuite.serve.session_table import SessionTable

logger = logging.getLogger("envsuite.serve")


async def _send(websocket: Any, kind: str, data: Any) -> None:
    await websocket.send_text(wire.dumps({"type": kind, "data": data}))


async def _refuse(websocket: Any, error: RequestError, close_code: int) -> None:
    try:
        await _send(websocket, protocol.ERROR, {**error.payload(), "closing": True})
        await websocket.close(code=close_code, reason=error.message[:120])
    except Exception:  # the client left already
        pass


async def websocket_session(
    websocket: Any,
    table: SessionTable,
    env_of: Callable[[Any], str],
    authorised: Callable[[Any], bool],
) -> None:
    """Serve one connection until it closes (see the module docstring)."""
    await websocket.accept()
    if not authorised(websocket.headers):
        table.metrics.error("UNAUTHORIZED")
        error = RequestError("UNAUTHORIZED", "missing or wrong bearer token")
        await _refuse(websocket, error, protocol.CLOSE_UNAUTHORIZED)
        return
    try:
        session = table.open(env_of(websocket))
    except RequestError as error:
        table.metrics.error(error.code)
        code = protocol.CLOSE_CAPACITY if error.code == "CAPACITY_REACHED" else 1008
        await _refuse(websocket, error, code)
        return

    async def reaped(message: str) -> None:
        await _refuse(websocket, RequestError("SESSION_ERROR", message), protocol.CLOSE_IDLE)

    table.on_reap[session.id] = reaped
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            try:
                if len(text) > table.config.max_message_bytes:
                    raise RequestError(
                        "TOO_LARGE", f"message over {table.config.max_message_bytes} bytes"
                    )
                try:
                    parsed = wire.loads(text)
                except wire.WireError as exc:
                    raise RequestError("INVALID_JSON", str(exc)) from exc
                kind, data = split_message(parsed)
                if kind == protocol.CLOSE:
                    break
                if kind == protocol.ATTACH:
                    session = await _attach(table, session, data, reaped)
                    await _send(websocket, protocol.STATE, session.state())
                    continue
                answer_kind, answer = await handle(table, session, kind, data)
            except RequestError as error:
                table.metrics.error(error.code)
                await _send(websocket, protocol.ERROR, error.payload())
                continue
            except Exception as exc:
                logger.exception("message failed")
                table.metrics.error("EXECUTION_ERROR")
                failure = f"the env failed: {type(exc).__name__}: {exc}"[:500]
                await _send(
                    websocket, protocol.ERROR, {"message": failure, "code": "EXECUTION_ERROR"}
                )
                continue
            await _send(websocket, answer_kind, answer)
    except Exception:  # the connection broke (reset, half-closed, closed by the reaper)
        pass
    finally:
        await table.close(session.id, "disconnected")
    with contextlib.suppress(Exception):
        await websocket.close()


async def _attach(table: SessionTable, own: Any, data: Any, reaped: Any) -> Any:
    """Take over a forked session (a pickled remote env's copy); the own one is closed."""
    target_id = data.get("session_id") if isinstance(data, dict) else None
    target = table.get(target_id)
    if target_id in table.on_reap:
        raise RequestError("SESSION_ERROR", "that session belongs to another connection")
    if target.spec.id != own.spec.id:
        raise RequestError("SESSION_ERROR", f"that session serves {target.spec.id}")
    await table.close(own.id, "replaced")
    table.on_reap[target.id] = reaped
    return target
