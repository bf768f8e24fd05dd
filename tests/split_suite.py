"""The suite split between this machine and the fresh-machine container: each test runs once.

CI's test command runs the suite here and, through ``tests/test_fresh_machine.py``, runs the
README's test command verbatim inside a fresh Debian container. Run in full on both sides,
every test ran twice on CI's two cores. Instead, the two pytest sessions share a queue
folder (mounted into the container) and take the test modules from it one at a time:
whichever side is free claims the next module, so the container, ready minutes later
(image build, apt, pip install), takes what is left when it gets there. Each module runs
once, on one side, and both sides' results count: the fresh-machine test fails if the
container's pytest does.

- A module is claimed by creating its file in ``claims/`` with ``O_EXCL``: atomic on the
  one disk both sides see.
- This machine keeps what only it can run, claimed before the container starts: modules
  with a test that needs Docker (the ``docker_ready`` fixture), the fresh-machine tests
  themselves, and tests marked ``host_only``.
- A test the container skips (no Docker, not a git checkout, ...) is handed back: the
  container lists it in ``handback/`` when its module is done, and this machine runs it.
- The container marks each module it finished in ``finished/``. If it dies, this machine
  runs the modules it claimed but did not finish, so every test still runs once (and the
  fresh-machine test fails with the container's log).
- Each side says in its terminal summary what it ran and what the other side took.

Without a queue (a subset such as ``pytest tests/families``, ``-k``, no Docker, or inside a
container started without :data:`QUEUE_VARIABLE`) pytest's own loop runs every test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest

#: Set in the fresh-machine container: where the shared queue folder is mounted.
QUEUE_VARIABLE = "ENVSUITE_TEST_QUEUE"
#: The queue folder's path inside the container.
QUEUE_MOUNT = "/run/envsuite-test-queue"
#: Fixtures of tests that only this machine can run.
HOST_ONLY_FIXTURES = frozenset({"docker_ready", "fresh_runs"})
#: The marker of other tests that only this machine can run (or should, being slow to set up).
HOST_ONLY_MARK = "host_only"
#: The fixture of the tests that wait for the fresh-machine runs: they run last.
WAITING_FIXTURE = "fresh_runs"
HOST, CONTAINER = "host", "container"
#: How often this machine looks for handed-back tests while the container runs.
POLL_S = 2.0

SPLIT_KEY = pytest.StashKey["SuiteSplit"]()
#: Yielded by a plan before it waits: the pending test then runs with nothing after it.
WAIT = object()


def unit_of(item: pytest.Item) -> str:
    """The unit of the split: the test's module, as its node id spells it."""
    return item.nodeid.split("::", 1)[0]


def host_only(item: pytest.Item) -> bool:
    """Whether only this machine can run ``item``."""
    if item.get_closest_marker(HOST_ONLY_MARK) is not None:
        return True
    return bool(HOST_ONLY_FIXTURES & set(getattr(item, "fixturenames", ())))


def group_by_unit(items: list[pytest.Item]) -> dict[str, list[pytest.Item]]:
    """``items`` by unit, units in order of first appearance, items in their order."""
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        groups.setdefault(unit_of(item), []).append(item)
    return groups


