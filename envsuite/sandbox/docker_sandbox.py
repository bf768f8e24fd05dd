"""A sandbox in a hardened Docker container (the Docker SDK is the client).

The container's hardening is in :mod:`.docker_containers`.

Commands run as ``timeout``-wrapped process groups: on expiry ``timeout`` kills the group,
and when the command returns, whatever it left running in its group is killed too (a
command's background jobs end with it). Output is read as a stream into a head/tail
buffer; past the stream limit (or if a stray process keeps the output open past the
timeout) envsuite kills the group itself.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import shlex
import tarfile
import threading
import time
import weakref
from collections.abc import Mapping
from typing import Any

from envsuite.sandbox.docker_client import docker_client, docker_module
from envsuite.sandbox.docker_containers import (
    AGENT_USER,
    GRADE_DIR,
    ROOT_USER,
    ContainerLimits,
    remove_container,
    start_container,
)
from envsuite.sandbox.interface import (
    DEFAULT_COMMAND_TIMEOUT,
    MAX_FILE_BYTES,
    REPO_DIR,
    CommandResult,
    FileAccessError,
    Sandbox,
    SandboxDied,
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

#: Root-owned folder files are staged in by ``put_archive`` (the agent cannot write it).
INBOX_DIR = "/var/envsuite/inbox"
#: Private folder for the grader's outputs (JUnit XML), on the /tmp tmpfs.
PRIVATE_DIR = "/tmp/.envsuite"
#: The runner script baked into every task image.
RUNNER_PATH = "/opt/envsuite/pytest_runner.py"
#: The result collector baked into every task image (run as root, see ``start_collector``).
COLLECTOR_PATH = "/opt/envsuite/result_collector.py"
#: What the collector's output may hold (its channels, JSON-escaped).
COLLECTOR_LIMITS = OutputLimits(keep_bytes=160 * 1024 * 1024, stream_bytes=160 * 1024 * 1024)
#: The interpreter of the task image's virtual environment.
IMAGE_PYTHON = "/opt/envsuite/venv/bin/python"
#: Seconds ``timeout`` waits after SIGTERM before SIGKILL.
KILL_AFTER_S = 2
#: Seconds envsuite waits past a command's timeout before killing its group itself.
WATCHDOG_GRACE_S = 10.0


def _tar_of(name: str, data: bytes, mode: int = 0o644) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        info.mode = mode
        info.uid = info.gid = 1000
        tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class DockerSandbox(Sandbox):
    """A sandbox in one hardened container (see the module docstring).

    Args:
        container: A started container from :func:`start_container`.
        environment: The task's software environment.
    """

    def __init__(self, container: Any, environment: SandboxEnvironment) -> None:
        self.container = container
        self.environment = environment
        self._counter = 0
        self._closed = False
        _live.add(self)

    @classmethod
    def start(
        cls, environment: SandboxEnvironment, limits: ContainerLimits | None = None
    ) -> DockerSandbox:
        """Start a container for ``environment`` and wrap it."""
        return cls(start_container(environment.image, limits), environment)

    # -- low level -------------------------------------------------------------------
    def _next_name(self, stem: str) -> str:
        self._counter += 1
        return f"{self._counter:06d}-{stem}"

    def _put(self, name: str, data: bytes) -> str:
        try:
            self.container.put_archive(INBOX_DIR, _tar_of(name, data))
        except Exception as exc:
            raise self._failure("copying a file into the sandbox", exc) from exc
        return f"{INBOX_DIR}/{name}"

    def _failure(self, what: str, exc: Exception) -> SandboxError:
        reason = self.health()
        if reason is not None:
            return SandboxDied(f"{what} failed: {reason}")
        return SandboxError(f"{what} failed: {type(exc).__name__}: {exc}")

    def _exec_simple(self, argv: list[str], user: str = AGENT_USER) -> tuple[int, bytes]:
        try:
            result = self.container.exec_run(argv, user=user, workdir=REPO_DIR)
        except Exception as exc:
            raise self._failure(f"running {argv[0]}", exc) from exc
        return int(result.exit_code), bytes(result.output or b"")

    # -- repository ------------------------------------------------------------------
    def load_repo(self, archive: bytes) -> None:
        """Stage the repository tar in the inbox and unpack it into ``/repo`` as the user."""
        staged = self._put(self._next_name("repo.tar"), archive)
        code, output = self._exec_simple(["tar", "-xf", staged, "-C", REPO_DIR])
        if code != 0:
            raise SandboxError(f"unpacking the repository failed: {output[-500:]!r}")

    def read_file(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
        """``cat`` a repository file as the unprivileged user (refused over ``max_bytes``)."""
        relative = repo_relative(path)
        return self._read(f"{REPO_DIR}/{relative}", relative, max_bytes)

    def _read(self, absolute: str, shown: str, max_bytes: int) -> bytes:
        script = 'test -f "$1" || { echo "no such file" >&2; exit 3; }; exec cat -- "$1"'
        limits = OutputLimits(keep_bytes=max_bytes + 1, stream_bytes=max_bytes + 1)
        buffer, code, _ = self._stream(["bash", "-c", script, "read", absolute], limits, 60.0)
        if code == 3:
            raise FileAccessError(f"{shown}: no such file")
        if code != 0:
            message = buffer.text().strip()[-300:]
            raise FileAccessError(f"{shown}: {message or f'cat exited with {code}'}")
        if buffer.total > max_bytes:
            raise FileAccessError(f"{shown}: larger than {max_bytes} bytes")
        return buffer.data()

    def write_file(self, path: str, data: bytes) -> None:
        """Stage the bytes in the inbox, then copy them into place as the unprivileged user."""
        relative = repo_relative(path)
        staged = self._put(self._next_name("write"), data)
        target = f"{REPO_DIR}/{relative}"
        script = 'mkdir -p -- "$(dirname -- "$2")" && cat -- "$1" > "$2"'
        code, output = self._exec_simple(["bash", "-c", script, "write", staged, target])
        if code != 0:
            text = output.decode("utf-8", errors="replace").strip()[-300:]
            raise FileAccessError(f"{relative}: {text or 'cannot be written'}")

    def put_private_file(self, name: str, data: bytes) -> str:
        """Stage ``name`` in the root-owned inbox (readable, not writable, by the user)."""
        return self._put(self._next_name(os.path.basename(name)), data)

    def read_private_file(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes | None:
        """Read a file outside the repository (None when it is missing)."""
        try:
            return self._read(path, path, max_bytes)
        except FileAccessError as exc:
            if "no such file" in str(exc):
                return None
            raise

    @property
    def private_dir(self) -> str:
        """``/tmp/.envsuite`` (created on first use)."""
        return PRIVATE_DIR

    @property
    def test_runner(self) -> list[str]:
        """The image's venv Python, isolated, running the baked-in runner script."""
        return [IMAGE_PYTHON, "-I", RUNNER_PATH]

    # -- grading ---------------------------------------------------------------------
    def seal_repo(self, extra_files: Mapping[str, bytes]) -> str:
        """Copy ``/repo`` as root onto the root-owned grading tmpfs; return the copy.

        The copy (and every file in it) belongs to root, so the tests, which run as the
        unprivileged user, can read the repository but change nothing in it. Extra files
        must be top-level names (the canary tests); none may exist already.
        """
        target = f"{GRADE_DIR}/repo"
        arguments = []
        for name, data in extra_files.items():
            if "/" in name or name in (".", "..") or not name:
                raise SandboxError(f"an extra file must be a top-level name, got {name!r}")
            arguments += [self._put(self._next_name(name), data), name]
        script = (
            'set -e; target=$1; shift; mkdir -m 0755 "$target"; '
            'tar -C /repo -cf - . | tar -C "$target" -xf - --no-same-owner --no-same-permissions; '
            "while [ $# -gt 0 ]; do "
            'if [ -e "$target/$2" ] || [ -L "$target/$2" ]; then echo "$2 exists" >&2; exit 3; fi; '
            'cp -- "$1" "$target/$2"; chmod 0644 "$target/$2"; shift 2; done'
        )
        code, output = self._exec_simple(
            ["bash", "-c", script, "seal", target, *arguments], ROOT_USER
        )
        if code != 0:
            text = output.decode("utf-8", errors="replace").strip()[-500:]
            raise SandboxError(f"sealing the repository failed: {text}")
        return target

    def start_collector(self) -> ResultCollector:
        """Start the collector as root (no capabilities) in a background exec."""
        folder = f"{GRADE_DIR}/{CHANNELS_FOLDER}"
        argv = [IMAGE_PYTHON, "-I", "-S", COLLECTOR_PATH, folder]
        execution = _Execution(self, argv, ROOT_USER, "/", COLLECTOR_LIMITS)
        deadline = time.monotonic() + READY_TIMEOUT_S
        while "ready\n" not in execution.buffer.text()[:64]:
            if execution.done.is_set() or time.monotonic() > deadline:
                execution.close()
                text = execution.buffer.text().strip()[-500:]
                raise SandboxError(f"the result collector did not start: {text}")
            time.sleep(0.02)
        return _DockerCollector(self, folder, execution)

    # -- commands --------------------------------------------------------------------
    def run(
        self,
        command: str,
        *,
        timeout_s: float = DEFAULT_COMMAND_TIMEOUT,
        limits: OutputLimits | None = None,
    ) -> CommandResult:
        """Run ``command`` (bash, in ``/repo``, uid 1000) under ``timeout``; see the module."""
        started = time.monotonic()
        buffer, code, watchdog_fired = self._stream(
            ["bash", "-c", "exec 2>&1\n" + command], limits or OutputLimits(), timeout_s
        )
        # 124: timeout's TERM ended it; 137 after the timeout: its follow-up KILL did.
        expired = code == 137 and time.monotonic() - started >= timeout_s
        timed_out = watchdog_fired or code == 124 or expired
        if timed_out:
            code = 124
        if buffer.full:
            code = 137  # envsuite killed it (SIGKILL) for flooding its output
        return CommandResult(
            output=buffer.text(),
            exit_code=code,
            timed_out=timed_out and not buffer.full,
            output_bytes=buffer.total,
            bytes_cut=buffer.bytes_cut,
            output_limit_hit=buffer.full,
        )

    def _stream(
        self, argv: list[str], limits: OutputLimits, timeout_s: float
    ) -> tuple[HeadTailBuffer, int, bool]:
        """Run ``argv`` as a timeout-wrapped process group; return (buffer, exit code, killed)."""
        pid_file = f"/tmp/.envsuite-cmd-{self._next_name('pid')}"
        # timeout makes its own process group; whatever the command left running in it
        # (background jobs, a fork bomb) is killed when the command returns.
        wrapper = (
            f'timeout -k {KILL_AFTER_S} {timeout_s:.3f}s "$@" & tpid=$!; '
            'echo "$tpid" 2>/dev/null > "$0"; wait "$tpid"; rc=$?; '
            'kill -KILL -- "-$tpid" 2>/dev/null; kill -KILL -- "-$tpid" 2>/dev/null; exit "$rc"'
        )
        execution = _Execution(
            self, ["bash", "-c", wrapper, pid_file, *argv], AGENT_USER, REPO_DIR, limits
        )
        in_time = execution.done.wait(timeout_s + KILL_AFTER_S + WATCHDOG_GRACE_S)
        killed = False
        if not in_time or execution.buffer.full:
            killed = not in_time
            self._kill_group(pid_file)
            if not execution.done.wait(10.0):
                # Something outside the group holds the output open: end every user process.
                self._exec_simple(["kill", "-KILL", "-1"])
                execution.done.wait(10.0)
        # Closing our end also tells the engine to stop sending what nobody will read.
        execution.close()
        code = execution.exit_code()
        if code is None:
            code = 124 if killed else 137
        if code >= 128:
            self._settle()
        return execution.buffer, int(code), killed

    def _settle(self) -> None:
        """After a command died by a signal, let a dying container finish stopping.

        If the agent killed the container's init, its commands die with it while the
        engine may still report the container running for a moment; a probe exec tells a
        live container (``true`` exits 0: nothing to wait for) from a dying one (the probe
        raises or fails to start: wait until it stops), so the health check after the step
        sees the truth.
        """
        try:
            alive = self.container.exec_run(["true"], user=AGENT_USER).exit_code == 0
        except Exception:
            alive = False
        if not alive:  # the probe could not run (an engine error or a failed start)
            with contextlib.suppress(Exception):
                self.container.wait(timeout=30)

    def _kill_group(self, pid_file: str) -> None:
        script = f'pid=$(cat {shlex.quote(pid_file)} 2>/dev/null) && kill -KILL -- "-$pid"'
        self._exec_simple(["bash", "-c", script])

    # -- lifecycle -------------------------------------------------------------------
    def health(self) -> str | None:
        """None while the container runs; otherwise its state (exit code, OOM kill)."""
        if self._closed:
            return "the sandbox is closed"
        try:
            self.container.reload()
        except Exception as exc:
            return f"the container is gone ({type(exc).__name__})"
        state = self.container.attrs.get("State", {})
        if state.get("Running"):
            return None
        oom = " (killed for running out of memory)" if state.get("OOMKilled") else ""
        return f"the container stopped with exit code {state.get('ExitCode')}{oom}"

    def close(self) -> None:
        """Remove the container (idempotent; a container already gone is fine)."""
        if self._closed:
            return
        self._closed = True
        _live.discard(self)
        remove_container(self.container)

    def close_in_background(self) -> None:
        """Stop the container's processes now and remove it on a background thread.

        A reset need not wait the ~0.2 s that removing a container takes; removals still
        pending at interpreter exit are waited for.
        """
        if self._closed:
            return
        self._closed = True
        _live.discard(self)
        thread = threading.Thread(
            target=_remove_quietly, args=(self.container,), name="envsuite-remove", daemon=True
        )
        with _removals_lock:
            _removals[:] = [t for t in _removals if t.is_alive()]
            _removals.append(thread)
        thread.start()


