"""SWE-RL's patch-similarity reward (Wei et al., 2025): no sandbox needed.

For every file changed by either the agent's or the gold diff, both changes are rewritten
as normalised unified diffs of the file (3 lines of context, from the base content) and
compared with ``difflib.SequenceMatcher(autojunk=False).ratio()``; a file changed by only
one side scores 0. The reward is the mean over files, and -1 for a malformed submission
(an empty diff, or one that cannot be read or applied to the base commit).
"""

from __future__ import annotations

import dataclasses
import difflib

from envsuite.families.swe.unified_diff import DiffError, apply_file_diff, split_file_diffs

MALFORMED = -1.0


@dataclasses.dataclass(frozen=True)
class SimilarityResult:
    """The reward, the per-file similarities, and why a submission was malformed."""

    reward: float
    per_file: dict[str, float]
    error: str | None = None


def normalised_change(old: str, new: str) -> str:
    """The hunks of a 3-line-context unified diff from ``old`` to ``new`` ("" if equal)."""
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), fromfile="old", tofile="new", lineterm="", n=3
    )
    return "\n".join(list(lines)[2:])


def normalised_changes(base: dict[str, str], diff: str) -> dict[str, str]:
    """Path -> normalised change, for every file ``diff`` changes (base: path -> text).

    Raises:
        DiffError: the diff cannot be read or does not apply to ``base``.
    """
    changes = {}
    for section in split_file_diffs(diff):
        old = base.get(section.old_path) if section.old_path else None
        if section.old_path and old is None:
            raise DiffError(f"{section.old_path}: not a text file of the base commit")
        new = apply_file_diff(old, section)
        change = normalised_change(old or "", new or "")
        if change:
            changes[section.path] = change
    return changes


def similarity_reward(base: dict[str, str], gold_diff: str, agent_diff: str) -> SimilarityResult:
    """SWE-RL's reward of ``agent_diff`` against ``gold_diff`` (see the module docstring).

    Args:
        base: Text of the files at the base commit (at least those either diff touches).
        gold_diff: The reference patch.
        agent_diff: The agent's submission.
    """
    if not agent_diff.strip():
        return SimilarityResult(MALFORMED, {}, "the submission changes nothing")
    try:
        predicted = normalised_changes(base, agent_diff)
    except DiffError as exc:
        return SimilarityResult(MALFORMED, {}, str(exc))
    if not predicted:
        return SimilarityResult(MALFORMED, {}, "the submission changes nothing")
    oracle = normalised_changes(base, gold_diff)
    per_file = {}
    for path in sorted(set(predicted) | set(oracle)):
        mine, theirs = predicted.get(path, ""), oracle.get(path, "")
        per_file[path] = (
            0.0
            if not mine or not theirs
            else difflib.SequenceMatcher(None, mine, theirs, autojunk=False).ratio()
        )
    return SimilarityResult(sum(per_file.values()) / len(per_file), per_file)