@dataclass
class TestQueue:
    """The shared folder: who claimed which unit, which units the container finished, and
    the tests it handed back."""

    __test__ = False  # not a test class

    folder: Path

    def __post_init__(self) -> None:
        for kind in ("claims", "finished", "handback"):
            (self.folder / kind).mkdir(parents=True, exist_ok=True)

    def claim(self, unit: str, side: str) -> bool:
        """Claim ``unit`` for ``side``; False if some side has it already."""
        try:
            descriptor = os.open(self._path("claims", unit), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return False
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(side)
        return True

    def owner(self, unit: str) -> str | None:
        """The side that claimed ``unit``, or None."""
        try:
            return self._path("claims", unit).read_text(encoding="utf-8") or None
        except FileNotFoundError:
            return None

    def finish(self, unit: str, handed_back: list[str]) -> None:
        """Record that the container ran ``unit``, handing back the node ids it skipped."""
        if handed_back:
            self._write("handback", unit, "".join(f"{nodeid}\n" for nodeid in handed_back))
        self._write("finished", unit, "")

    def finished(self, unit: str) -> bool:
        """Whether the container finished ``unit``."""
        return self._path("finished", unit).exists()

    def handed_back(self) -> dict[str, list[str]]:
        """The node ids handed back so far, by unit."""
        return {
            unquote(path.name): path.read_text(encoding="utf-8").splitlines()
            for path in sorted((self.folder / "handback").iterdir())
            if not path.name.startswith(".")
        }

    def _path(self, kind: str, unit: str) -> Path:
        return self.folder / kind / quote(unit, safe="")

    def _write(self, kind: str, unit: str, text: str) -> None:
        """Write atomically: the other side never reads half a file."""
        path = self._path(kind, unit)
        partial = path.with_name(f".{path.name}.partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)


@dataclass(eq=False)  # a pytest plugin: hashed by identity
class SuiteSplit:
    """One side's part of the split: which tests it runs, in what order.

    Arguments:
        queue: the shared folder.
        side: :data:`HOST` (this machine) or :data:`CONTAINER`.
        container_done: on the host, whether the container's test command has ended.
        own_folder: on the host, the queue folder it made (removed at the end).
    """

    queue: TestQueue
    side: str
    container_done: Callable[[], bool] = lambda: True
    own_folder: bool = False
    ran: dict[str, int] = field(default_factory=dict)
    handed_back_run: int = 0
    _skipped: set[str] = field(default_factory=set)

    def claim_host_only(self, items: list[pytest.Item]) -> None:
        """Claim, before the container starts, every unit with a test only the host can run."""
        for unit, unit_items in group_by_unit(items).items():
            if any(host_only(item) for item in unit_items):
                self.queue.claim(unit, HOST)

    def plan(self, items: list[pytest.Item]) -> Iterator[Any]:
        """The tests this side runs, claimed as it goes; :data:`WAIT` before it waits."""
        return self._host_plan(items) if self.side == HOST else self._container_plan(items)

    def _host_plan(self, items: list[pytest.Item]) -> Iterator[Any]:
        waiting = [item for item in items if WAITING_FIXTURE in getattr(item, "fixturenames", ())]
        groups = group_by_unit([item for item in items if item not in waiting])
        own = [unit for unit in groups if self.queue.owner(unit) == HOST]
        shared = [unit for unit in groups if unit not in own]
        for unit in own:  # while the container is still being set up
            yield from self._count(unit, groups[unit])
        for unit in shared:
            if self.queue.claim(unit, HOST):
                yield from self._count(unit, groups[unit])
        yield from self._handed_back(groups)
        for unit in shared:  # the container died in them: run them here
            if self.queue.owner(unit) == CONTAINER and not self.queue.finished(unit):
                yield from self._count(unit, groups[unit])
        yield from waiting

    def _handed_back(self, groups: dict[str, list[pytest.Item]]) -> Iterator[Any]:
        taken: set[str] = set()
        while True:
            done = self.container_done()  # before reading: a last read after the end
            for unit, nodeids in self.queue.handed_back().items():
                if unit in taken or unit not in groups:
                    continue
                taken.add(unit)
                by_id = {item.nodeid: item for item in groups[unit]}
                # A node id this side does not know (an id spelled differently inside):
                # run the whole module rather than miss a test.
                wanted = (
                    groups[unit]
                    if any(n not in by_id for n in nodeids)
                    else [by_id[nodeid] for nodeid in nodeids]
                )
                self.handed_back_run += len(wanted)
                yield from wanted
            if done:
                return
            yield WAIT
            time.sleep(POLL_S)

    def _container_plan(self, items: list[pytest.Item]) -> Iterator[Any]:
        for unit, unit_items in group_by_unit(items).items():
            if self.queue.claim(unit, CONTAINER):
                yield from self._count(unit, unit_items)

    def _count(self, unit: str, unit_items: list[pytest.Item]) -> Iterator[pytest.Item]:
        self.ran[unit] = len(unit_items)
        yield from unit_items

    def after_run(self, item: pytest.Item, unit_items_left: int) -> None:
        """In the container: once a unit's last test has run, finish it in the queue."""
        if self.side != CONTAINER or unit_items_left:
            return
        unit = unit_of(item)
        prefix = f"{unit}::"
        skipped = sorted(n for n in self._skipped if n == unit or n.startswith(prefix))
        self.queue.finish(unit, skipped)

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Note the tests skipped here (not xfail), to hand back from the container."""
        if report.skipped and not hasattr(report, "wasxfail"):
            self._skipped.add(report.nodeid)

    def summary(self, interrupted: bool = False) -> str:
        """One line for the terminal summary (``interrupted``: the run stopped before its end)."""
        where = "this machine" if self.side == HOST else "the fresh-machine container"
        other = "the fresh-machine container" if self.side == HOST else "this machine"
        if interrupted:
            return (
                f"suite split: interrupted after {where} had started {len(self.ran)} "
                f"modules ({sum(self.ran.values())} tests); the rest did not run here"
            )
        line = (
            f"suite split: {where} ran {sum(self.ran.values())} tests of {len(self.ran)} "
            f"modules; the rest of the collected modules ran on {other}"
        )
        if self.side == HOST:
            line += f"; {self.handed_back_run} tests handed back by the container ran here"
        return line

    def close(self) -> None:
        """Remove the queue folder if this side made it."""
        if self.own_folder:
            shutil.rmtree(self.queue.folder, ignore_errors=True)


def new_host_split(container_done: Callable[[], bool]) -> SuiteSplit:
    """A split with a new queue folder on this machine (to mount into the container)."""
    folder = Path(tempfile.mkdtemp(prefix="envsuite-test-queue-"))
    return SuiteSplit(TestQueue(folder), HOST, container_done, own_folder=True)


def container_split() -> SuiteSplit | None:
    """Inside the fresh-machine container with a queue mounted: the container's split."""
    from tests.fresh_machine_runs import INNER_VARIABLE

    folder = os.environ.get(QUEUE_VARIABLE)
    if os.environ.get(INNER_VARIABLE) != "1" or not folder or not Path(folder).is_dir():
        return None
    return SuiteSplit(TestQueue(Path(folder)), CONTAINER)


def run_split(session: pytest.Session, split: SuiteSplit) -> bool:
    """pytest's run loop over ``split``'s plan instead of every collected test."""
    if session.testsfailed and not session.config.option.continue_on_collection_errors:
        raise session.Interrupted(
            f"{session.testsfailed} error{'s' if session.testsfailed != 1 else ''} "
            "during collection"
        )
    if session.config.option.collectonly:
        return True
    session.config.pluginmanager.register(split, "envsuite-suite-split")
    left = {unit: len(unit_items) for unit, unit_items in group_by_unit(session.items).items()}
    pending: pytest.Item | None = None
    for entry in split.plan(session.items):
        if entry is WAIT:
            if pending is not None:
                _run_one(session, split, pending, None, left)
                pending = None
            continue
        if pending is not None:
            _run_one(session, split, pending, entry, left)
        pending = entry
    if pending is not None:
        _run_one(session, split, pending, None, left)
    return True


def _run_one(
    session: pytest.Session,
    split: SuiteSplit,
    item: pytest.Item,
    nextitem: pytest.Item | None,
    left: dict[str, int],
) -> None:
    item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
    unit = unit_of(item)
    left[unit] -= 1
    split.after_run(item, left[unit])
    if session.shouldfail:
        raise session.Failed(session.shouldfail)
    if session.shouldstop:
        raise session.Interrupted(session.shouldstop)
