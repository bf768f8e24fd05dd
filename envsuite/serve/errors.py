"""The one error a request can end in: a code from the protocol and a message for the client."""

from __future__ import annotations

from envsuite.remote.protocol import ERROR_STATUS


class RequestError(Exception):
    """A request the server refuses, with the code and message the client is sent.

    Args:
        code: A key of :data:`envsuite.remote.protocol.ERROR_STATUS` (it gives the HTTP
            status).
        message: What was wrong, for the client.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        if code not in ERROR_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        """The HTTP status of this error."""
        return ERROR_STATUS[self.code]

    def payload(self) -> dict[str, str]:
        """The ``data`` of an OpenEnv error message (and the body of an HTTP error)."""
        return {"message": self.message, "code": self.code}