class _Execution:
    """One exec on the engine, its output pumped into a head/tail buffer by a thread.

    Args:
        sandbox: The sandbox whose container runs it (for its failure messages).
        argv: The command.
        user: ``uid:gid`` (or ``0``) to run it as.
        workdir: Its working directory.
        limits: How much of its output is kept and read.
    """

    def __init__(
        self, sandbox: DockerSandbox, argv: list[str], user: str, workdir: str, limits: OutputLimits
    ) -> None:
        self.sandbox = sandbox
        self.api = docker_client().api
        try:
            self.exec_id = self.api.exec_create(
                sandbox.container.id,
                argv,
                user=user,
                workdir=workdir,
                stdout=True,
                stderr=True,
                tty=False,
            )["Id"]
            self.connection = self.api.exec_start(self.exec_id, socket=True)
        except Exception as exc:
            raise sandbox._failure("starting a command", exc) from exc
        self.buffer = HeadTailBuffer(limits)
        self.done = threading.Event()
        threading.Thread(target=self._pump, name="envsuite-swe-exec", daemon=True).start()

    def _pump(self) -> None:
        frames_iter = docker_module().utils.socket.frames_iter
        try:
            for _, chunk in frames_iter(self.connection, False):
                self.buffer.feed(chunk)
                if self.buffer.full:
                    break
        except Exception:  # the stream breaks when the container dies; health says why
            pass
        finally:
            self.done.set()

    def close(self) -> None:
        """Close the attach socket."""
        _close_connection(self.connection)

    def exit_code(self) -> int | None:
        """The exec's exit code once it has ended (waiting up to 5 s); None if it has not."""
        try:
            info = self.api.exec_inspect(self.exec_id)
            for _ in range(50):
                if not info.get("Running"):
                    break
                time.sleep(0.1)
                info = self.api.exec_inspect(self.exec_id)
        except Exception as exc:
            raise self.sandbox._failure("reading a command's exit status", exc) from exc
        code = info.get("ExitCode")
        return None if code is None or info.get("Running") else int(code)


