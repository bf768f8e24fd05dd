"""Debian's headless Chromium as a child process, spoken to over the DevTools pipe.

Chromium started with ``--remote-debugging-pipe`` reads DevTools protocol commands from
its file descriptor 3 and writes replies and events to descriptor 4, each message one
JSON text ended by a NUL byte. No port is opened, so there is no socket to block, no
port to race for and no websocket client to install. The browser resolves no host name
and runs no background networking: the page is a local file, its fonts are local files.

Every call has a deadline: a reply that does not come in time (a page script that loops
forever blocks the renderer, and with it every input event) raises
:class:`BrowserHung`; a pipe that closes or a process that exits raises
:class:`BrowserCrashed`. Either way the caller kills the process group and starts a new
browser; nothing ever waits without a bound.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

#: Where Debian installs the browser binary (``/usr/bin/chromium`` is a shell wrapper).
CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
#: Seconds a protocol call may take before the browser counts as hung.
DEFAULT_CALL_TIMEOUT = 10.0
#: Seconds the browser may take to start and open its first page.
START_TIMEOUT = 30.0


#: Events saying the page's renderer died or the page was detached: no reply will come.
LOST_PAGE_EVENTS = frozenset(
    {"Inspector.targetCrashed", "Inspector.detached", "Target.detachedFromTarget"}
)


class BrowserError(RuntimeError):
    """The browser failed (an infrastructure problem, never the agent's fault)."""


class BrowserCrashed(BrowserError):
    """The browser process exited or closed its DevTools pipe."""


class BrowserHung(BrowserError):
    """A DevTools call got no reply in time (the page or the browser is stuck)."""


class BrowserUnavailable(BrowserError):
    """No Chromium binary is installed (``scripts/install-system-packages`` installs it)."""


def chromium_binary() -> str:
    """Path of the Chromium binary.

    Raises:
        BrowserUnavailable: none of :data:`CHROMIUM_CANDIDATES` exists, nor ``chromium``
            on the PATH.
    """
    for candidate in CHROMIUM_CANDIDATES:
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("chromium")
    if found is None:
        raise BrowserUnavailable(
            "Chromium is not installed: run scripts/install-system-packages (Debian's chromium)"
        )
    return found


def processes_naming(path: Path) -> list[int]:
    """Pids of the live processes whose command line mentions ``path`` (Linux ``/proc``)."""
    needle = str(path).encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


class ChromiumProcess:
    """One headless Chromium and its DevTools pipe.

    Args:
        width: Initial window width in pixels.
        height: Initial window height in pixels.
        call_timeout: Seconds each protocol call may take.
    """

    def __init__(self, width: int, height: int, call_timeout: float = DEFAULT_CALL_TIMEOUT):
        self.call_timeout = call_timeout
        #: The process that started the browser: a forked copy must not drive or kill it.
        self.owner_pid = os.getpid()
        self.profile = Path(tempfile.mkdtemp(prefix="envsuite-chromium-"))
        self._next_id = 0
        self._buffer = b""
        self.events: list[dict[str, Any]] = []
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        args = [
            chromium_binary(),
            "--headless",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
            "--force-device-scale-factor=1",
            "--hide-scrollbars",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-domain-reliability",
            "--disable-client-side-phishing-detection",
            "--no-pings",
            # No name resolves: whatever Chromium might try to fetch fails at once.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-features=Translate,MediaRouter,OptimizationHints",
            "--mute-audio",
            "--disable-crash-reporter",
            "--disable-breakpad",
            "--font-render-hinting=none",
            "--allow-file-access-from-files",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox

        def wire_pipes() -> None:
            # Copy both ends above 10 first, so neither can be overwritten by the other.
            high_read = fcntl.fcntl(to_browser_read, fcntl.F_DUPFD, 10)
            high_write = fcntl.fcntl(from_browser_write, fcntl.F_DUPFD, 10)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        # Crashpad (started even in headless mode) keeps its reports under the config home:
        # inside the profile they are deleted with it, and its processes name the profile.
        environment = {
            **os.environ,
            "HOME": str(self.profile),
            "XDG_CONFIG_HOME": str(self.profile),
        }
        try:
            self.process = subprocess.Popen(
                args,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=wire_pipes,
                close_fds=False,
                start_new_session=True,
            )
        finally:
            os.close(to_browser_read)
            os.close(from_browser_write)
        os.set_blocking(self._from_browser, False)

    @property
    def pid(self) -> int:
        """Process id of the browser (the leader of its own process group)."""
        return self.process.pid

    def alive(self) -> bool:
        """Whether the browser process is still running."""
        return self.process.poll() is None

    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send one DevTools command and wait for its reply.

        Raises:
            BrowserCrashed: the browser is gone or its pipe closed.
            BrowserHung: no reply within ``timeout`` (default :attr:`call_timeout`) seconds.
            BrowserError: the browser answered with a protocol error.
        """
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session_id is not None:
            message["sessionId"] = session_id
        data = json.dumps(message).encode("utf-8") + b"\0"
        try:
            while data:
                written = os.write(self._to_browser, data)
                data = data[written:]
        except OSError as exc:
            raise BrowserCrashed(f"the DevTools pipe is closed ({exc})") from exc
        deadline = time.monotonic() + (self.call_timeout if timeout is None else timeout)
        while True:
            reply = self._read_message(deadline, method)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method} failed: {reply['error'].get('message', '')}")
                return reply.get("result", {})
            if reply.get("method") in LOST_PAGE_EVENTS:
                raise BrowserCrashed(f"the page went away during {method} ({reply['method']})")
            if "method" in reply:
                self.events.append(reply)

    def _read_message(self, deadline: float, method: str) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserHung(f"no reply to {method} in time (the page or browser hangs)")
            ready, _, _ = select.select([self._from_browser], [], [], min(left, 0.5))
            if not ready:
                if not self.alive():
                    raise BrowserCrashed(f"the browser exited during {method}")
                continue
            try:
                chunk = os.read(self._from_browser, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                raise BrowserCrashed(f"the browser closed its DevTools pipe during {method}")
            self._buffer += chunk
        text, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(text)

    def kill(self) -> None:
        """Stop the browser and every process it started, and delete its profile.

        The browser leads its own process group; crash handlers start their own sessions,
        so they are found by the profile path in their command line. In a forked copy of
        the process that started it, only the copy's pipe ends are closed.
        """
        if os.getpid() != self.owner_pid:
            for fd in (self._to_browser, self._from_browser):
                with contextlib.suppress(OSError):
                    os.close(fd)
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        for pid in processes_naming(self.profile):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def close(self) -> None:
        """Ask the browser to quit, then make sure it and its children are gone."""
        if self.alive() and os.getpid() == self.owner_pid:
            with contextlib.suppress(BrowserError):
                self.call("Browser.close", timeout=3.0)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=3)
        self.kill()
