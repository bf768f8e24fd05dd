"""What every remote env shares: its session, making it, rendering, closing and pickling.

A remote env is one WebSocket session on the server (:class:`Connection`). Making it sends
the kwargs (those that differ from the registered defaults, when the env can be loaded
here to know them) and the form, and adopts the spaces, agents, render modes and spec hash
the server answers with. When the connection is lost, the next ``reset`` opens a new
session and makes the env again (a step raises :class:`SessionLost` instead: that episode
is gone). Pickling asks the server for a copy of the session (``fork``); the unpickled env
takes the copy over (``attach``), so it continues exactly where the original was, as an
in-process env's pickled copy does. A copy that is never unpickled is closed by the
server's idle timeout.
"""

from __future__ import annotations

import contextlib
from typing import Any

from envsuite.registry import registry
from envsuite.remote import protocol, wire
from envsuite.remote.actions import within_limit
from envsuite.remote.connection import Connection, SessionLost


def _sent_kwargs(env_id: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` without those equal to the registered defaults (spelling out is a no-op)."""
    try:
        defaults = registry[env_id].canonical_kwargs({})
    except Exception:  # the env (or its extra) is not available here: send them all
        return dict(kwargs)
    return {
        key: value
        for key, value in kwargs.items()
        if not (key in defaults and type(defaults[key]) is type(value) and defaults[key] == value)
    }


class ServedEnv:
    """The session half of a remote env (mixed into the Gymnasium and PettingZoo classes)."""

    metadata: dict[str, Any] = {"render_modes": []}
    render_mode: str | None = None

    def _start(
        self,
        url: str,
        env_id: str,
        token: str | None,
        timeout: float,
        render_mode: str | None,
        kwargs: dict[str, Any],
        options: dict[str, Any],
        form: str,
    ) -> None:
        self.url, self.env_id, self.token, self.timeout = url, env_id, token, timeout
        self.render_mode = render_mode
        self._kwargs = _sent_kwargs(env_id, kwargs)
        self._options = dict(options)
        self._form = form
        self._connection = self._new_connection()
        self._make()

    def _new_connection(self) -> Connection:
        """An open session on the server (a pool of servers picks one here)."""
        connection = Connection(self.url, self.env_id, self.token, self.timeout)
        connection.open()
        return connection

    def _make(self) -> None:
        data: dict[str, Any] = {"kwargs": wire.encode(self._kwargs), "form": self._form}
        data.update(self._options)
        if self.render_mode is not None:
            data["render_mode"] = "ansi" if self.render_mode == "human" else self.render_mode
        described = self._connection.request(protocol.MAKE, data)
        modes = list(described["render_modes"])
        if "ansi" not in modes and "human" in modes:
            modes.remove("human")  # human mode prints the server's ansi frame
        self.metadata = {**wire.decode(described["metadata"]), "render_modes": modes}
        #: The served env's spec hash (the in-process env's, for the same kwargs).
        self.spec_hash: str | None = described["spec_hash"]
        self._oracle_served = bool(described.get("oracle"))
        limit = described.get("max_message_bytes")
        self._max_message_bytes: int | None = limit if isinstance(limit, int) else None
        self._adopt(described)

    def _adopt(self, described: dict[str, Any]) -> None:
        raise NotImplementedError

    def _request(self, kind: str, data: Any = None) -> Any:
        return self._connection.request(kind, data)

    def _action(self, encoded: Any) -> Any:
        """An encoded action as sent: unencodable when it would not fit the server's limit."""
        return within_limit(encoded, self._max_message_bytes)

    def _reset_request(self, seed: int | None, options: dict[str, Any] | None) -> Any:
        data = {"seed": seed, "options": None if options is None else wire.encode(options)}
        if self._connection.is_open:
            try:
                return self._request(protocol.RESET, data)
            except SessionLost:
                if self._connection.is_open:
                    raise
        # A new session, the env made again with this env's kwargs: the old session went
        # with its connection.
        self._connection.open()
        self._make()
        return self._request(protocol.RESET, data)

    # -- rendering, closing ---------------------------------------------------------------
    def render(self) -> Any:
        """The current frame, rendered on the server (``human``: printed here)."""
        if self.render_mode is None:
            return None
        frame = wire.decode(self._request(protocol.RENDER)["frame"])
        if self.render_mode == "human":
            print(frame)
            return None
        return frame

    def _human_render(self) -> None:
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """End the session; the server closes its env."""
        connection = getattr(self, "_connection", None)
        if connection is not None:
            connection.close()

    def __del__(self) -> None:
        # An env dropped without close() ends its session, as an in-process env frees its
        # resources when collected (the server would otherwise hold it until idle).
        with contextlib.suppress(Exception):
            self.close()

    def episode_success(self, final_infos: dict[str, Any]) -> bool | None:
        """The served env's ``episode_success`` hook (multi-agent envs)."""
        answer = self._request(protocol.EPISODE_SUCCESS, {"infos": wire.encode(final_infos)})
        return answer["success"]

    # -- pickling -------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """The env's state, holding a server-side copy of the session to take over."""
        forked = self._request(protocol.FORK)
        state = dict(self.__dict__)
        state["_connection"] = None
        state["_fork"] = forked["session_id"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Take over the copy of the session made when this env was pickled."""
        fork = state.pop("_fork")
        self.__dict__.update(state)
        self._connection = Connection(self.url, self.env_id, self.token, self.timeout)
        self._connection.open()
        self._request(protocol.ATTACH, {"session_id": fork})
