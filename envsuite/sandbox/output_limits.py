"""Cutting command output: keep its head and tail, count what was cut, never buffer it all."""

from __future__ import annotations

import dataclasses

#: Default number of output bytes an observation keeps (half head, half tail).
DEFAULT_OUTPUT_LIMIT = 16_384
#: Default number of bytes read from a command before it is killed for flooding its output.
DEFAULT_STREAM_LIMIT = 8 * 1024 * 1024


@dataclasses.dataclass(frozen=True)
class OutputLimits:
    """How much command output is kept and how much is read at all.

    Attributes:
        keep_bytes: Bytes kept for the observation: the first ``keep_bytes // 2`` and the
            last ``keep_bytes - keep_bytes // 2``; what lies between is cut and counted.
        stream_bytes: Bytes read before the command is killed (its output floods the
            sandbox); ``CommandResult.output_limit_hit`` then says so.
    """

    keep_bytes: int = DEFAULT_OUTPUT_LIMIT
    stream_bytes: int = DEFAULT_STREAM_LIMIT

    def __post_init__(self) -> None:
        if self.keep_bytes < 2:
            raise ValueError(f"keep_bytes must be >= 2, got {self.keep_bytes}")
        if self.stream_bytes < self.keep_bytes:
            raise ValueError("stream_bytes must be >= keep_bytes")


class HeadTailBuffer:
    """Collects a byte stream keeping only its head and tail.

    Memory stays bounded by ``limits.keep_bytes`` whatever the stream's length. ``full``
    turns True once ``limits.stream_bytes`` bytes have been seen; the caller then stops
    reading and kills the producer.

    Args:
        limits: The byte limits.
    """

    def __init__(self, limits: OutputLimits) -> None:
        self.limits = limits
        self._head_size = limits.keep_bytes // 2
        self._tail_size = limits.keep_bytes - self._head_size
        self._head = bytearray()
        self._tail = bytearray()
        self.total = 0

    @property
    def full(self) -> bool:
        """Whether the stream limit has been reached."""
        return self.total >= self.limits.stream_bytes

    def feed(self, chunk: bytes) -> None:
        """Add the next chunk of the stream (bytes beyond the stream limit are dropped)."""
        room = self.limits.stream_bytes - self.total
        if room <= 0 or not chunk:
            return
        chunk = chunk[:room]
        self.total += len(chunk)
        need_head = self._head_size - len(self._head)
        if need_head > 0:
            self._head += chunk[:need_head]
            chunk = chunk[need_head:]
        if chunk:
            self._tail += chunk
            if len(self._tail) > self._tail_size:
                del self._tail[: len(self._tail) - self._tail_size]

    @property
    def bytes_cut(self) -> int:
        """How many bytes between head and tail were dropped."""
        return self.total - len(self._head) - len(self._tail)

    def text(self) -> str:
        """The kept output as text (invalid UTF-8 replaced), with a marker where bytes were cut."""
        head = bytes(self._head).decode("utf-8", errors="replace")
        tail = bytes(self._tail).decode("utf-8", errors="replace")
        if self.bytes_cut == 0:
            return (bytes(self._head) + bytes(self._tail)).decode("utf-8", errors="replace")
        return f"{head}\n[... {self.bytes_cut} bytes cut ...]\n{tail}"

    def data(self) -> bytes:
        """The bytes read, when nothing was cut (raises ValueError otherwise)."""
        if self.bytes_cut:
            raise ValueError(f"{self.bytes_cut} bytes were cut")
        return bytes(self._head) + bytes(self._tail)
