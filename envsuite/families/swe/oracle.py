"""The SWE oracle: writes the gold patch's files, then submits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.swe.repo_snapshot import base_tree
from envsuite.families.swe.tools import SubmitCall, WriteFileCall, tool_call_json
from envsuite.families.swe.unified_diff import apply_diff, split_file_diffs


class GoldPatchAgent:
    """Writes every file the gold patch changes (its patched text), then submits.

    It reads the current problem from the env it was built for (the gold patch never reaches
    the agent-facing observation or info), so it follows whichever problem ``reset`` picked.
    """

    def __init__(self, env: Any) -> None:
        self.env = env.unwrapped
        self._plan: list[str] = []
        self._task_id: str | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget the plan; it is rebuilt from the env's problem at the next action."""
        self._plan = []
        self._task_id = None

    def _make_plan(self) -> list[str]:
        problem = self.env.task
        tree = base_tree(problem)
        touched = sorted({p for s in split_file_diffs(problem.patch) for p in s.paths})
        texts = {p: tree[p].data.decode("utf-8") for p in touched if p in tree}
        patched = apply_diff(texts, problem.patch)
        actions = [tool_call_json(WriteFileCall(path, patched[path])) for path in sorted(patched)]
        deleted = sorted(set(texts) - set(patched))
        if deleted:
            from envsuite.families.swe.tools import ShellCall

            paths = " ".join(f"'{p}'" for p in deleted)
            actions.append(tool_call_json(ShellCall(f"rm -f -- {paths}")))
        return [*actions, tool_call_json(SubmitCall())]

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        """The next write of the gold patch, or ``submit`` once all are written."""
        problem = self.env.task
        if problem is None:
            return tool_call_json(SubmitCall())
        if self._task_id != problem.instance_id or "instance_id" in info:
            self._task_id = problem.instance_id
            self._plan = self._make_plan()
        return self._plan.pop(0) if self._plan else tool_call_json(SubmitCall())


def swe_oracle(env: Any) -> GoldPatchAgent:
    """The oracle factory named in the spec."""
    return GoldPatchAgent(env)
