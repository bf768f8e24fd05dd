"""Problem statements of synthesised problems, written from the failing tests and their errors.

SWE-smith asks an LLM to write an issue; envsuite writes one from the facts alone (which
tests fail, with which error), so the text is reproducible and leaks nothing of the fix.
"""

from __future__ import annotations

from collections.abc import Mapping

from envsuite.families.swe.junit import TestOutcome

#: Failing tests listed in full; the rest are counted.
MAX_LISTED = 8
MAX_MESSAGE = 240


def write_problem_statement(library: str, version: str, failing: Mapping[str, TestOutcome]) -> str:
    """An issue-style statement naming the failing tests and their first error lines."""
    names = sorted(failing)
    lines = [
        f"Regression in {library} {version}: behaviour covered by the test suite is broken.",
        "",
        f"{len(names)} test{'s' if len(names) != 1 else ''} of the project's suite now "
        f"fail{'' if len(names) != 1 else 's'}:",
        "",
    ]
    for name in names[:MAX_LISTED]:
        message = " ".join(failing[name].message.split())
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        lines.append(f"- `{name}`" + (f": {message}" if message else ""))
    if len(names) > MAX_LISTED:
        lines.append(f"- ... and {len(names) - MAX_LISTED} more")
    lines += [
        "",
        "Find the defect in the library's code and fix it so that these tests pass again "
        "without breaking anything else. The failing tests are not in the repository; "
        "they will be run against your change. Changes to test files and to the test "
        "configuration are ignored.",
    ]
    return "\n".join(lines)
