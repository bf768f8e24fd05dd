"""Envs served by ``envsuite serve``, used as if they were in-process.

``envsuite.remote.make(url, env_id, **kwargs)`` returns a Gymnasium env (single-agent ids)
or a PettingZoo env (multi-agent ids) whose episodes run on the server, one WebSocket
session per env; same seed and actions give exactly what :func:`envsuite.make` gives.

Layer: this package sits right above ``sandbox`` and below the families: it is the
core-most layer that talks to the network (the server in :mod:`envsuite.serve` and
evaluation code above it both use it; nothing in the core or a family imports it). The
wire format (:mod:`~envsuite.remote.wire`, :mod:`~envsuite.remote.space_wire`) and the
message names (:mod:`~envsuite.remote.protocol`) live here so that server and client share
one definition. The WebSocket client needs the ``serve`` extra.
"""

from envsuite.remote.connection import RemoteError, SessionLost
from envsuite.remote.make import make

__all__ = ["RemoteError", "SessionLost", "make"]
