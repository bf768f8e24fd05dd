"""envsuite's result collector: reads the grading runner's channels in a separate process.

Started by the grader as ``python3 -I -S result_collector.py DIR`` before the tests, as a
user the tests' user cannot signal, trace or write to (root without capabilities in the
Docker sandbox; the calling user for the local sandbox, which isolates nothing). Copied
into every task image (``/opt/envsuite/result_collector.py``); imports nothing from envsuite.

1. Creates ``DIR`` (mode 0711) holding two FIFOs, ``events`` and ``junit`` (0622: any
   user may write, only the collector reads), writes its pid to ``DIR/collector.pid`` and
   prints ``ready``.
2. Opens both FIFOs for reading (each open waits for the runner to open it for writing),
   then removes their names: from then on only descriptors the runner already holds reach
   them.
3. Reads both to end-of-file (or until SIGTERM, after which it takes what is still
   buffered), keeping at most a fixed number of bytes of each.
4. Prints one JSON line: ``events`` and ``junit`` (text), whether each reached end-of-file,
   whether the runner connected, and how many bytes were dropped over the limits.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import sys

#: Bytes kept of each channel.
LIMITS = {"events": 16 * 1024 * 1024, "junit": 32 * 1024 * 1024}
CHANNELS = ("events", "junit")


class Stop(Exception):
    """SIGTERM arrived while the collector waited for the runner to connect."""


def main(argv: list[str]) -> int:
    """Collect (see the module docstring); return the exit code."""
    if len(argv) != 1:
        print("usage: result_collector.py DIR", file=sys.stderr)
        return 2
    folder = argv[0]
    os.umask(0o022)
    os.mkdir(folder, 0o711)
    os.chmod(folder, 0o711)
    paths = {name: os.path.join(folder, name) for name in CHANNELS}
    for path in paths.values():
        os.mkfifo(path, 0o600)
        os.chmod(path, 0o622)
    state = {"stopping": False, "waiting": True}

    def on_term(signum: int, frame: object) -> None:
        state["stopping"] = True
        if state["waiting"]:
            raise Stop

    signal.signal(signal.SIGTERM, on_term)
    with open(os.path.join(folder, "collector.pid"), "w") as handle:
        handle.write(str(os.getpid()))
    print("ready", flush=True)
    data = {name: bytearray() for name in CHANNELS}
    dropped = dict.fromkeys(CHANNELS, 0)
    eof = dict.fromkeys(CHANNELS, False)
    fds = {}
    try:
        for name in CHANNELS:
            fds[name] = os.open(paths[name], os.O_RDONLY)
        state["waiting"] = False
    except Stop:
        pass
    for path in paths.values():
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
    connected = len(fds) == len(CHANNELS)
    open_fds = {fd: name for name, fd in fds.items()} if connected else {}
    while open_fds and not state["stopping"]:
        ready, _, _ = select.select(list(open_fds), [], [], 0.2)
        for fd in ready:
            _take(fd, open_fds, data, dropped, eof)
    for fd in list(open_fds):
        os.set_blocking(fd, False)
        while fd in open_fds:
            try:
                _take(fd, open_fds, data, dropped, eof)
            except BlockingIOError:
                break
    result = {
        "connected": connected,
        "eof": eof,
        "dropped": dropped,
        **{name: data[name].decode("utf-8", errors="replace") for name in CHANNELS},
    }
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


def _take(
    fd: int,
    open_fds: dict[int, str],
    data: dict[str, bytearray],
    dropped: dict[str, int],
    eof: dict[str, bool],
) -> None:
    """Read one chunk of ``fd`` into its channel's buffer (closing it at end-of-file)."""
    name = open_fds[fd]
    chunk = os.read(fd, 65536)
    if not chunk:
        eof[name] = True
        del open_fds[fd]
        os.close(fd)
        return
    room = LIMITS[name] - len(data[name])
    data[name] += chunk[: max(room, 0)]
    dropped[name] += max(len(chunk) - max(room, 0), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
