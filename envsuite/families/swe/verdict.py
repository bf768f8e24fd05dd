"""Judging a graded test run: two channels, three exit codes and the canaries must agree.

The collector (:mod:`envsuite.sandbox.result_collector`) hands back the runner's event
stream and pytest's JUnit XML (:mod:`envsuite.sandbox.pytest_runner` says how each is
written); the sandbox gives the test command's exit code. The run is trusted only if all
of this holds, else :func:`judge` returns the first reason it is not:

- the runner connected to the channels, the tests did not time out, nothing was cut;
- the event stream is exactly the runner's: JSON lines numbered 0, 1, 2... in order,
  ``hello`` first, then ``start``, reports, ``finish`` and ``exit`` last, each once, and at
  most one report per test and phase (a line written by anything else breaks this);
- no ``tamper`` or ``crash`` record;
- pytest's exit status (``finish``), the runner's (``exit``) and the command's agree, are
  0 or 1, and are 1 exactly when some test failed;
- the JUnit XML parses, holds as many testcases of each status as the event stream, and
  gives every tracked test (FAIL_TO_PASS, PASS_TO_PASS, canaries) the same status;
- every canary has its expected outcome.

Outcomes are then the event stream's (with the XML's failure messages).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from envsuite.families.swe.canary import Canary
from envsuite.families.swe.junit import (
    ERROR,
    FAILED,
    PASSED,
    SEVERITY,
    SKIPPED,
    JUnitError,
    TestOutcome,
    canonical_node_id,
    module_name,
    parse_junit,
    testcase_statuses,
)
from envsuite.sandbox.interface import CommandResult
from envsuite.sandbox.result_channels import Collected

#: The record kinds of the event stream, and how many of each a trusted stream holds.
ONCE = ("hello", "start", "finish", "exit")
KINDS = frozenset({*ONCE, "report", "collect", "tamper", "crash"})


class Untrusted(Exception):
    """Why a run's results cannot be trusted."""


