"""A sandbox made of a temporary directory and subprocesses, for machines without Docker.

**Not isolated.** Commands run as the calling user, on the host, with its network and its
files: ``rm -rf ~`` deletes the user's home. Use it for trusted agents (the oracle, tests,
development) or inside a VM; give untrusted agents the Docker sandbox. What it does keep:
each command runs as its own process group under a timeout and is killed on expiry (and
whatever it left running in its group is killed when it returns), and its output is
streamed and cut like the Docker sandbox's. The grader's sealed copy is only made
read-only and its result collector runs as the same user, so none of the grader's
separation holds here (see the SWE threat model). Commands run in the temporary copy;
tool paths written as ``/repo/...`` map to it, but ``/repo`` inside a shell command does not
exist on the host.
"""

from __future__ import annotations

import io
import os
import select
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from envsuite.sandbox import pytest_runner, result_collector
from envsuite.sandbox.interface import (
    DEFAULT_COMMAND_TIMEOUT,
    MAX_FILE_BYTES,
    CommandResult,
    FileAccessError,
    Sandbox,
    SandboxEnvironment,
    SandboxError,
    repo_relative,
)
from envsuite.sandbox.output_limits import HeadTailBuffer, OutputLimits
from envsuite.sandbox.result_channels import (
    CHANNELS_FOLDER,
    READY_TIMEOUT_S,
    SETTLE_S,
    Collected,
    ResultCollector,
    parse_collector_output,
)
from envsuite.sandbox.tar_extraction import extract_data

#: Seconds between SIGTERM to a timed-out process group and SIGKILL.
KILL_GRACE_S = 2.0
#: Seconds output is still read after a command returned (its group is killed first);
#: a process outside the group that holds the output open is not waited for longer.
DRAIN_S = 2.0


