"""The README's two set-up commands on a fresh machine, started early and run beside the suite.

The test command runs the whole suite again inside a container; run after the outer suite
it would double CI's wall time. So, as soon as pytest has collected the tests of
:mod:`tests.test_fresh_machine` (and only then), :func:`start_fresh_machine_runs` builds the
fresh-machine image and starts both commands at once, each in its own container and thread:
the test command, the critical path of CI (install everything, then the whole suite), is
not queued behind the main job (a minute or two of install and evaluation). The outer
suite goes on meanwhile. Those tests are moved to the end of the run and only wait for
their command's result.

The image does not wait for collection (tens of seconds: every test module is imported)
when the run will surely want it: :func:`start_image_build_early` starts building it when
the session starts, if the paths given to pytest cover :data:`TEST_MODULE` and no ``-k``
or ``-m`` may deselect it.

The test command's container and this machine share the suite rather than each running
all of it (:mod:`tests.split_suite`): a queue folder on this machine is mounted into that
container, and each test module runs once, on whichever side claims it first. The commands
themselves are the README's, verbatim, in separate fresh containers (they share nothing but
the image and that folder), with the same time limits. The image and containers are removed
when the session ends, also after ``-x``, Ctrl-C or SIGTERM (``timeout``, a cancelled CI job):
a still-running container is killed. Only SIGKILL leaves them behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from envsuite.errors import MissingExtraError
from envsuite.sandbox.docker_client import docker_unavailable_reason
from tests.fresh_machine import (
    CommandRun,
    build_fresh_machine_image,
    container_settings,
    fresh_container,
    list_files,
    remove_image,
    run_to_end,
)
from tests.split_suite import QUEUE_MOUNT, QUEUE_VARIABLE, SPLIT_KEY, new_host_split

#: The module whose tests wait for these runs.
TEST_MODULE = "test_fresh_machine.py"
#: Set in the fresh-machine containers: the suite inside does not start these runs again.
INNER_VARIABLE = "ENVSUITE_FRESH_MACHINE"
#: Generous upper bounds; a command that needs more has hung.
MAIN_JOB_TIMEOUT_S = 15 * 60
TEST_COMMAND_TIMEOUT_S = 40 * 60
#: Where in the main job's container its report must land.
REPORT_FOLDER = "/root/envsuite/runs/demo/report"

RUNS_KEY = pytest.StashKey["FreshMachineRuns"]()
EARLY_BUILD_KEY = pytest.StashKey["ImageBuild"]()


def inner_environment() -> dict[str, str]:
    """The variables of the commands' containers (no Docker in there, no recursion)."""
    # Unbuffered output: after a kill, the log still shows where the command was (it does
    # not change what runs; the slowest tests are listed by the addopts). pip installs without
    # byte-compiling the ~20,000 modules of the test extra (torch, ray, jax, ...): Python
    # compiles the ones a test imports when it first does, and nothing is left uninstalled.
    # (PIP_COMPILE=0 is pip's --no-compile; PIP_NO_COMPILE=1 would mean --compile.)
    return {
        INNER_VARIABLE: "1",
        "ENVSUITE_REQUIRE_DOCKER": "0",
        "PYTHONUNBUFFERED": "1",
        "PIP_COMPILE": "0",
    }


@dataclass
class ImageBuild:
    """The fresh-machine image, built in a background thread; its tag in :attr:`image`."""

    log_dir: Path
    image: Future[str] = field(default_factory=Future)

    def start(self) -> None:
        """Start the build."""
        threading.Thread(target=self._build, name="fresh-machine-image", daemon=True).start()

    def remove(self, timeout_s: float) -> None:
        """Remove the image once built (waiting up to ``timeout_s`` for the build)."""
        with contextlib.suppress(Exception):
            remove_image(self.image.result(timeout=timeout_s))

    def _build(self) -> None:
        try:
            with (self.log_dir / "image-build.log").open("w", encoding="utf-8") as build_log:
                self.image.set_result(
                    build_fresh_machine_image(
                        log=lambda *parts: print(*parts, file=build_log, flush=True)
                    )
                )
        except BaseException as exc:  # reported by every test waiting for a command
            self.image.set_exception(exc)


@dataclass
class MainJobRun:
    """How the main job ended, and the files it left in its report folder."""

    run: CommandRun
    report_files: list[str]


