"""One SWE problem, in SWE-bench's instance schema plus what envsuite needs to rebuild it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from envsuite.sandbox.environment import SoftwareEnvironment


@dataclasses.dataclass(frozen=True)
class SWEProblem:
    """A problem: a repository at a base commit, a problem statement and hidden tests.

    The first fields are SWE-bench's (``FAIL_TO_PASS`` / ``PASS_TO_PASS`` hold pytest node
    ids); the rest say how envsuite rebuilds the base repository.

    Attributes:
        instance_id: Unique id, ``<repo>__<name>``.
        repo: The repository's name.
        base_commit: The commit the agent starts from (the sandbox's only commit).
        patch: The gold patch (a diff that resolves the problem).
        test_patch: The hidden tests, applied only at grading.
        problem_statement: What the agent is told.
        FAIL_TO_PASS: Tests that fail at the base commit and pass with the gold patch.
        PASS_TO_PASS: Tests that pass both before and after.
        environment: The software environment (image) the problem runs in.
        source: How to get the repository's files: ``{"kind": "sdist", "file": ...}`` for
            a shipped source distribution, ``{"kind": "git", "path": ..., "commit": ...}``
            for a repository on disk.
        bug_patch: Synthesised problems: the diff from the source to the base commit.
        hidden_tests: Test files removed from the base commit (the test patch adds them).
        test_files: The test files the grader runs.
        metadata: Anything else (the mutation that made a synthesised problem, ...).
    """

    instance_id: str
    repo: str
    base_commit: str
    patch: str
    test_patch: str
    problem_statement: str
    FAIL_TO_PASS: tuple[str, ...]
    PASS_TO_PASS: tuple[str, ...]
    environment: SoftwareEnvironment
    source: Mapping[str, Any]
    bug_patch: str = ""
    hidden_tests: tuple[str, ...] = ()
    test_files: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json_line(self) -> str:
        """One line of ``tasks.jsonl`` (keys sorted)."""
        data = dataclasses.asdict(self)
        data["environment"] = self.environment.name
        return json.dumps(data, sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], environment: SoftwareEnvironment) -> SWEProblem:
        """Read one ``tasks.jsonl`` record (its environment is resolved by the caller)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in fields}
        values["environment"] = environment
        for key in ("FAIL_TO_PASS", "PASS_TO_PASS", "hidden_tests", "test_files"):
            values[key] = tuple(values.get(key, ()))
        return cls(**values)
