"""Test outcomes from pytest's JUnit XML (``-o junit_family=xunit1``).

The grader reads results from this XML, cross-checked with the runner's event stream and
pytest's exit code (:mod:`.verdict`); nothing printed by the tests (a forged ``PASSED``
line) is read at all. :func:`canonical_node_id` maps a pytest node id the way pytest's
JUnit writer and :func:`node_id` do, so both channels are keyed alike.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Iterator

PASSED, FAILED, ERROR, SKIPPED = "passed", "failed", "error", "skipped"
#: When one test has several entries (a failing call and an erroring teardown), the worst wins.
SEVERITY = {PASSED: 0, SKIPPED: 1, FAILED: 2, ERROR: 3}


class JUnitError(ValueError):
    """The XML cannot be parsed."""


@dataclasses.dataclass(frozen=True)
class TestOutcome:
    """One test's status and, for failures, the short message pytest gave."""

    status: str
    message: str = ""


def module_name(test_file: str) -> str:
    """``tests/test_x.py`` -> ``tests.test_x`` (as pytest mangles paths into classnames)."""
    stem = test_file[:-3] if test_file.endswith(".py") else test_file
    return stem.replace("/", ".")


def node_id(classname: str, name: str, file: str | None, modules: dict[str, str]) -> str:
    """The pytest node id of a testcase (``tests/test_x.py::Class::test_y[param]``).

    The module part of ``classname`` is matched against the known test files (longest
    match), so tests inherited from a helper module keep the node id of the file that ran
    them; the ``file`` attribute is the fallback.
    """
    best = ""
    for module in modules:
        if (classname == module or classname.startswith(module + ".")) and len(module) > len(best):
            best = module
    if best:
        rest = classname[len(best) + 1 :]
        parts = [modules[best], *(rest.split(".") if rest else []), name]
        return "::".join(parts)
    if file:
        module = module_name(file)
        rest = classname[len(module) + 1 :] if classname.startswith(module + ".") else ""
        return "::".join([file, *(rest.split(".") if rest else []), name])
    return "::".join(p for p in (classname.replace(".", "/"), name) if p)


def canonical_node_id(nodeid: str, file: str | None, modules: dict[str, str]) -> str:
    """The key :func:`parse_junit` gives the testcase pytest writes for ``nodeid``.

    Mirrors pytest's ``mangle_test_address`` (xunit1): the path's ``/`` become ``.``, its
    ``.py`` goes, the last name keeps its parameters; ``file`` is the report's location.
    """
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    return node_id(".".join(names[:-1]), names[-1], file, modules)


def _root(xml: bytes) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        raise JUnitError(f"unreadable JUnit XML: {exc}") from exc


def _testcases(root: ElementTree.Element) -> Iterator[tuple[ElementTree.Element, str, str]]:
    """Every testcase with its status (the worst of its children) and message."""
    for case in root.iter("testcase"):
        status, message = PASSED, ""
        for child in case:
            kind = {"failure": FAILED, "error": ERROR, "skipped": SKIPPED}.get(child.tag)
            if kind is not None and SEVERITY[kind] > SEVERITY[status]:
                status, message = kind, (child.get("message") or "").strip()
        yield case, status, message


def testcase_statuses(xml: bytes) -> list[str]:
    """The status of every testcase element, in order (one per reported node).

    Raises:
        JUnitError: the XML is malformed.
    """
    return [status for _, status, _ in _testcases(_root(xml))]


def parse_junit(xml: bytes, test_files: Iterable[str]) -> dict[str, TestOutcome]:
    """Map node id -> outcome for every testcase in ``xml``.

    Raises:
        JUnitError: the XML is malformed.
    """
    modules = {module_name(f): f for f in test_files}
    outcomes: dict[str, TestOutcome] = {}
    for case, status, message in _testcases(_root(xml)):
        key = node_id(case.get("classname", ""), case.get("name", ""), case.get("file"), modules)
        previous = outcomes.get(key)
        if previous is None or SEVERITY[status] > SEVERITY[previous.status]:
            outcomes[key] = TestOutcome(status, message[:500])
    return outcomes
