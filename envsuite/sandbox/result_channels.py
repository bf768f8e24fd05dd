"""The host side of the result collector (:mod:`.result_collector`): a handle and its output.

A sandbox starts the collector (:meth:`~.interface.Sandbox.start_collector`) before the
tests and hands back a :class:`ResultCollector`; after the tests, :meth:`finish` stops it
and returns what it read as :class:`Collected`.
"""

from __future__ import annotations

import abc
import dataclasses
import json

#: Seconds the collector may take to create its channels.
READY_TIMEOUT_S = 30.0
#: Seconds the collector is given to reach the end of its channels by itself after the
#: tests, before it is told to stop and take what is buffered.
SETTLE_S = 2.0
#: The folder name of the channels, beside the sealed repository.
CHANNELS_FOLDER = "channels"


class CollectorError(RuntimeError):
    """The collector could not be started (an infrastructure problem)."""


@dataclasses.dataclass(frozen=True)
class Collected:
    """What the collector read.

    Attributes:
        events: The events channel's text (JSON lines).
        junit: The JUnit channel's text.
        connected: Whether the runner opened both channels.
        ended: Whether each channel reached end-of-file (every writer closed it).
        dropped: Bytes of each channel over the collector's limits.
        error: Why the collector's output could not be read, if so.
    """

    events: str = ""
    junit: str = ""
    connected: bool = False
    ended: tuple[bool, bool] = (False, False)
    dropped: tuple[int, int] = (0, 0)
    error: str | None = None


def parse_collector_output(output: str) -> Collected:
    """Read the collector's last output line (its JSON result)."""
    lines = [line for line in output.splitlines() if line.strip()]
    if not lines:
        return Collected(error="the result collector printed nothing")
    try:
        data = json.loads(lines[-1])
        return Collected(
            events=str(data["events"]),
            junit=str(data["junit"]),
            connected=bool(data["connected"]),
            ended=(bool(data["eof"]["events"]), bool(data["eof"]["junit"])),
            dropped=(int(data["dropped"]["events"]), int(data["dropped"]["junit"])),
        )
    except (ValueError, KeyError, TypeError) as exc:
        tail = output.strip()[-300:]
        return Collected(error=f"unreadable result collector output ({exc}): {tail}")


class ResultCollector(abc.ABC):
    """A running collector: the channel paths the runner opens, and how to stop it."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    @property
    def events_path(self) -> str:
        """The events FIFO (its name is removed once the runner has opened it)."""
        return f"{self.folder}/events"

    @property
    def junit_path(self) -> str:
        """The JUnit FIFO."""
        return f"{self.folder}/junit"

    @abc.abstractmethod
    def finish(self) -> Collected:
        """Wait briefly for the collector to end by itself, stop it if not, read its result."""