@dataclass
class FreshMachineRuns:
    """Both README commands, each run in its own container and background thread.

    Arguments:
        commands: the README's main-job and test commands, in that order.
        build: the image build (started already, or started by :meth:`start`); its log
            folder is where each command's output is written too.
        run_main_job: run the main job (its test was selected).
        run_test_command: run the test command (its test was selected).
        queue_folder: the suite split's queue, mounted into the test command's container.
    """

    commands: tuple[str, str]
    build: ImageBuild
    run_main_job: bool = True
    run_test_command: bool = True
    queue_folder: Path | None = None
    main_job: Future[MainJobRun] = field(default_factory=Future)
    test_command: Future[CommandRun] = field(default_factory=Future)
    _containers: list[Any] = field(default_factory=list)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _main_job_thread: threading.Thread | None = None

    def start(self, build_started: bool = False) -> None:
        """Start the image build (unless ``build_started``) and the background thread (once)."""
        if not build_started:
            self.build.start()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="fresh-machine", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Kill the still-running containers, wait for the threads, remove the image."""
        self._stopping.set()
        for container in list(self._containers):
            with contextlib.suppress(Exception):
                container.kill()
        for thread in (self._thread, self._main_job_thread):
            if thread is not None:
                thread.join(timeout=60)
        self.build.remove(timeout_s=60)

    @property
    def log_dir(self) -> Path:
        """Where the image build's and each command's output is written."""
        return self.build.log_dir

    def _run(self) -> None:
        try:
            self.build.image.result()
        except BaseException as exc:  # reported by every test still waiting
            for future in (self.main_job, self.test_command):
                future.set_exception(exc)
            return
        if self.run_main_job:
            self._main_job_thread = threading.Thread(
                target=_settle,
                args=(self.main_job, self._main_job),
                name="fresh-machine-main-job",
                daemon=True,
            )
            self._main_job_thread.start()
        if self.run_test_command:
            _settle(self.test_command, self._test_command)

    def _main_job(self) -> MainJobRun:
        settings, environment = container_settings(), inner_environment()
        with fresh_container(self._image_tag(), self.commands[0], settings, environment) as box:
            self._containers.append(box)
            run = run_to_end(box, self.log_dir / "main-job.log", MAIN_JOB_TIMEOUT_S)
            files = list_files(box, REPORT_FOLDER) if run.status == 0 else []
        return MainJobRun(run, files)

    def _test_command(self) -> CommandRun:
        settings, environment = container_settings(), inner_environment()
        if self.queue_folder is not None:
            settings.writable[str(self.queue_folder)] = QUEUE_MOUNT
            environment[QUEUE_VARIABLE] = QUEUE_MOUNT
        with fresh_container(self._image_tag(), self.commands[1], settings, environment) as box:
            self._containers.append(box)
            return run_to_end(box, self.log_dir / "test-command.log", TEST_COMMAND_TIMEOUT_S)

    def _image_tag(self) -> str:
        if self._stopping.is_set():
            raise RuntimeError("the pytest session ended before the fresh-machine runs")
        return self.build.image.result()


def _settle(future: Future[Any], work: Any) -> None:
    """Run ``work()`` and put its result, or what it raised, into ``future``."""
    try:
        future.set_result(work())
    except BaseException as exc:  # reported by the test that waits for it
        future.set_exception(exc)


def docker_problem() -> str | None:
    """Why Docker cannot run the fresh machine here, or None."""
    try:
        return docker_unavailable_reason()
    except MissingExtraError as exc:
        return str(exc)


def start_fresh_machine_runs(
    config: pytest.Config, items: list[pytest.Item], commands: tuple[str, str]
) -> None:
    """Move the fresh-machine tests to the end and start their commands, if they will run."""
    waiting = [item for item in items if item.path.name == TEST_MODULE and _needs_runs(item)]
    if not waiting or os.environ.get(INNER_VARIABLE) == "1":
        return
    for item in waiting:
        items.remove(item)
    items.extend(waiting)
    early = config.stash.get(EARLY_BUILD_KEY, None)
    if early is None and (config.option.collectonly or docker_problem() is not None):
        return  # the tests themselves say why they skip or fail
    build = early or ImageBuild(_new_log_dir())
    names = {item.name for item in waiting}
    runs = FreshMachineRuns(
        commands,
        build,
        run_main_job=any("main_job" in name for name in names),
        run_test_command=any("test_command" in name for name in names),
    )
    if runs.run_test_command:  # share the suite with its container (tests/split_suite.py)
        split = new_host_split(container_done=runs.test_command.done)
        split.claim_host_only(items)
        runs.queue_folder = split.queue.folder
        config.stash[SPLIT_KEY] = split
    config.stash[RUNS_KEY] = runs
    interrupt_on_sigterm()
    runs.start(build_started=early is not None)


def interrupt_on_sigterm() -> None:
    """Make SIGTERM end this pytest as Ctrl-C does, so that the session still finishes.

    By default SIGTERM (sent by ``timeout`` or a cancelled CI job) ends the process at once,
    and the containers and image this module started outlive it. As a KeyboardInterrupt,
    pytest stops the run and calls ``pytest_sessionfinish``, which removes them. Only from
    the main thread, and only while SIGTERM has its default action (a handler someone else
    installed is kept).
    """
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)


def _raise_keyboard_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def start_image_build_early(config: pytest.Config) -> None:
    """Start building the image at the session's start if this run will surely want it.

    That is: not inside a fresh machine, not ``--collect-only``, no ``-k`` or ``-m``, the
    paths given to pytest (or its ``testpaths``) cover :data:`TEST_MODULE`, and Docker is
    there. Otherwise the build starts after collection, if the tests are collected.
    """
    option = config.option
    if os.environ.get(INNER_VARIABLE) == "1" or option.collectonly:
        return
    if option.keyword or option.markexpr or not _covers_test_module(config):
        return
    if docker_problem() is not None:
        return
    build = ImageBuild(_new_log_dir())
    config.stash[EARLY_BUILD_KEY] = build
    interrupt_on_sigterm()
    build.start()


def stop_fresh_machine_runs(config: pytest.Config) -> None:
    """Stop the runs started for this session, if any (or remove an early-built image)."""
    runs = config.stash.get(RUNS_KEY, None)
    if runs is not None:
        runs.stop()
        return
    early = config.stash.get(EARLY_BUILD_KEY, None)
    if early is not None:  # built for tests that were not collected in the end
        early.remove(timeout_s=15 * 60)


def _new_log_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="envsuite-fresh-machine-logs-"))


def _covers_test_module(config: pytest.Config) -> bool:
    """Whether a path pytest was given is :data:`TEST_MODULE` or a folder holding it."""
    module = Path(__file__).resolve().with_name(TEST_MODULE)
    base = config.invocation_params.dir
    for arg in config.args:
        path = (base / arg.split("::")[0]).resolve()
        if path == module or path in module.parents:
            return True
    return False


def started_runs(config: pytest.Config) -> FreshMachineRuns | None:
    """The runs started for this session, or None."""
    return config.stash.get(RUNS_KEY, None)


def _needs_runs(item: pytest.Item) -> bool:
    return "fresh_runs" in getattr(item, "fixturenames", ())
