"""Turning the repository at submit time into a diff, and the diff into a reward."""

from __future__ import annotations

import contextlib
import dataclasses
import shlex
from collections.abc import Callable
from typing import Any, Literal

from envsuite.families.swe.grading import grade_patch
from envsuite.families.swe.patch_filter import filter_patch
from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.repo_snapshot import base_tree
from envsuite.families.swe.similarity_reward import MALFORMED, similarity_reward
from envsuite.families.swe.unified_diff import DiffError, split_file_diffs
from envsuite.sandbox.interface import Sandbox
from envsuite.sandbox.output_limits import OutputLimits

RewardMode = Literal["binary", "dense", "similarity"]
REWARD_MODES: tuple[RewardMode, ...] = ("binary", "dense", "similarity")
#: Largest diff a submission may have.
MAX_DIFF_BYTES = 8 * 1024 * 1024
#: Git run with the repository's own config neutralised (hooks, fsmonitor, external diff).
SAFE_GIT = (
    "git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c diff.external= "
    "-c core.attributesFile=/dev/null"
)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The graded end of an episode."""

    reward: float
    success: bool
    score: float
    info: dict[str, Any]


def repository_diff(sandbox: Sandbox, base_commit: str) -> tuple[str, str | None]:
    """The diff of the sandbox's repository against ``base_commit``, and an error if any.

    Computed with a temporary index started from the base commit (the agent's own index is
    left alone), so new files matched by ``.git/info/exclude`` (bytecode, caches) are left
    out while tracked files are always compared.
    """
    index = f"{sandbox.private_dir}/submit.index"
    command = (
        f"mkdir -p {shlex.quote(sandbox.private_dir)} && rm -f {shlex.quote(index)} && "
        f"export GIT_INDEX_FILE={shlex.quote(index)} && "
        f"{SAFE_GIT} read-tree {shlex.quote(base_commit)} && "
        f"{SAFE_GIT} add -A . >/dev/null 2>&1 && "
        f"{SAFE_GIT} diff --cached --binary --no-color --no-ext-diff --no-textconv "
        f"--no-renames {shlex.quote(base_commit)}"
    )
    limits = OutputLimits(keep_bytes=MAX_DIFF_BYTES, stream_bytes=MAX_DIFF_BYTES + 1)
    result = sandbox.run(command, timeout_s=120, limits=limits)
    if result.exit_code != 0 or result.output_limit_hit:
        why = "too large" if result.output_limit_hit else result.output.strip()[-300:]
        return "", f"could not compute the diff against the base commit: {why}"
    return result.output, None


def score_submission(
    problem: SWEProblem,
    diff: str,
    mode: RewardMode,
    new_sandbox: Callable[[], Sandbox],
    test_timeout_s: float,
) -> Outcome:
    """Reward, success and score of ``diff`` under ``mode`` (see the env's docstring)."""
    if mode == "similarity":
        return _similarity(problem, diff)
    report = grade_patch(problem, diff, new_sandbox, test_timeout_s=test_timeout_s)
    score = report.dense_score
    reward = float(report.resolved) if mode == "binary" else score
    info = {"resolution": report.resolution, "grade": report.summary()}
    return Outcome(reward, report.resolved, score, info)


def _similarity(problem: SWEProblem, diff: str) -> Outcome:
    kept = filter_patch(diff, problem.environment.python_path).diff if diff.strip() else ""
    paths: set[str] = set()
    for text in (kept, problem.patch):
        with contextlib.suppress(DiffError):
            paths |= {p for s in split_file_diffs(text) for p in s.paths} if text else set()
    tree = base_tree(problem)
    base: dict[str, str] = {}
    for path in paths:
        if path in tree:
            try:
                base[path] = tree[path].data.decode("utf-8")
            except UnicodeDecodeError:
                continue
    result = similarity_reward(base, problem.patch, kept)
    info: dict[str, Any] = {"similarity": result.per_file, "similarity_error": result.error}
    success = result.reward == 1.0
    return Outcome(result.reward, success, max(result.reward, 0.0), info)


def failure_outcome(mode: RewardMode, reason: str) -> Outcome:
    """The outcome when no submission could be graded (the agent broke its sandbox)."""
    reward = MALFORMED if mode == "similarity" else 0.0
    return Outcome(reward, False, 0.0, {"resolution": "unresolved", "agent_failure": reason})
