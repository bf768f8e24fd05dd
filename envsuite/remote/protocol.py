"""The messages the envsuite server and its clients exchange (OpenEnv's, plus a few).

OpenEnv's WebSocket protocol (``openenv-core``'s ``EnvClient``): the client sends JSON
text messages ``{"type": "reset", "data": {...}}``, ``{"type": "step", "data": {action
fields}}``, ``{"type": "state"}`` and ``{"type": "close"}``; the server answers
``{"type": "observation", "data": {"observation": {...}, "reward": float | None, "done":
bool}}``, ``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message":
str, "code": str}}``. One WebSocket connection is one session with its own env.

envsuite's observation object (``data["observation"]``), values encoded by
:mod:`envsuite.remote.wire`:

- single-agent: ``observation``, ``info``, ``terminated``, ``truncated``;
- AEC (turn-based): ``agent_selection``, ``agents``, ``observations`` (every live agent's
  ``observe``), ``rewards``, ``cumulative_rewards``, ``terminations``, ``truncations``,
  ``infos``; ``reward`` is the reward of the agent that just acted;
- Parallel: ``agents``, ``observations``, ``rewards``, ``terminations``, ``truncations``,
  ``infos``; ``reward`` is the sum of the rewards.

``done`` is true when the episode is over (single-agent: terminated or truncated;
multi-agent: no live agent left). A step's ``data`` is the action object: ``{"action":
value}`` (single-agent; AEC: the agent to move's, with an optional ``"agent"`` naming who
acts) or ``{"actions": {agent: value}}`` (Parallel).

HTTP (``POST /reset``, ``POST /step``, ``GET /state``, ``POST /close``) carries the same
objects: a reset without ``session_id`` opens a session and answers with its
``session_id``; a step's body is ``{"session_id": ..., "action": <the action object>}``
(OpenEnv's ``StepRequest`` with envsuite's session field); ``/state`` takes
``?session_id=``. Refusals are HTTP 4xx with ``{"message", "code"}`` (:data:`ERROR_STATUS`).

envsuite's own message types (an OpenEnv client never sends them): :data:`MAKE` (choose
kwargs and form; answered with :data:`SPACES`), :data:`RENDER`, :data:`ORACLE_RESET`,
:data:`ORACLE_ACT` (only on servers started with the oracle allowed), :data:`FORK` and
:data:`ATTACH` (a pickled remote env: a copy of the session the unpickled env takes over),
:data:`EPISODE_SUCCESS` (a multi-agent env's ``episode_success`` hook). An error the
server closes the connection after (a wrong token, a full server, an idle session) has
``"closing": true`` in its data.
"""

from __future__ import annotations

# Client -> server message types.
RESET = "reset"
STEP = "step"
STATE = "state"
CLOSE = "close"
MAKE = "make"
RENDER = "render"
ORACLE_RESET = "oracle_reset"
ORACLE_ACT = "oracle_act"
FORK = "fork"
ATTACH = "attach"
EPISODE_SUCCESS = "episode_success"

# Server -> client message types.
OBSERVATION = "observation"
SPACES = "spaces"
FRAME = "frame"
ACTION = "action"
FORKED = "forked"
OUTCOME = "outcome"
ERROR = "error"

#: Error codes: OpenEnv's, then envsuite's. Each has the HTTP status an HTTP request gets.
ERROR_STATUS = {
    "INVALID_JSON": 400,
    "UNKNOWN_TYPE": 400,
    "VALIDATION_ERROR": 422,
    "EXECUTION_ERROR": 500,
    "CAPACITY_REACHED": 429,
    "FACTORY_ERROR": 400,
    "SESSION_ERROR": 409,
    "UNKNOWN_ENV": 404,
    "KWARG_NOT_ALLOWED": 403,
    "UNAUTHORIZED": 401,
    "TOO_LARGE": 413,
    "UNKNOWN_SESSION": 404,
    "NOT_ALLOWED": 403,
}

#: WebSocket close codes the server uses (4000-4999 are the application's).
CLOSE_IDLE = 4408
CLOSE_UNAUTHORIZED = 4401
CLOSE_CAPACITY = 4429
CLOSE_SHUTDOWN = 1001

#: Header carrying the bearer token (``Authorization: Bearer <token>``).
AUTHORIZATION = "authorization"
