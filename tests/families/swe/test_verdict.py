"""The verdict: a run is trusted only when both channels, the exit codes and canaries agree."""

from __future__ import annotations

import json

import pytest

from envsuite.families.swe.canary import Canary
from envsuite.families.swe.verdict import judge
from envsuite.sandbox.interface import CommandResult
from envsuite.sandbox.result_channels import Collected, parse_collector_output

FILE = "test_lib.py"
CANARY = Canary(
    "test_c0ffee.py",
    "",
    {"test_c0ffee.py::test_aa": "passed", "test_c0ffee.py::test_bb": "failed"},
)
#: node id -> (status in the event stream, JUnit child element or None)
HONEST = {
    "test_lib.py::test_fixed": "passed",
    "test_lib.py::test_kept[a-b]": "passed",
    "test_c0ffee.py::test_aa": "passed",
    "test_c0ffee.py::test_bb": "failed",
}
TRACKED = ["test_lib.py::test_fixed", "test_lib.py::test_kept[a-b]"]


def events(outcomes: dict[str, str], exit_code: int = 1, extra: list[dict] | None = None) -> str:
    records: list[dict] = [{"event": "hello", "pid": 7}, {"event": "start"}]
    for nodeid, outcome in outcomes.items():
        file = nodeid.split("::")[0]
        for when in ("setup", "call", "teardown"):
            result = outcome if when == "call" else "passed"
            records.append(
                {"event": "report", "nodeid": nodeid, "file": file, "when": when, "outcome": result}
            )
    records += extra or []
    records += [{"event": "finish", "exitstatus": exit_code}, {"event": "exit", "code": exit_code}]
    return "".join(json.dumps({"seq": i, **r}) + "\n" for i, r in enumerate(records))


def junit(outcomes: dict[str, str]) -> str:
    cases = []
    for nodeid, outcome in outcomes.items():
        path, name = nodeid.split("::")
        child = '<failure message="assert 1 == 2">trace</failure>' if outcome == "failed" else ""
        cases.append(
            f'<testcase classname="{path[:-3]}" name="{name}" file="{path}">{child}</testcase>'
        )
    return f"<testsuites><testsuite>{''.join(cases)}</testsuite></testsuites>"


def command(exit_code: int = 1, timed_out: bool = False) -> CommandResult:
    return CommandResult("", exit_code, timed_out, 0, 0)


def verdict(stream: str, xml: str, exit_code: int = 1, **collected):
    return judge(
        Collected(events=stream, junit=xml, connected=True, **collected),
        command(exit_code),
        [FILE],
        TRACKED,
        CANARY,
        60.0,
    )


def test_an_honest_run_is_trusted_and_carries_the_junit_messages():
    result = verdict(events(HONEST), junit(HONEST))
    assert result.error is None
    assert result.outcomes["test_lib.py::test_fixed"].status == "passed"
    assert result.outcomes["test_c0ffee.py::test_bb"].message == "assert 1 == 2"


@pytest.mark.parametrize(
    ("stream", "xml", "exit_code", "reason"),
    [
        # the issue's attack: the JUnit file rewritten after the run, the process ending 0
        (
            events(HONEST),
            junit({**HONEST, "test_c0ffee.py::test_bb": "passed"}),
            0,
            "exited with 0",
        ),
        # os._exit(0) before pytest finished: no finish, no exit record
        (events(HONEST).split('{"seq": 14')[0], junit(HONEST), 0, "did not finish"),
        # a line written by someone else into the event stream
        (events(HONEST) + '{"seq": 3, "event": "report"}\n', junit(HONEST), 1, "line 16"),
        ("not json\n" + events(HONEST), junit(HONEST), 1, "line 0"),
        # a forged report beside the real one
        (
            events(
                HONEST,
                extra=[
                    {
                        "event": "report",
                        "nodeid": "test_lib.py::test_fixed",
                        "file": FILE,
                        "when": "call",
                        "outcome": "passed",
                    },
                ],
            ),
            junit(HONEST),
            1,
            "twice",
        ),
        # the channels disagree on a tracked test
        (
            events(HONEST),
            junit(
                {**HONEST, "test_lib.py::test_fixed": "failed", "test_c0ffee.py::test_aa": "failed"}
            ),
            1,
            "disagree",
        ),
        (events(HONEST), junit(HONEST).replace("</testsuite>", ""), 1, "unreadable JUnit"),
        # a canary is named as such, never by its (per-grading, random) node id
        (
            events(HONEST),
            junit(
                {**HONEST, "test_c0ffee.py::test_aa": "failed", "test_c0ffee.py::test_bb": "passed"}
            ),
            1,
            "disagree on a canary test: passed against failed",
        ),
        # everything forged consistently as passed: the failing canary gives it away
        (
            events({**HONEST, "test_c0ffee.py::test_bb": "passed"}, exit_code=0),
            junit({**HONEST, "test_c0ffee.py::test_bb": "passed"}),
            0,
            "canary",
        ),
        (
            events(HONEST, extra=[{"event": "tamper", "what": "x", "detail": "os.write"}]),
            junit(HONEST),
            1,
            "tampered with the test harness: os.write",
        ),
        (events(HONEST, exit_code=1), junit(HONEST), 0, "differ|exit"),
    ],
)
def test_untrusted_runs_are_rejected_with_the_reason(stream, xml, exit_code, reason):
    result = verdict(stream, xml, exit_code)
    assert result.error is not None and result.outcomes == {}
    assert any(part in result.error for part in reason.split("|")), result.error


def test_a_runner_that_never_connected_or_timed_out_is_not_trusted():
    never = judge(Collected(), command(2), [FILE], TRACKED, CANARY, 60.0)
    assert "never opened its result channels" in (never.error or "")
    late = judge(
        Collected(events(HONEST), junit(HONEST), True), command(124, True), [FILE], [], CANARY, 9.0
    )
    assert late.error == "the tests timed out after 9 s"


def test_the_collector_output_is_read_from_its_last_line():
    line = json.dumps(
        {
            "connected": True,
            "eof": {"events": True, "junit": False},
            "dropped": {"events": 0, "junit": 5},
            "events": "e",
            "junit": "j",
        }
    )
    collected = parse_collector_output(f"ready\n{line}\n")
    assert collected == Collected("e", "j", True, (True, False), (0, 5))
    assert "printed nothing" in (parse_collector_output("").error or "")
    assert "unreadable" in (parse_collector_output("ready\n{").error or "")