class LocalSandbox(Sandbox):
    """A temporary copy of the repository; commands are host subprocesses (not isolated).

    Args:
        environment: The task's software environment (``python_path`` is used; the image
            is ignored: commands use the host's Python, ``sys.executable``).
        python: Interpreter for the test runner (defaults to ``sys.executable``).
    """

    def __init__(self, environment: SandboxEnvironment, python: str | None = None) -> None:
        self.environment = environment
        self.python = python or sys.executable
        self._root = Path(tempfile.mkdtemp(prefix="envsuite-swe-"))
        self._repo = self._root / "repo"
        self._private = self._root / "private"
        self._home = self._root / "home"
        for folder in (self._repo, self._private, self._home):
            folder.mkdir()
        self.repo_dir = str(self._repo)
        self._closed = False

    # -- repository ------------------------------------------------------------------
    def load_repo(self, archive: bytes) -> None:
        """Unpack the repository tar into the temporary repository directory."""
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
            extract_data(tar, self._repo)

    def _resolve(self, path: str) -> Path:
        relative = repo_relative(path)
        target = self._repo / relative
        resolved = target.resolve()
        if resolved != self._repo.resolve() and self._repo.resolve() not in resolved.parents:
            raise FileAccessError(f"{path!r} resolves outside the repository")
        return target

    def read_file(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
        """Read a repository file (refused when missing, a directory, or over ``max_bytes``)."""
        target = self._resolve(path)
        if not target.is_file():
            raise FileAccessError(f"{repo_relative(path)}: no such file")
        size = target.stat().st_size
        if size > max_bytes:
            raise FileAccessError(f"{repo_relative(path)}: {size} bytes, over {max_bytes}")
        return target.read_bytes()

    def write_file(self, path: str, data: bytes) -> None:
        """Create or overwrite a repository file, creating parent folders."""
        target = self._resolve(path)
        if target.is_dir():
            raise FileAccessError(f"{repo_relative(path)} is a directory")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError as exc:
            raise FileAccessError(f"{repo_relative(path)}: {exc.strerror}") from exc

    def put_private_file(self, name: str, data: bytes) -> str:
        """Write ``name`` into the private folder beside the repository."""
        target = self._private / Path(name).name
        target.write_bytes(data)
        return str(target)

    def read_private_file(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes | None:
        """Read a file of the private folder (None when missing)."""
        target = Path(path)
        if not target.is_file():
            return None
        with target.open("rb") as handle:
            return handle.read(max_bytes)

    @property
    def private_dir(self) -> str:
        """The private folder beside the repository."""
        return str(self._private)

    @property
    def test_runner(self) -> list[str]:
        """The host interpreter in isolated mode running the runner script in place."""
        return [self.python, "-I", str(Path(pytest_runner.__file__).resolve())]

    # -- grading ---------------------------------------------------------------------
    def seal_repo(self, extra_files: Mapping[str, bytes]) -> str:
        """Copy the repository and ``extra_files`` beside it and remove write permission."""
        target = self._root / "grade" / "repo"
        if target.exists():
            raise SandboxError("the repository is already sealed")
        target.parent.mkdir(exist_ok=True)
        shutil.copytree(self._repo, target, symlinks=True)
        for name, data in extra_files.items():
            path = target / repo_relative(name)
            if path.exists() or path.is_symlink():
                raise SandboxError(f"an extra file would overwrite {name}")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        _set_writable(target, False)
        return str(target)

    def start_collector(self) -> ResultCollector:
        """Start the collector as a subprocess of this process (the same user)."""
        folder = self._root / "grade" / CHANNELS_FOLDER
        folder.parent.mkdir(exist_ok=True)
        script = str(Path(result_collector.__file__).resolve())
        process = subprocess.Popen(
            [self.python, "-I", "-S", script, str(folder)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert process.stdout is not None
        first = b""
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not first.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([process.stdout], [], [], max(remaining, 0))
            byte = os.read(process.stdout.fileno(), 1) if ready else b""
            if not byte:
                process.kill()
                rest = process.communicate()[0]
                text = (first + rest).decode("utf-8", errors="replace").strip()[-500:]
                raise SandboxError(f"the result collector did not start: {text}")
            first += byte
        return _LocalCollector(str(folder), process)

    # -- commands --------------------------------------------------------------------
    def _environment(self) -> dict[str, str]:
        python_dirs = [str((self._repo / p).resolve()) for p in self.environment.python_path]
        bin_dir = str(Path(self.python).parent)
        return {
            "PATH": f"{bin_dir}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "HOME": str(self._home),
            "LANG": "C.UTF-8",
            "PYTHONPATH": ":".join(python_dirs),
            "PYTHONDONTWRITEBYTECODE": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "TMPDIR": str(self._private),
        }

    def run(
        self,
        command: str,
        *,
        timeout_s: float = DEFAULT_COMMAND_TIMEOUT,
        limits: OutputLimits | None = None,
    ) -> CommandResult:
        """Run ``command`` with bash in the repository as a new session; kill it on expiry."""
        buffer = HeadTailBuffer(limits or OutputLimits())
        process = subprocess.Popen(
            ["bash", "-c", "exec 2>&1\n" + command],
            cwd=self._repo,
            env=self._environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            start_new_session=True,
        )
        assert process.stdout is not None
        deadline = time.monotonic() + timeout_s
        timed_out = False
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        fd = process.stdout.fileno()
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    timed_out = True
                    break
                if buffer.full or _exited(process.pid, 0.0):
                    break
                if not selector.select(timeout=min(remaining, 0.2)):
                    continue
                chunk = os.read(fd, 65_536)
                if not chunk:
                    # The output is closed, but the command may still be running (a
                    # program that closes stdout before it exits): wait for it.
                    timed_out = not _exited(process.pid, deadline - time.monotonic())
                    break
                buffer.feed(chunk)
        finally:
            if timed_out or buffer.full:
                _kill_group(process.pid)
            else:
                # The command returned: what it left running in its group ends with it.
                _kill_group(process.pid, grace=0.0)
                _drain(selector, fd, buffer, time.monotonic() + DRAIN_S)
            selector.close()
            process.stdout.close()
            status = process.wait()
        exit_code = 124 if timed_out else (status if status >= 0 else 128 - status)
        return CommandResult(
            output=buffer.text(),
            exit_code=exit_code,
            timed_out=timed_out,
            output_bytes=buffer.total,
            bytes_cut=buffer.bytes_cut,
            output_limit_hit=buffer.full,
        )

    # -- lifecycle -------------------------------------------------------------------
    def health(self) -> str | None:
        """None while the temporary repository exists."""
        if self._closed:
            return "the sandbox is closed"
        return None if self._repo.is_dir() else "the repository directory is gone"

    def close(self) -> None:
        """Delete the temporary directory."""
        if not self._closed:
            self._closed = True
            _set_writable(self._root / "grade", True)
            shutil.rmtree(self._root, ignore_errors=True)

    def __del__(self) -> None:
        self.close()


class _LocalCollector(ResultCollector):
    """The collector as a subprocess of the grader."""

    def __init__(self, folder: str, process: subprocess.Popen[bytes]) -> None:
        super().__init__(folder)
        self.process = process

    def finish(self) -> Collected:
        """Wait for the collector; if its channels are still open, stop it (SIGTERM)."""
        try:
            output = self.process.communicate(timeout=SETTLE_S)[0]
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                output = self.process.communicate(timeout=10.0)[0]
            except subprocess.TimeoutExpired:
                self.process.kill()
                output = self.process.communicate()[0]
        return parse_collector_output(output.decode("utf-8", errors="replace"))


def _exited(pid: int, wait_s: float) -> bool:
    """Whether child ``pid`` has exited, waiting up to ``wait_s``.

    It is not reaped, so its process group cannot be reused before it is killed.
    """
    deadline = time.monotonic() + wait_s
    pause = 0.001
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(min(pause, max(deadline - time.monotonic(), 0)))
        pause = min(pause * 2, 0.05)


def _drain(selector: selectors.BaseSelector, fd: int, buffer: HeadTailBuffer, until: float) -> None:
    """Read what is left of a returned command's output, up to ``until``."""
    while not buffer.full:
        remaining = until - time.monotonic()
        if remaining <= 0 or not selector.select(timeout=remaining):
            return
        chunk = os.read(fd, 65_536)
        if not chunk:
            return
        buffer.feed(chunk)


def _set_writable(root: Path, writable: bool) -> None:
    """Add or remove write permission on every file and folder under ``root``."""
    if not root.exists():
        return
    for folder, dirs, files in os.walk(root, topdown=writable):
        for name in [*files, *dirs]:
            _chmod_write(Path(folder) / name, writable)
    _chmod_write(root, writable)


def _chmod_write(path: Path, writable: bool) -> None:
    if path.is_symlink():
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    path.chmod(mode | stat.S_IWUSR if writable else mode & ~0o222)


def _kill_group(pgid: int, grace: float = KILL_GRACE_S) -> None:
    """SIGTERM then SIGKILL every process of group ``pgid`` (gone groups are fine)."""
    try:
        if grace > 0:
            os.killpg(pgid, signal.SIGTERM)
            time.sleep(min(grace, 0.2))
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
