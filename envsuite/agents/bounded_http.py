"""HTTP with hard bounds, for talking to endpoints that may misbehave.

httpx's timeouts are per socket operation: a server that trickles one byte a second never
trips them, and a response body is read whole, decompressed without a cap. This module
bounds one request in time and in bytes:

- :class:`Deadline` gives a request a total deadline. It remembers the socket of the
  client's connection (through httpx's ``trace`` extension) and, when the deadline passes,
  shuts that socket down, so whatever read or write is blocked on it returns at once. The
  client must keep at most one connection (``httpx.Limits(max_connections=1)``), so the
  remembered socket is the one in use.
- :func:`read_capped_body` (and :func:`aread_capped_body`, its async twin) reads a
  streamed response's raw bytes and decodes ``gzip`` and ``deflate`` itself, a bounded
  piece at a time, refusing a body whose raw or decoded size passes the cap (a gzip bomb
  stops at the cap, not at the end of the bomb). Other content encodings are refused:
  requests ask for ``gzip, deflate`` only.
- :func:`retry_after_seconds` reads a ``Retry-After`` header (seconds or an HTTP date),
  and refuses negative, non-finite and unparseable values.
"""

from __future__ import annotations

import contextlib
import datetime
import email.utils
import math
import socket
import threading
import zlib
from collections.abc import Iterator
from typing import Any

import httpx

#: The encodings :func:`read_capped_body` decodes, as requests announce them.
ACCEPT_ENCODING = "gzip, deflate"


class BodyError(Exception):
    """A response body that is too big, or encoded in a way that cannot be read."""


class Deadline:
    """A total deadline for the requests of one single-connection httpx client.

    Pass :meth:`trace` as the request's ``trace`` extension, and wrap the request (and the
    reading of its body) in ``with deadline.running(seconds):``. :attr:`expired` says
    whether the deadline cut the request short.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stream: Any = None
        self.expired = False

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """The httpx ``trace`` callback: remember each new connection's network stream."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            with self._lock:
                self._stream = info.get("return_value")

    @contextlib.contextmanager
    def running(self, seconds: float) -> Iterator[None]:
        """Cut the connection if the block has not finished after ``seconds``."""
        self.expired = False
        timer = threading.Timer(seconds, self._expire)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _expire(self) -> None:
        self.expired = True
        with self._lock:
            stream = self._stream
        if stream is None:  # still connecting: the connect timeout (<= seconds) ends it
            return
        sock = stream.get_extra_info("socket")
        if sock is not None:
            # shutdown (not close) wakes a recv or send blocked on the socket in the
            # requesting thread; the connection is then dropped by the pool.
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class _Decoder:
    """Incremental, capped decoding of one content encoding."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self._zlib: Any = None
        if encoding == "gzip":
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._zlib = zlib.decompressobj()  # zlib-wrapped; raw deflate is tried on failure
        elif encoding not in ("", "identity"):
            raise BodyError(f"unsupported Content-Encoding {encoding!r} (asked: {ACCEPT_ENCODING})")
        self._started = False

    def decode(self, data: bytes, room: int) -> bytes:
        """Decode ``data``, producing at most ``room + 1`` bytes (one more means too many)."""
        if self._zlib is None:
            return data
        try:
            out = self._zlib.decompress(data, room + 1)
        except zlib.error as exc:
            if self.encoding == "deflate" and not self._started:
                self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                self._started = True
                return self.decode(data, room)
            raise BodyError(f"the body is not valid {self.encoding} data ({exc})") from exc
        self._started = True
        return out

    def has_more(self) -> bool:
        """Whether decoded output is still pending (the last call stopped at its limit)."""
        return self._zlib is not None and bool(self._zlib.unconsumed_tail)

    def more(self, room: int) -> bytes:
        """Continue decoding what the last call left over."""
        return self.decode(self._zlib.unconsumed_tail, room)


class _CappedBody:
    """A response body read chunk by chunk, decoded, within a byte cap (raw and decoded)."""

    def __init__(self, response: httpx.Response, limit: int) -> None:
        declared = response.headers.get("content-length", "")
        if declared.strip().isdigit() and int(declared) > limit:
            raise BodyError(
                f"the response declares {int(declared):,} bytes, over the {limit:,} cap"
            )
        encodings = [
            part.strip().lower()
            for part in response.headers.get("content-encoding", "").split(",")
            if part.strip()
        ]
        if len(encodings) > 1:
            raise BodyError(f"unsupported Content-Encoding {', '.join(encodings)!r} (one at most)")
        self.decoder = _Decoder(encodings[0] if encodings else "")
        self.limit = limit
        self.parts: list[bytes] = []
        self.raw = self.decoded = 0

    def feed(self, chunk: bytes) -> None:
        """Take one raw chunk; raise :class:`BodyError` past the cap."""
        limit = self.limit
        self.raw += len(chunk)
        if self.raw > limit:
            raise BodyError(f"the response is over the {limit:,}-byte cap")
        out = self.decoder.decode(chunk, limit - self.decoded)
        while True:
            self.decoded += len(out)
            if self.decoded > limit:
                raise BodyError(f"the response decompresses to over the {limit:,}-byte cap")
            self.parts.append(out)
            if not self.decoder.has_more():
                break
            out = self.decoder.more(limit - self.decoded)


def read_capped_body(response: httpx.Response, limit: int) -> bytes:
    """The decoded body of a streamed ``response``, refusing more than ``limit`` bytes.

    Raises:
        BodyError: the body (raw or decoded) is over ``limit`` bytes, or its
            ``Content-Encoding`` is unsupported or corrupt.
        httpx.TransportError: the connection failed while reading.
    """
    body = _CappedBody(response, limit)
    for chunk in response.iter_raw():
        body.feed(chunk)
    return b"".join(body.parts)


async def aread_capped_body(response: httpx.Response, limit: int) -> bytes:
    """:func:`read_capped_body` for a response streamed by an ``httpx.AsyncClient``."""
    body = _CappedBody(response, limit)
    async for chunk in response.aiter_raw():
        body.feed(chunk)
    return b"".join(body.parts)


def retry_after_seconds(value: str | None, now: datetime.datetime | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait; None when it is absent or unusable.

    A number of seconds (``"120"``; a decimal is accepted too) or an HTTP date (then the
    seconds from ``now`` until it, 0 when it has passed). Negative, non-finite and
    unparseable values give None: the caller falls back to its own backoff.
    """
    if value is None:
        return None
    text = value.strip()
    if not text or len(text) > 64:
        return None
    try:
        seconds = float(text)
    except ValueError:
        return _seconds_until_date(text, now)
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _seconds_until_date(text: str, now: datetime.datetime | None) -> float | None:
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT; a date without a zone is taken as GMT
        when = when.replace(tzinfo=datetime.UTC)
    current = now or datetime.datetime.now(datetime.UTC)
    return max(0.0, (when - current).total_seconds())
