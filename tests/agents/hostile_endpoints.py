"""A raw-socket HTTP server on 127.0.0.1 whose answers are written byte by byte by a handler.

http.server cannot send what a hostile or broken endpoint sends (a status line trickled one
byte at a time, a body that never ends, a connection reset mid-body), so each handler gets
the client's socket after the request was read and writes whatever it likes.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import struct
import threading
import time
import zlib
from collections.abc import Callable

Handler = Callable[[socket.socket, "RawEndpoint"], None]


def completion(content: str = "ok", **extra) -> bytes:
    """A valid chat-completion body with ``content`` as the reply."""
    body = {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
        **extra,
    }
    return json.dumps(body).encode()


def response(
    body: bytes,
    status: str = "200 OK",
    headers: dict[str, str] | None = None,
    *,
    length: bool = True,
) -> bytes:
    """Status line, headers (Content-Length unless ``length`` is False) and body."""
    lines = [f"HTTP/1.1 {status}", "Connection: close"]
    fields = {"Content-Type": "application/json", **(headers or {})}
    if length:
        fields.setdefault("Content-Length", str(len(body)))
    lines += [f"{k}: {v}" for k, v in fields.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def zeros_compressed(size: int, wbits: int) -> bytes:
    """``size`` zero bytes compressed with zlib ``wbits`` (16+: gzip, <0: raw deflate)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    block = bytes(1 << 20)
    parts = [compressor.compress(block) for _ in range(size >> 20)]
    parts.append(compressor.flush())
    return b"".join(parts)


class RawEndpoint:
    """Serve ``handler`` on 127.0.0.1 (any free port) until the ``with`` block ends.

    Attributes:
        requests: How many requests were read.
        stop: Set when the server shuts down (trickling handlers stop then).
    """

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests = 0
        self.stop = threading.Event()
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self._listener.settimeout(0.1)
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"

    def __enter__(self) -> RawEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self._thread.join(5)
        self._listener.close()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            conn.settimeout(10)
            if not _read_request(conn):
                return
            self.requests += 1
            self.handler(conn, self)

    def sleep(self, seconds: float) -> bool:
        """Wait; False once the server stops."""
        return not self.stop.wait(seconds)


def _read_request(conn: socket.socket) -> bool:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return False
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return False
        body += chunk
    return True


# -- handlers ------------------------------------------------------------------------------
def send(data: bytes) -> Handler:
    """Send ``data`` and close."""
    return lambda conn, server: conn.sendall(data)


def trickle(data: bytes, every_s: float = 0.05, forever: bool = True) -> Handler:
    """Send ``data`` one byte at a time (then, with ``forever``, spaces until stopped)."""

    def handler(conn: socket.socket, server: RawEndpoint) -> None:
        index = 0
        while server.sleep(every_s):
            if index < len(data):
                conn.sendall(data[index : index + 1])
                index += 1
            elif forever:
                conn.sendall(b" ")
            else:
                return

    return handler


def stall(head: bytes) -> Handler:
    """Send ``head``, then nothing until the server stops."""

    def handler(conn: socket.socket, server: RawEndpoint) -> None:
        conn.sendall(head)
        server.stop.wait()

    return handler


def endless_chunks(chunk: bytes = b"x" * 65536) -> Handler:
    """A chunked 200 whose chunks never end."""

    def handler(conn: socket.socket, server: RawEndpoint) -> None:
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        while not server.stop.is_set():
            conn.sendall(frame)

    return handler


def endless_unframed(chunk: bytes = b"x" * 65536) -> Handler:
    """A 200 with neither Content-Length nor chunking: the body lasts until close (never)."""

    def handler(conn: socket.socket, server: RawEndpoint) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
        while not server.stop.is_set():
            conn.sendall(chunk)

    return handler


def reset_mid_body() -> Handler:
    """Half of a body, then a TCP reset (SO_LINGER 0)."""

    def handler(conn: socket.socket, server: RawEndpoint) -> None:
        body = completion("ok")
        conn.sendall(response(body)[: -len(body) // 2])
        time.sleep(0.05)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    return handler


def gzip_body(body: bytes) -> bytes:
    return gzip.compress(body)
