"""What of an agent's diff the grader applies: never its changes to tests or the test runner.

Dropped, whole file sections at a time:

- test files: any path with a ``tests``/``test``/``testing`` folder, ``test_*.py``,
  ``*_test.py``; and ``conftest.py`` anywhere;
- test-runner configuration: ``pytest.ini``, ``.pytest.ini``, ``tox.ini``, ``setup.cfg``;
- start-up hooks that run before any test: ``sitecustomize.py``, ``usercustomize.py``,
  ``*.pth``;
- packaging metadata, where entry points (pytest plugins among them) are declared:
  anything in a ``*.dist-info`` or ``*.egg-info`` folder, ``*.egg-link``,
  ``entry_points.txt``;
- compiled code the diff screen cannot read: ``*.pyc``, ``*.pyo``, ``__pycache__/``,
  ``*.so``, ``*.pyd``, ``*.dylib``, ``*.dll``;
- files outside every import root (with a ``src`` layout: ``setup.py``, ``docs/``...):
  the grader runs the library, not its packaging;
- a new module at an import root that would shadow a standard-library module or the test
  runner (``json.py``, ``pytest.py``, ``_pytest/...``).

What is kept is then screened line by line (:mod:`.diff_screen`).

``pyproject.toml`` changes are applied, but its ``[tool.pytest...]`` tables are put back as
they were at the base commit (:func:`restore_pytest_tables`).
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import sys
from collections.abc import Iterable

from envsuite.families.swe.unified_diff import FileDiff, split_file_diffs

TEST_FOLDERS = frozenset({"tests", "test", "testing"})
RUNNER_CONFIG = frozenset({"pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "conftest.py"})
STARTUP_HOOKS = frozenset({"sitecustomize.py", "usercustomize.py"})
RUNNER_MODULES = frozenset({"pytest", "_pytest", "py", "pluggy", "iniconfig", "packaging"})
METADATA_FOLDERS = (".dist-info", ".egg-info")
METADATA_FILES = frozenset({"entry_points.txt"})
COMPILED_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd", ".dylib", ".dll")
PYTEST_TABLE = re.compile(r"^\s*\[+\s*tool\.pytest\b")
TABLE_HEADER = re.compile(r"^\s*\[")


@dataclasses.dataclass(frozen=True)
class FilteredPatch:
    """The part of a diff the grader applies, and what it dropped (path, reason)."""

    diff: str
    kept_paths: tuple[str, ...]
    dropped: tuple[tuple[str, str], ...]


def is_test_file(path: str) -> bool:
    """Whether ``path`` is a test file by envsuite's rule (see the module docstring)."""
    parts = path.split("/")
    name = parts[-1]
    if name == "conftest.py" or any(part in TEST_FOLDERS for part in parts[:-1]):
        return True
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def drop_reason(section: FileDiff, import_roots: Iterable[str] = (".",)) -> str | None:
    """Why the grader drops this file's change, or None when it applies it."""
    for path in sorted(section.paths):
        name = posixpath.basename(path)
        if is_test_file(path):
            return "changes a test file"
        if name in RUNNER_CONFIG:
            return "changes the test runner's configuration"
        if name in STARTUP_HOOKS or name.endswith(".pth"):
            return "adds a Python start-up hook"
        folders = path.split("/")[:-1]
        if (
            name in METADATA_FILES
            or name.endswith(".egg-link")
            or any(f.endswith(METADATA_FOLDERS) for f in folders)
        ):
            return "changes packaging metadata (entry points)"
        if name.endswith(COMPILED_SUFFIXES) or "__pycache__" in folders:
            return "adds compiled code"
        if not _under_import_root(path, import_roots):
            return "lies outside the library's import roots"
    if section.old_path is None and section.new_path:
        for module in _top_level_modules(section.new_path, import_roots):
            if module in sys.stdlib_module_names or module in RUNNER_MODULES:
                return f"adds a module that shadows {module!r}"
    return None


def _under_import_root(path: str, import_roots: Iterable[str]) -> bool:
    for root in import_roots:
        prefix = root.strip("/")
        if prefix in ("", ".") or path.startswith(prefix + "/"):
            return True
    return False


def _top_level_modules(path: str, import_roots: Iterable[str]) -> list[str]:
    """The top-level module names ``path`` would provide under each import root."""
    modules = []
    for root in import_roots:
        prefix = "" if root in (".", "") else root.strip("/") + "/"
        if prefix and not path.startswith(prefix):
            continue
        first = path[len(prefix) :].split("/", 1)[0]
        modules.append(first[:-3] if first.endswith(".py") else first)
    return modules


def filter_patch(diff: str, import_roots: Iterable[str] = (".",)) -> FilteredPatch:
    """Split ``diff`` into what the grader applies and what it drops.

    Raises:
        DiffError: ``diff`` is not empty and has no file section.
    """
    if not diff.strip():
        return FilteredPatch("", (), ())
    kept: list[FileDiff] = []
    dropped: list[tuple[str, str]] = []
    roots = tuple(import_roots)
    for section in split_file_diffs(diff):
        reason = drop_reason(section, roots)
        if reason is None:
            kept.append(section)
        else:
            dropped.append((section.path, reason))
    return FilteredPatch("".join(s.text for s in kept), tuple(s.path for s in kept), tuple(dropped))


def _split_tables(text: str) -> list[tuple[bool, str]]:
    """Chunks of a TOML text: (is a pytest table, chunk text), in order."""
    chunks: list[tuple[bool, list[str]]] = [(False, [])]
    for line in text.splitlines(keepends=True):
        if TABLE_HEADER.match(line):
            chunks.append((bool(PYTEST_TABLE.match(line)), []))
        chunks[-1][1].append(line)
    return [(flag, "".join(lines)) for flag, lines in chunks if lines]


def restore_pytest_tables(old: str, new: str) -> str:
    """``new`` with its ``[tool.pytest...]`` tables replaced by those of ``old``."""
    old_tables = "".join(chunk for flag, chunk in _split_tables(old) if flag)
    new_tables = "".join(chunk for flag, chunk in _split_tables(new) if flag)
    if old_tables == new_tables:
        return new
    rest = "".join(chunk for flag, chunk in _split_tables(new) if not flag)
    if old_tables and rest and not rest.endswith("\n"):
        rest += "\n"
    return rest + old_tables