class _DockerCollector(ResultCollector):
    """The collector running as root in a background exec of the sandbox's container."""

    def __init__(self, sandbox: DockerSandbox, folder: str, execution: _Execution) -> None:
        super().__init__(folder)
        self.sandbox = sandbox
        self.execution = execution

    def finish(self) -> Collected:
        """Wait for the collector; if its channels are still open, stop it (SIGTERM)."""
        done = self.execution.done
        for signal_name, wait_s in (("TERM", 10.0), ("KILL", 5.0)):
            if done.wait(SETTLE_S if signal_name == "TERM" else 0.0):
                break
            script = f'kill -{signal_name} "$(cat "$1")" 2>/dev/null; exit 0'
            self.sandbox._exec_simple(
                ["bash", "-c", script, "stop", f"{self.folder}/collector.pid"], ROOT_USER
            )
            done.wait(wait_s)
        self.execution.close()
        return parse_collector_output(self.execution.buffer.text())


def _close_connection(connection: Any) -> None:
    """Close an exec's attach socket (the SDK hands back a socket or a SocketIO on one)."""
    for target in (getattr(connection, "_sock", None), connection):
        if target is not None:
            with contextlib.suppress(Exception):
                target.close()


#: Sandboxes not closed yet; removed at interpreter exit so no container outlives its process
#: (``envsuite sandbox prune`` removes those of processes that were killed).
_live: weakref.WeakSet[DockerSandbox] = weakref.WeakSet()


_removals: list[threading.Thread] = []
_removals_lock = threading.Lock()


def _remove_quietly(container: Any) -> None:
    with contextlib.suppress(Exception):
        remove_container(container)


@atexit.register
def _close_live_sandboxes() -> None:
    for sandbox in list(_live):
        with contextlib.suppress(Exception):
            sandbox.close()
    with _removals_lock:
        pending = list(_removals)
    for thread in pending:
        thread.join(timeout=60)
