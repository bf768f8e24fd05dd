"""The test runner the grader starts; copied into every task image, used in place locally.

Plain mode (screening during dataset synthesis, trusted code)::

    python -I pytest_runner.py --path DIR ... -- PYTEST_ARGS

Grading mode (the agent's code under test)::

    python -I pytest_runner.py --events FIFO --junit FIFO --repo DIR --path DIR ... -- ARGS

It imports nothing from envsuite (it runs inside the image). ``-I`` keeps the working
directory, ``PYTHONPATH`` and user site-packages off ``sys.path`` while pytest is imported,
so a ``pytest.py`` or ``_pytest/`` planted in the repository cannot replace the runner; the
repository's import roots are appended afterwards, behind the standard library. Plugins
installed as entry points are never loaded.

In grading mode the results leave the process as they happen, over two write-only FIFOs
whose reader is envsuite's result collector (:mod:`.result_collector`, a process the code
under test cannot signal, trace or write to):

- ``events``: one JSON line per pytest report, written by the result plugin below from its
  ``tryfirst`` hooks, numbered (``seq``) so a line written by anything else breaks the
  sequence; then ``finish`` (pytest's exit status) and ``exit`` (the runner's exit code);
- ``junit``: pytest's own JUnit XML, written to ``/dev/fd/N`` of an already open FIFO.

Both are opened before pytest (and so before any repository code) is imported; the
collector removes their names once they are open, and bytes in a FIFO cannot be read back
or rewritten by a writer: code under test can add lines (which the grader detects as
breaks in the sequence, duplicates or XML that no longer parses) but never take back what
was sent. The runner ends with ``os._exit``, so ``atexit`` hooks of the code under test
never run, and the grader requires the ``finish`` and ``exit`` records: a process that
ended early (``os._exit`` from the library) has neither.

In-process guards, best effort (code in the same process can in principle undo anything
done in it; see the SWE threat model in ``envsuite/families/swe/THREAT_MODEL.md``):

- an audit hook (which cannot be removed once added) refuses, and reports as ``tamper``
  before the operation happens: replacing the code, defaults or bases of pytest's and
  pluggy's functions and classes, ``gc`` object-graph walks, ``ctypes`` symbol lookups and
  raw memory reads, ``fcntl`` on the channels, and opening the channels (by name, by
  ``/proc/*/fd`` or by descriptor) or any ``/proc/*/mem``; writes into the repository under
  test are refused;
- ``os``'s descriptor functions (``write``, ``dup2``, ``close``...) refuse the channels'
  descriptors; the runner writes its records with the ``os.write`` it saved at start-up;
- pytest's and pluggy's modules refuse attribute assignment from outside the harness;
- the result plugin compares the functions of the modules on the reporting path after
  every test, and at the end of the session every function and class member of pytest,
  pluggy, ``builtins``, ``sys``, ``os``, ``io`` and ``json``, the registered plugins and the
  hook implementations, against a snapshot taken before collection (ordinary attribute
  writes to classes raise no audit event, so this is what catches them).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

Emit = Callable[..., None]

#: Top-level packages of the test harness the code under test must leave alone.
HARNESS_PACKAGES = frozenset({"_pytest", "pytest", "pluggy"})
#: Audit events refused outright in grading mode (object-graph walks, raw memory access).
REFUSED_EVENTS = frozenset(
    {
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "ctypes.dlsym",
        "ctypes.dlsym/handle",
        "ctypes.string_at",
        "ctypes.wstring_at",
        "ctypes.cdata",
        "ctypes.cdata/buffer",
        "ctypes.PyObj_FromPtr",
        "ctypes.call_function",
    }
)
#: Harness modules on the path from a test to its report, checked after every test (the
#: whole harness is checked at the end of the session).
REPORTING_PATH = frozenset(
    {
        "_pytest.runner",
        "_pytest.reports",
        "_pytest.python",
        "_pytest.main",
        "_pytest.junitxml",
        "_pytest.skipping",
        "_pytest.outcomes",
        "_pytest.fixtures",
        "_pytest.nodes",
        "_pytest.terminal",
        "pluggy._callers",
        "pluggy._hooks",
        "pluggy._manager",
        "__main__",
    }
)
#: Modules of the interpreter whose functions the end-of-session check also compares.
PROCESS_MODULES = ("builtins", "sys", "os", "posix", "io", "_io", "json")
#: Attribute writes allowed on harness classes (Python's own class machinery sets them).
CLASS_MACHINERY = frozenset({"__doc__", "__qualname__", "__module__", "__name__"})
#: ``os`` functions that take descriptors; on the channels' descriptors they are refused
#: (the runner writes its records with the ``os.write`` it saved at start-up).
DESCRIPTOR_FUNCTIONS = (
    "write", "writev", "pwrite", "pwritev", "sendfile", "splice", "copy_file_range",
    "close", "closerange", "dup", "dup2", "ftruncate", "lseek", "set_blocking",
    "set_inheritable", "fchmod", "fchown", "fdopen",
)  # fmt: skip
#: Open flags that mean writing.
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


class Channel:
    """The events FIFO: numbered JSON lines written with the ``os.write`` of start-up."""

    __slots__ = ("dumps", "fd", "seq", "write")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.seq = 0
        self.write = os.write
        self.dumps = json.dumps

    def emit(self, event: str, **fields: Any) -> None:
        """Write one record; a channel that fails is left alone (the grader sees the gap)."""
        data = (self.dumps({"seq": self.seq, "event": event, **fields}) + "\n").encode()
        self.seq += 1
        try:
            while data:
                data = data[self.write(self.fd, data) :]
        except OSError:
            pass


def is_harness_module(name: object) -> bool:
    """Whether module ``name`` belongs to the test harness (pytest, pluggy, this runner)."""
    return isinstance(name, str) and (name.split(".")[0] in HARNESS_PACKAGES or name == __name__)


def _own_module(obj: object) -> str | None:
    """The ``__module__`` a class or function was defined in, read without running its code."""
    if isinstance(obj, type):
        try:
            return type.__dict__["__dict__"].__get__(obj, type).get("__module__")
        except Exception:
            return None
    if isinstance(obj, types.FunctionType):
        return obj.__module__
    return None


def _write_intent(mode: object, flags: object) -> bool:
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & WRITE_FLAGS)


def _path_text(path: object) -> str | None:
    if isinstance(path, bytes):
        return os.fsdecode(path)
    return path if isinstance(path, str) else None


def guard_descriptors(channel_fds: Iterable[int], emit: Emit) -> None:
    """Replace ``os``'s (and ``posix``'s) descriptor functions by guarded ones.

    The guarded ones refuse the channels' descriptors (``os.dup2(devnull, 3)``,
    ``os.write(3, forged)``...).
    """
    import posix

    protected = frozenset(channel_fds)

    def guarded(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def guard(*args: Any, **kwargs: Any) -> Any:
            numbers = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
            if name == "closerange" and len(numbers) >= 2:
                hit = any(numbers[0] <= fd < numbers[1] for fd in protected)
            else:
                hit = any(n in protected for n in numbers)
            if hit:
                emit("tamper", what="using a result channel's descriptor", detail=f"os.{name}")
                raise PermissionError(f"envsuite grading refuses os.{name} on a result channel")
            return original(*args, **kwargs)

        guard.__name__ = guard.__qualname__ = name
        return guard

    for module in (os, posix):
        for name in DESCRIPTOR_FUNCTIONS:
            original = module.__dict__.get(name)
            if original is not None:
                setattr(module, name, guarded(name, original))


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino)


def make_audit_hook(
    channel: Channel,
    state: dict[str, bool],
    channel_dir: str,
    repo_dir: str,
    junit_path: str,
    channel_fds: tuple[int, ...],
) -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook of grading mode (see the module docstring).

    ``state["armed"]`` turns on the checks that pytest's own import would trip.
    """
    channel_dir = os.path.realpath(channel_dir) + os.sep
    repo_dir = os.path.realpath(repo_dir) + os.sep
    channels = {(info.st_dev, info.st_ino) for info in map(os.fstat, channel_fds)}
    realpath = os.path.realpath
    refused = REFUSED_EVENTS
    emit = channel.emit

    def refuse(what: str, detail: object) -> None:
        emit("tamper", what=what, detail=str(detail)[:300])
        raise PermissionError(f"envsuite grading refuses {what}: {detail}")

    def audit(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            if args and isinstance(args[0], int) and args[0] in channel_fds:
                refuse("opening a result channel's descriptor", args[0])
            path = _path_text(args[0]) if args else None
            if path is None or path == junit_path:
                return
            full = realpath(path)
            if full.startswith(channel_dir) or (
                full.startswith(("/proc/", "/dev/")) and _identity(path) in channels
            ):
                refuse("opening a result channel", path)
            if full.startswith("/proc/") and full.endswith("/mem"):
                refuse("opening a process's memory", path)
            if full.startswith(repo_dir) and _write_intent(
                args[1] if len(args) > 1 else None, args[2] if len(args) > 2 else None
            ):
                raise PermissionError(f"the repository under test is read-only: {path}")
        elif event == "fcntl.fcntl" and args and args[0] in channel_fds:
            refuse("fcntl on a result channel", args[0])
        elif event in refused:
            if state["armed"]:
                refuse(f"the {event} operation", event)
        elif event in ("object.__setattr__", "object.__delattr__"):
            if not state["armed"] or len(args) < 2:
                return
            target, name = args[0], args[1]
            module = _own_module(target)
            if not is_harness_module(module):
                return
            if isinstance(target, type) and name in CLASS_MACHINERY:
                return
            where = getattr(target, "__qualname__", "?")
            refuse("changing the test harness", f"{module}.{where}.{name}")

    return audit


class GuardedModule(types.ModuleType):
    """A harness module that refuses attribute assignment (``module.func = fake``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        # pytest sets some of its own module globals at run time, and the import system
        # binds a newly imported submodule to its package: both are allowed.
        own = types.ModuleType.__getattribute__(self, "__name__")
        submodule = isinstance(value, types.ModuleType) and value.__name__ == f"{own}.{name}"
        if submodule or is_harness_module(sys._getframe(1).f_globals.get("__name__")):
            types.ModuleType.__setattr__(self, name, value)
            return
        _tamper(f"assigning {types.ModuleType.__getattribute__(self, '__name__')}.{name}")

    def __delattr__(self, name: str) -> None:
        if is_harness_module(sys._getframe(1).f_globals.get("__name__")):
            types.ModuleType.__delattr__(self, name)
            return
        _tamper(f"deleting {types.ModuleType.__getattribute__(self, '__name__')}.{name}")


_report: list[Emit] = []


def _tamper(detail: str) -> None:
    for emit in _report:
        emit("tamper", what="changing the test harness", detail=detail[:300])
    raise PermissionError(f"envsuite grading refuses {detail}")


def harness_modules(process: bool = False) -> dict[str, types.ModuleType]:
    """The loaded harness modules by name (with :data:`PROCESS_MODULES` if ``process``)."""
    return {
        name: module
        for name, module in list(sys.modules.items())
        if isinstance(module, types.ModuleType)
        and (is_harness_module(name) or (process and name in PROCESS_MODULES))
    }


def fingerprint(modules: dict[str, types.ModuleType], members: bool = True) -> dict[str, int]:
    """Identity of every function and class in ``modules`` (and of their classes' members)."""
    marks = {}
    for name, module in modules.items():
        marks[name] = id(module)
        for key, value in list(types.ModuleType.__getattribute__(module, "__dict__").items()):
            if isinstance(value, type):
                marks[f"{name}.{key}"] = id(value)
                if members and _own_module(value) == name:
                    for attr, member in list(type.__dict__["__dict__"].__get__(value).items()):
                        if callable(member) or hasattr(member, "__get__"):
                            marks[f"{name}.{key}.{attr}"] = id(member)
            elif callable(value):
                marks[f"{name}.{key}"] = id(value)
                code = getattr(value, "__code__", None) if members else None
                if code is not None:
                    marks[f"{name}.{key}.__code__"] = id(code)
    return marks


def changed(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """Names whose identity differs between two fingerprints (new names are fine)."""
    return sorted(k for k, v in before.items() if k in after and after[k] != v)


def make_plugin(pytest: Any, channel: Channel, state: dict[str, bool], repo_dir: str) -> Any:
    """The result plugin: reports every outcome, then checks the harness is untouched."""
    repo_dir = os.path.realpath(repo_dir) + os.sep

    def allowed_plugin(plugin: object) -> bool:
        path = getattr(plugin, "__file__", None)
        if not isinstance(path, str) or not os.path.realpath(path).startswith(repo_dir):
            return False
        parts = os.path.relpath(os.path.realpath(path), repo_dir).split(os.sep)
        name = parts[-1]
        return (
            name == "conftest.py"
            or name.startswith("test_")
            or name.endswith("_test.py")
            or any(p in ("tests", "test", "testing") for p in parts[:-1])
        )

    def hook_marks(config: Any) -> dict[tuple[str, int], tuple[Any, Any]]:
        marks = {}
        for name in dir(config.hook):
            if not name.startswith("pytest_"):
                continue
            get_hookimpls = getattr(getattr(config.hook, name), "get_hookimpls", None)
            if get_hookimpls is None:
                continue
            for impl in get_hookimpls():
                marks[(name, id(impl))] = (impl.plugin, impl.function)
        return marks

    class ResultPlugin:
        """Streams outcomes to the events channel and checks the harness."""

        __slots__ = ("config", "hooks", "marks", "modules", "plugins")

        def __init__(self) -> None:
            self.modules: dict[str, types.ModuleType] = {}
            self.marks: dict[str, int] = {}
            self.plugins: list[object] = []
            self.hooks: dict[tuple[str, int], tuple[Any, Any]] = {}
            self.config: Any = None

        def check(self, full: bool) -> list[str]:
            """Emit a ``tamper`` record for every change to the harness found; return them."""
            problems = []
            if full:
                problems += [
                    f"module {name} was replaced"
                    for name, module in self.modules.items()
                    if sys.modules.get(name) is not module
                ]
                now = fingerprint(harness_modules(process=True))
                problems += [f"{name} was replaced" for name in changed(self.marks, now)]
                if sys.gettrace() is not None or sys.getprofile() is not None:
                    problems.append("a trace or profile function is set")
            else:
                path = {k: m for k, m in self.modules.items() if k in REPORTING_PATH}
                now = fingerprint(path, members=False)
                problems += [f"{name} was replaced" for name in changed(self.marks, now)]
            config = self.config
            for name, plugin in config.pluginmanager.list_name_plugin():
                if plugin is not None and not any(plugin is p for p in self.plugins):
                    self.plugins.append(plugin)
                    if not allowed_plugin(plugin):
                        problems.append(f"plugin {name!r} was registered by the code under test")
            if full:
                hooks = hook_marks(config)
                for key, (plugin, function) in self.hooks.items():
                    current = hooks.get(key)
                    if current is None or current[1] is not function:
                        problems.append(f"hook {key[0]} of {type(plugin).__name__} was altered")
            for problem in problems[:20]:
                channel.emit("tamper", what="changing the test harness", detail=problem[:300])
            return problems

        @pytest.hookimpl(trylast=True)
        def pytest_sessionstart(self, session: Any) -> None:
            self.config = session.config
            self.modules = harness_modules(process=True)
            self.marks = fingerprint(self.modules)
            self.plugins = [p for _, p in session.config.pluginmanager.list_name_plugin() if p]
            self.hooks = hook_marks(session.config)
            state["armed"] = True
            channel.emit("start")

        @pytest.hookimpl(tryfirst=True)
        def pytest_collectreport(self, report: Any) -> None:
            if report.outcome != "passed":
                location = getattr(report, "location", None) or (None,)
                channel.emit(
                    "collect", nodeid=report.nodeid, file=location[0], outcome=report.outcome
                )

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_logreport(self, report: Any) -> None:
            location = getattr(report, "location", None) or (None,)
            channel.emit(
                "report",
                nodeid=report.nodeid,
                file=location[0],
                when=report.when,
                outcome=report.outcome,
            )
            if report.when == "teardown":
                self.check(full=False)

        @pytest.hookimpl(tryfirst=True)
        def pytest_sessionfinish(self, session: Any, exitstatus: int) -> None:
            self.check(full=True)
            channel.emit(
                "finish",
                exitstatus=int(exitstatus),
                collected=int(getattr(session, "testscollected", 0)),
                failed=int(getattr(session, "testsfailed", 0)),
            )

    return ResultPlugin()


def _parse(argv: list[str]) -> tuple[dict[str, Any], list[str]]:
    options: dict[str, Any] = {"path": [], "events": None, "junit": None, "repo": None}
    while argv and argv[0] != "--":
        key = argv[0][2:]
        if key not in options or len(argv) < 2:
            raise SystemExit(f"pytest_runner: unknown or incomplete option {argv[0]!r}")
        if key == "path":
            options["path"].append(argv[1])
        else:
            options[key] = argv[1]
        argv = argv[2:]
    return options, argv[1:]


def main(argv: Iterable[str]) -> int:
    """Run pytest (see the module docstring); return its exit code."""
    options, args = _parse(list(argv))
    sys.dont_write_bytecode = True
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    if options["events"] is None:
        import pytest

        sys.path.extend(options["path"])
        return int(pytest.main(args))
    return _graded(options, args)


def _graded(options: dict[str, Any], args: list[str]) -> int:
    exit_now = os._exit
    events_fd = os.open(options["events"], os.O_WRONLY)
    junit_fd = os.open(options["junit"], os.O_WRONLY)
    channel = Channel(events_fd)
    channel.emit("hello", pid=os.getpid())
    junit_path = f"/dev/fd/{junit_fd}"
    state = {"armed": False}
    repo = options["repo"] or os.getcwd()
    channel_dir = os.path.dirname(os.path.abspath(options["events"]))
    sys.addaudithook(
        make_audit_hook(channel, state, channel_dir, repo, junit_path, (events_fd, junit_fd))
    )
    code = 3
    try:
        import pytest

        for module in harness_modules().values():
            with contextlib.suppress(TypeError):
                module.__class__ = GuardedModule
        _report.append(channel.emit)
        guard_descriptors((events_fd, junit_fd), channel.emit)
        plugin = make_plugin(pytest, channel, state, repo)
        sys.path.extend(options["path"])
        code = int(pytest.main([*args, f"--junitxml={junit_path}"], plugins=[plugin]))
    except BaseException as exc:
        channel.emit("crash", error=f"{type(exc).__name__}: {exc}"[:300])
    finally:
        channel.emit("exit", code=code)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        # The code under test may have registered atexit hooks or left threads: skip them.
        exit_now(code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
