"""The ASGI app: OpenEnv's routes for every served env, health, metrics and env listing.

Routes (``<env>`` is ``<Name>-v<N>``, e.g. ``Wordle-v0``; the first served env is also at
the root, so a single-env server answers exactly where an OpenEnv server does):

- ``WS /ws``, ``WS /envs/<env>/ws``: one session per connection (see
  :mod:`envsuite.remote.protocol`); the session and its env close with the connection.
- ``POST /reset``, ``POST /step``, ``GET /state``, ``POST /close`` (and under
  ``/envs/<env>/``): HTTP sessions. A reset without ``session_id`` opens a session and
  returns its ``session_id`` next to OpenEnv's ``observation``/``reward``/``done``; steps
  and state name it (``{"session_id": ..., "action": {...}}``, ``GET
  /state?session_id=...``). Idle HTTP sessions are reaped like WebSocket ones.
- ``GET /schema`` (OpenEnv's ``action``/``observation``/``state`` JSON schemas),
  ``GET /metadata``, ``GET /health``, ``GET /metrics`` (sessions, live envs, steps,
  errors, step latency percentiles), ``GET /envs`` (served envs and what clients may set).

Every refusal is a 4xx with ``{"message", "code"}`` (on a WebSocket: an OpenEnv error
message, and the connection stays open); a request the server cannot read never reaches
an env. With a token, every route but ``/health`` needs ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from envsuite.registry import registry
from envsuite.remote import protocol, wire
from envsuite.serve.config import ServeConfig
from envsuite.serve.dispatch import handle
from envsuite.serve.errors import RequestError
from envsuite.serve.schemas import openenv_schemas
from envsuite.serve.session_table import SessionTable
from envsuite.serve.websocket_session import websocket_session

logger = logging.getLogger("envsuite.serve")


def env_path_name(env_id: str) -> str:
    """The path segment of an env id: ``envsuite/Wordle-v0`` -> ``Wordle-v0``."""
    return env_id.split("/", 1)[1]


def create_app(config: ServeConfig) -> Any:
    """The Starlette app serving ``config``'s envs (needs the ``serve`` extra)."""
    from envsuite.registry import import_optional

    import_optional("starlette", extra="serve")
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    table = SessionTable(config)
    by_path = {env_path_name(env_id): env_id for env_id in config.env_ids}
    default_env = config.env_ids[0]

    def answer(body: Any, status: int = 200) -> Response:
        return Response(wire.dumps(body), status, media_type="application/json")

    def refuse(error: RequestError) -> Response:
        table.metrics.error(error.code)
        return JSONResponse(error.payload(), error.status)

    def authorised(headers: Any) -> bool:
        if config.token is None:
            return True
        given = headers.get(protocol.AUTHORIZATION, "")
        expected = f"Bearer {config.token}"
        return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))

    def env_of(request: Any) -> str:
        name = request.path_params.get("env")
        if name is None:
            return default_env
        if name not in by_path:
            served = ", ".join(by_path)
            raise RequestError("UNKNOWN_ENV", f"{name!r} is not served here (served: {served})")
        return by_path[name]

    async def body_of(request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > config.max_message_bytes:
            raise RequestError("TOO_LARGE", f"body over {config.max_message_bytes} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > config.max_message_bytes:
                raise RequestError("TOO_LARGE", f"body over {config.max_message_bytes} bytes")
            chunks.append(chunk)
        raw = b"".join(chunks)
        if not raw.strip():
            return {}
        try:
            body = wire.loads(raw)
        except wire.WireError as exc:
            raise RequestError("INVALID_JSON", str(exc)) from exc
        if not isinstance(body, dict):
            raise RequestError("VALIDATION_ERROR", "the body must be a JSON object")
        return body

    def guarded(route: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            if not authorised(request.headers):
                return refuse(RequestError("UNAUTHORIZED", "missing or wrong bearer token"))
            try:
                return await route(request)
            except RequestError as error:
                return refuse(error)
            except Exception:
                logger.exception("request failed")
                table.metrics.error("EXECUTION_ERROR")
                return JSONResponse(
                    {"message": "the env failed on this request", "code": "EXECUTION_ERROR"},
                    500,
                )

        return run

    async def http_reset(request: Request) -> Response:
        env_id = env_of(request)
        body = await body_of(request)
        session_id = body.pop("session_id", None)
        session = table.get(session_id) if session_id is not None else table.open(env_id)
        try:
            _, result = await handle(table, session, protocol.RESET, body)
        except BaseException:
            if session_id is None:
                await table.close(session.id, "failed")
            raise
        return answer({**result, "session_id": session.id})

    async def http_step(request: Request) -> Response:
        env_of(request)
        body = await body_of(request)
        if "session_id" not in body:
            raise RequestError(
                "VALIDATION_ERROR",
                "an HTTP step names the session_id its /reset returned "
                "(or use the WebSocket /ws, one session per connection)",
            )
        session = table.get(body["session_id"])
        action = body.get("action")
        if not isinstance(action, dict):
            raise RequestError("VALIDATION_ERROR", 'the body\'s "action" must be an object')
        _, result = await handle(table, session, protocol.STEP, action)
        return answer(result)

    async def http_state(request: Request) -> Response:
        env_of(request)
        session = table.get(request.query_params.get("session_id"))
        return answer(session.state())

    async def http_close(request: Request) -> Response:
        env_of(request)
        body = await body_of(request)
        session = table.get(body.get("session_id"))
        await table.close(session.id)
        return answer({"session_id": session.id, "closed": True})

    async def schema(request: Request) -> Response:
        return answer(openenv_schemas(registry[env_of(request)]))

    async def metadata(request: Request) -> Response:
        spec = registry[env_of(request)]
        return answer(
            {"name": spec.id, "description": spec.description, "version": str(spec.version)}
        )

    async def health(request: Request) -> Response:
        return answer({"status": "healthy"})

    async def metrics(request: Request) -> Response:
        return answer(table.snapshot())

    async def envs(request: Request) -> Response:
        return answer(
            {
                env_id: {"path": f"/envs/{env_path_name(env_id)}", **policy.describe()}
                for env_id, policy in table.policies.items()
            }
        )

    async def ws(websocket: WebSocket) -> None:
        await websocket_session(websocket, table, env_of, authorised)

    def env_routes(prefix: str) -> list[Any]:
        return [
            Route(f"{prefix}/reset", guarded(http_reset), methods=["POST"]),
            Route(f"{prefix}/step", guarded(http_step), methods=["POST"]),
            Route(f"{prefix}/state", guarded(http_state), methods=["GET"]),
            Route(f"{prefix}/close", guarded(http_close), methods=["POST"]),
            Route(f"{prefix}/schema", guarded(schema), methods=["GET"]),
            Route(f"{prefix}/metadata", guarded(metadata), methods=["GET"]),
            WebSocketRoute(f"{prefix}/ws", ws),
        ]

    routes = [
        *env_routes(""),
        *env_routes("/envs/{env}"),
        Route("/health", health, methods=["GET"]),
        Route("/metrics", guarded(metrics), methods=["GET"]),
        Route("/envs", guarded(envs), methods=["GET"]),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        code = "UNKNOWN_TYPE" if status == 405 else "UNKNOWN_ENV"
        return JSONResponse({"message": f"no route {request.url.path}", "code": code}, status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        table.start_reaper()
        try:
            yield
        finally:
            await table.shutdown()

    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_found}
    )
    app.state.sessions = table
    return app


__all__ = ["create_app", "env_path_name"]