@dataclasses.dataclass(frozen=True)
class Verdict:
    """What a run's channels say.

    Attributes:
        outcomes: Node id -> outcome (empty when ``error`` is set).
        error: Why the run cannot be trusted, or None.
        tamper: What the runner reported as tampering with the harness.
        events: Records in the event stream.
    """

    outcomes: dict[str, TestOutcome]
    error: str | None
    tamper: tuple[str, ...] = ()
    events: int = 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (no outcomes)."""
        return {"error": self.error, "tamper": list(self.tamper), "events": self.events}


def judge(
    collected: Collected,
    command: CommandResult,
    test_files: Iterable[str],
    tracked: Iterable[str],
    canary: Canary,
    timeout_s: float,
) -> Verdict:
    """Judge one run (see the module docstring)."""
    modules = {module_name(f): f for f in [*test_files, canary.path]}
    records: list[dict[str, Any]] = []
    try:
        records = _records(collected, command, timeout_s)
        tamper = tuple(str(r.get("detail", "")) for r in records if r["event"] == "tamper")
        if tamper:
            raise Untrusted(f"the code under test tampered with the test harness: {tamper[0]}")
        crash = [r for r in records if r["event"] == "crash"]
        if crash:
            raise Untrusted(f"the test runner crashed: {crash[0].get('error', '')}")
        _check_order(records, command)
        statuses = _event_statuses(records, modules)
        _check_exit(records, statuses, command)
        junit = _junit(collected, modules)
        _check_agreement(statuses, junit, collected, [*tracked, *canary.expected], canary.expected)
        _check_canaries(statuses, canary.expected)
    except Untrusted as exc:
        tampered = tuple(str(r.get("detail", "")) for r in records if r.get("event") == "tamper")
        return Verdict({}, str(exc), tampered, len(records))
    outcomes = {
        key: TestOutcome(status, junit[key].message if key in junit else "")
        for key, status in statuses.items()
    }
    return Verdict(outcomes, None, (), len(records))


def _records(
    collected: Collected, command: CommandResult, timeout_s: float
) -> list[dict[str, Any]]:
    if collected.error is not None:
        raise Untrusted(f"the result collector failed: {collected.error}")
    if command.timed_out:
        raise Untrusted(f"the tests timed out after {timeout_s:.0f} s")
    if not collected.connected:
        raise Untrusted(
            f"the test runner never opened its result channels (exit code {command.exit_code})"
        )
    if any(collected.dropped):
        raise Untrusted("a result channel overflowed the collector's limit")
    records = []
    for number, line in enumerate(collected.events.splitlines()):
        try:
            record = json.loads(line)
        except ValueError:
            raise Untrusted(f"line {number} of the event stream is not the runner's") from None
        if not isinstance(record, dict) or record.get("seq") != number:
            raise Untrusted(f"line {number} of the event stream is not the runner's")
        if record.get("event") not in KINDS:
            raise Untrusted(f"line {number} of the event stream is not the runner's")
        records.append(record)
    return records


def _check_order(records: list[dict[str, Any]], command: CommandResult) -> None:
    kinds = [r["event"] for r in records]
    counts = Counter(kinds)
    if counts["finish"] == 0:
        raise Untrusted(
            "pytest did not finish its session: the test process ended early "
            f"(exit code {command.exit_code})"
        )
    for kind in ONCE:
        if counts[kind] != 1:
            raise Untrusted(f"the event stream holds {counts[kind]} {kind!r} records, not 1")
    if kinds[0] != "hello" or kinds[-1] != "exit" or kinds[-2] != "finish":
        raise Untrusted("the event stream's records are out of order")
    if kinds.index("start") > min(
        (i for i, k in enumerate(kinds) if k in ("report", "collect")), default=len(kinds)
    ):
        raise Untrusted("the event stream's records are out of order")


def _event_statuses(records: list[dict[str, Any]], modules: Mapping[str, str]) -> dict[str, str]:
    statuses: dict[str, str] = {}
    phases: set[tuple[str, str]] = set()
    for record in records:
        if record["event"] not in ("report", "collect"):
            continue
        nodeid, outcome = str(record.get("nodeid", "")), record.get("outcome")
        when = str(record.get("when", "collect"))
        if (nodeid, when) in phases:
            raise Untrusted(f"the event stream reports {nodeid} ({when}) twice")
        phases.add((nodeid, when))
        if outcome == PASSED:
            status = PASSED
        elif outcome == SKIPPED:
            status = SKIPPED
        elif outcome == FAILED:
            status = FAILED if when == "call" else ERROR
        else:
            raise Untrusted(f"the event stream gives {nodeid} the outcome {outcome!r}")
        file = record.get("file")
        key = canonical_node_id(nodeid, file if isinstance(file, str) else None, dict(modules))
        previous = statuses.get(key)
        if previous is None or SEVERITY[status] > SEVERITY[previous]:
            statuses[key] = status
    return statuses


def _check_exit(
    records: list[dict[str, Any]], statuses: dict[str, str], command: CommandResult
) -> None:
    finish = next(r for r in records if r["event"] == "finish")
    runner = next(r for r in records if r["event"] == "exit")
    codes = (finish.get("exitstatus"), runner.get("code"))
    if codes[0] != codes[1]:
        raise Untrusted(f"pytest's exit status {codes[0]} and the runner's {codes[1]} differ")
    if command.exit_code != codes[1]:
        raise Untrusted(
            f"the test process exited with {command.exit_code}, the runner reported {codes[1]}"
        )
    bad = any(status in (FAILED, ERROR) for status in statuses.values())
    if codes[1] not in (0, 1):
        raise Untrusted(f"pytest exited with {codes[1]} (interrupted, internal or usage error)")
    if (codes[1] == 1) != bad:
        raise Untrusted(f"pytest's exit status {codes[1]} contradicts its reports")


def _junit(collected: Collected, modules: Mapping[str, str]) -> dict[str, TestOutcome]:
    if not collected.junit.strip():
        raise Untrusted("pytest wrote no JUnit XML")
    try:
        return parse_junit(collected.junit.encode("utf-8"), modules.values())
    except JUnitError as exc:
        raise Untrusted(str(exc)) from exc


def _check_agreement(
    statuses: dict[str, str],
    junit: dict[str, TestOutcome],
    collected: Collected,
    tracked: list[str],
    canaries: Mapping[str, str],
) -> None:
    from_xml = Counter(testcase_statuses(collected.junit.encode("utf-8")))
    from_events = Counter(statuses.values())
    if from_xml != from_events:
        raise Untrusted(
            "the event stream and the JUnit XML disagree: "
            f"{dict(sorted(from_events.items()))} against {dict(sorted(from_xml.items()))}"
        )
    for name in tracked:
        event = statuses.get(name)
        xml = junit[name].status if name in junit else None
        if event != xml:
            # Canary names are drawn per grading: naming one would make the grade differ
            # between two gradings of the same diff.
            shown = "a canary test" if name in canaries else name
            raise Untrusted(
                f"the event stream and the JUnit XML disagree on {shown}: "
                f"{event or 'missing'} against {xml or 'missing'}"
            )


def _check_canaries(statuses: dict[str, str], expected: Mapping[str, str]) -> None:
    for name, outcome in expected.items():
        if statuses.get(name) != outcome:
            raise Untrusted(
                f"a canary test that must have {outcome} has {statuses.get(name, 'no result')}: "
                "the results were forged"
            )
