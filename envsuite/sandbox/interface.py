"""The sandbox interface: a repository in an isolated place where commands run.

Two implementations: :class:`~envsuite.sandbox.docker_sandbox.DockerSandbox` (a
hardened container; the default) and :class:`~envsuite.sandbox.local_sandbox.LocalSandbox`
(a temporary directory and subprocesses, for machines without Docker; **not isolated**).
The environment and the grader only speak this interface.
"""

from __future__ import annotations

import abc
import dataclasses
import posixpath
from collections.abc import Mapping

from envsuite.sandbox.output_limits import OutputLimits
from envsuite.sandbox.result_channels import ResultCollector

#: Seconds a command may run when the action gives no timeout.
DEFAULT_COMMAND_TIMEOUT = 60.0
#: Largest file ``read_file`` returns whole (larger ones are refused, not cut).
MAX_FILE_BYTES = 2 * 1024 * 1024


class SandboxError(Exception):
    """The sandbox itself failed (it died, or the engine refused): not the agent's doing."""


class SandboxDied(SandboxError):
    """The sandbox is gone (for example the agent killed its container's init)."""


class FileAccessError(Exception):
    """A file operation the agent asked for failed (missing, too large, a directory...)."""


@dataclasses.dataclass(frozen=True)
class CommandResult:
    """What a command produced.

    Attributes:
        output: stdout and stderr interleaved, cut to the head and tail (see
            :class:`~envsuite.sandbox.output_limits.HeadTailBuffer`).
        exit_code: The command's exit status (124 after its timeout, as ``timeout`` reports).
        timed_out: Whether the command was killed at its timeout.
        output_bytes: Bytes the command wrote (as far as they were read).
        bytes_cut: Bytes left out of ``output`` between its head and tail.
        output_limit_hit: Whether the command was killed for writing more than the stream
            limit.
    """

    output: str
    exit_code: int
    timed_out: bool
    output_bytes: int
    bytes_cut: int
    output_limit_hit: bool = False


@dataclasses.dataclass(frozen=True)
class SandboxEnvironment:
    """What a sandbox needs to know about a task's software environment.

    Attributes:
        image: The Docker image tag (ignored by the local sandbox).
        python_path: Directories, relative to the repository, put on ``PYTHONPATH`` for the
            agent and for the test runner (``"."`` for a flat layout, ``"src"`` ...).
    """

    image: str
    python_path: tuple[str, ...] = (".",)


def repo_relative(path: str) -> str:
    """Normalise an agent-given path to one relative to the repository root.

    Absolute paths must lie under the repository (``/repo/...``); ``..`` may not leave it.

    Raises:
        FileAccessError: the path is empty, holds a NUL, or leaves the repository.
    """
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise FileAccessError("the path must be a non-empty string without NUL characters")
    text = path.strip()
    if text.startswith("/"):
        if text == REPO_DIR or text.startswith(REPO_DIR + "/"):
            text = text[len(REPO_DIR) :].lstrip("/") or "."
        else:
            raise FileAccessError(f"{path!r} is outside the repository ({REPO_DIR})")
    normal = posixpath.normpath(text)
    if normal == ".." or normal.startswith("../"):
        raise FileAccessError(f"{path!r} leaves the repository")
    if normal == ".":
        raise FileAccessError(f"{path!r} is the repository itself, not a file")
    return normal


#: Where the repository lives, as the agent sees it (the local sandbox maps it to a temp dir).
REPO_DIR = "/repo"


class Sandbox(abc.ABC):
    """A place holding one repository, where commands run under limits.

    A sandbox is used for one episode (or one grading) and then closed; it is never reused,
    so nothing one agent did can reach the next.
    """

    #: The repository directory inside the sandbox.
    repo_dir: str = REPO_DIR

    @abc.abstractmethod
    def load_repo(self, archive: bytes) -> None:
        """Unpack ``archive`` into the empty repository directory.

        ``archive`` is an uncompressed tar whose members are relative to the repository
        root, ``.git`` included.
        """

    @abc.abstractmethod
    def run(
        self,
        command: str,
        *,
        timeout_s: float = DEFAULT_COMMAND_TIMEOUT,
        limits: OutputLimits | None = None,
    ) -> CommandResult:
        """Run ``command`` with bash in the repository directory, as the unprivileged user.

        The command runs as its own process group under ``timeout``; on expiry (or when its
        output passes ``limits.stream_bytes``) the whole group is killed. Output is read as
        a stream and cut (head and tail kept), never buffered whole.
        """

    @abc.abstractmethod
    def read_file(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
        """The bytes of a repository file (``path`` relative to the repository).

        Raises:
            FileAccessError: missing, not a regular file, unreadable or over ``max_bytes``.
        """

    @abc.abstractmethod
    def write_file(self, path: str, data: bytes) -> None:
        """Create or overwrite a repository file (parent folders are created).

        Raises:
            FileAccessError: the file cannot be written by the unprivileged user.
        """

    @abc.abstractmethod
    def put_private_file(self, name: str, data: bytes) -> str:
        """Place a file outside the repository (patches, for the grader); return its path."""

    @abc.abstractmethod
    def read_private_file(self, path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes | None:
        """Read a file the sandbox wrote outside the repository; None when it is missing."""

    @property
    @abc.abstractmethod
    def private_dir(self) -> str:
        """A directory outside the repository that the unprivileged user may write."""

    @property
    @abc.abstractmethod
    def test_runner(self) -> list[str]:
        """Argv prefix that runs pytest through envsuite's runner script.

        See :mod:`envsuite.sandbox.pytest_runner`.
        """

    @abc.abstractmethod
    def seal_repo(self, extra_files: Mapping[str, bytes]) -> str:
        """Copy the repository and ``extra_files`` where the tests' user cannot change them.

        The grader runs the tests in the copy; returns its directory. In the Docker
        sandbox the copy belongs to root on its own tmpfs; the local sandbox only removes
        write permission (the same user can restore it).

        Raises:
            SandboxError: the copy failed, or an extra file would overwrite one.
        """

    @abc.abstractmethod
    def start_collector(self) -> ResultCollector:
        """Start envsuite's result collector (:mod:`.result_collector`) beside the copy.

        It runs as a user the unprivileged user cannot signal, trace or write to (root
        without capabilities in Docker; the calling user in the local sandbox).

        Raises:
            SandboxError: the collector did not start.
        """

    @abc.abstractmethod
    def health(self) -> str | None:
        """None when the sandbox is usable; otherwise why it is not."""

    @abc.abstractmethod
    def close(self) -> None:
        """Destroy the sandbox and everything in it (idempotent)."""

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
