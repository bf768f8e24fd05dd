"""Loading SWE-bench instances (JSONL) for repositories the user has on disk.

Each line is a SWE-bench instance: ``instance_id``, ``repo`` (``owner/name``),
``base_commit``, ``patch``, ``test_patch``, ``problem_statement``, ``FAIL_TO_PASS``,
``PASS_TO_PASS`` (lists, or JSON strings of lists as in the published dataset) and
optional fields (``hints_text``, ``created_at``, ``version``, ...), kept as metadata.

The repository must be a git clone under ``repos_root`` named ``owner__name`` or ``name``;
the sandbox gets its tree at ``base_commit`` as a fresh single-commit repository (nothing
after the base commit is reachable). The grader runs the files the test patch touches with
pytest, so repositories whose tests are not pytest-style (Django's runner, sympy's
``bin/test``) are not supported. Dependencies come from ``environment`` (a problem image
with those wheels); the default environment has none beyond pytest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.unified_diff import split_file_diffs
from envsuite.sandbox.environment import SoftwareEnvironment

REQUIRED = (
    "instance_id", "repo", "base_commit", "patch", "test_patch", "problem_statement",
    "FAIL_TO_PASS", "PASS_TO_PASS",
)  # fmt: skip


class SWEBenchFormatError(ValueError):
    """An instance line lacks a field, or its repository is not on disk."""


def _names(value: Any, field: str, instance: str) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise SWEBenchFormatError(f"{instance}: {field} is not a JSON list") from exc
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SWEBenchFormatError(f"{instance}: {field} must be a list of test names")
    return tuple(value)


def repository_folder(repos_root: Path, repo: str) -> Path | None:
    """The clone of ``repo`` (``owner/name``) under ``repos_root``, if there is one."""
    owner_name = repo.replace("/", "__")
    for candidate in (repos_root / owner_name, repos_root / repo.rsplit("/", 1)[-1]):
        if (candidate / ".git").exists():
            return candidate
    return None


def instance_to_problem(
    data: dict[str, Any], repos_root: Path, environment: SoftwareEnvironment | None = None
) -> SWEProblem:
    """One SWE-bench instance as a :class:`SWEProblem`.

    Raises:
        SWEBenchFormatError: a required field is missing, or the repository is not on disk.
    """
    instance = str(data.get("instance_id", "?"))
    missing = [name for name in REQUIRED if name not in data]
    if missing:
        raise SWEBenchFormatError(f"{instance}: missing {', '.join(missing)}")
    repo = str(data["repo"])
    folder = repository_folder(repos_root, repo)
    if folder is None:
        raise SWEBenchFormatError(
            f"{instance}: no clone of {repo} under {repos_root} "
            f"(expected {repo.replace('/', '__')} or {repo.rsplit('/', 1)[-1]})"
        )
    test_files = tuple(sorted({s.path for s in split_file_diffs(data["test_patch"]) if s.new_path}))
    slug = re.sub(r"[^a-z0-9_.-]+", "-", repo.lower())
    extra = {k: v for k, v in data.items() if k not in REQUIRED}
    return SWEProblem(
        instance_id=instance,
        repo=repo,
        base_commit=str(data["base_commit"]),
        patch=str(data["patch"]),
        test_patch=str(data["test_patch"]),
        problem_statement=str(data["problem_statement"]),
        FAIL_TO_PASS=_names(data["FAIL_TO_PASS"], "FAIL_TO_PASS", instance),
        PASS_TO_PASS=_names(data["PASS_TO_PASS"], "PASS_TO_PASS", instance),
        environment=environment or SoftwareEnvironment(name=f"swebench-{slug}"),
        source={"kind": "git", "path": str(folder.resolve()), "commit": str(data["base_commit"])},
        test_files=test_files,
        metadata=extra,
    )


def load_swebench_jsonl(
    path: str | Path,
    repos_root: str | Path,
    environment: SoftwareEnvironment | None = None,
    instance_ids: Iterable[str] | None = None,
) -> list[SWEProblem]:
    """Read a SWE-bench JSONL file into problems (optionally only ``instance_ids``)."""
    wanted = None if instance_ids is None else set(instance_ids)
    problems = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise SWEBenchFormatError(f"{path}:{number}: not JSON ({exc})") from exc
        if wanted is None or data.get("instance_id") in wanted:
            problems.append(instance_to_problem(data, Path(repos_root), environment))
    return problems
