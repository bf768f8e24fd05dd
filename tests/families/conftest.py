"""Fixtures shared by the families' tests: ``no_network`` blocks sockets (offline tests)."""

from __future__ import annotations

import socket

import pytest


class NetworkBlocked(RuntimeError):
    """Raised by any attempt to open a socket or resolve a name while blocked."""


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``socket.socket``, ``create_connection`` and ``getaddrinfo`` raise."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise NetworkBlocked("an env tried to use the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
