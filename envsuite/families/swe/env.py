"""``envsuite/SWE-v0``: fix a repository in a sandbox; hidden tests grade the fix."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from gymnasium import spaces

from envsuite.dataset_items import ItemRule, item_for_seed, pick_item
from envsuite.env_base import EnvsuiteEnv
from envsuite.families.swe.dataset import dataset_files, library_names, load_problems
from envsuite.families.swe.grading import DEFAULT_TEST_TIMEOUT
from envsuite.families.swe.problem import SWEProblem
from envsuite.families.swe.repo_snapshot import repo_archive
from envsuite.families.swe.submission import (
    REWARD_MODES,
    Outcome,
    RewardMode,
    failure_outcome,
    repository_diff,
    score_submission,
)
from envsuite.families.swe.swebench_loader import load_swebench_jsonl
from envsuite.families.swe.tool_effects import apply_tool, format_result
from envsuite.families.swe.tools import TOOLS_HELP, SubmitCall, ToolCall, parse_tool_call
from envsuite.rendering import TEXT_RENDER_MODES, checked_render_mode
from envsuite.sandbox.interface import DEFAULT_COMMAND_TIMEOUT, Sandbox
from envsuite.sandbox.output_limits import DEFAULT_OUTPUT_LIMIT, OutputLimits
from envsuite.sandbox.provider import BACKENDS, Backend, SandboxProvider
from envsuite.spaces import UnicodeText

TaskSelection = Literal["random", "seed_index"]
#: The :mod:`envsuite.dataset_items` rule of each ``task_selection``.
ITEM_RULE: dict[str, ItemRule] = {"random": "draw", "seed_index": "seed_index"}
#: Longest observation, in characters (problem statements are cut to fit).
MAX_OBSERVATION = 65_536
#: Longest action (a whole file written at once must fit).
MAX_ACTION = 262_144
#: Graded diffs remembered per process (see ``cache_grades``).
GRADE_CACHE_SIZE = 256


class SWEEnv(EnvsuiteEnv[str, str, ToolCall]):
    """Software-engineering tasks: fix a repository so that hidden tests pass.

    Description:
        Each episode picks a task: a repository at a base commit (its git history holds
        that one commit and nothing after it) with a problem statement, from the shipped
        dataset (small PyPI libraries with bugs injected the SWE-smith way; see
        ``envsuite swe synthesize``) or any subset of it. The agent works in a sandbox: a
        hardened Docker container (no network, non-root, capabilities dropped, pids,
        memory and CPU limits) or, with ``backend="local"``, a temporary folder (not
        isolated: for trusted agents and machines without Docker).

    Observation:
        A :class:`~envsuite.spaces.UnicodeText`. Reset: the problem statement, the
        repository and the tool instructions. After a tool call: ``exit_code``,
        ``timed_out`` and the output (stdout and stderr interleaved), cut to its first and
        last ``output_limit_bytes / 2`` bytes with the number of bytes cut in between.
        ``info`` repeats ``exit_code``, ``timed_out``, ``output_bytes``, ``bytes_cut``.

    Action:
        A JSON tool call (see :mod:`envsuite.families.swe.tools`): ``shell`` (a bash command
        with its own ``timeout``), ``read_file`` (optionally a line range), ``write_file``,
        ``replace`` (a string that occurs exactly once) and ``submit``. A malformed action
        (not JSON, an unknown tool, bad arguments) costs ``invalid_action_penalty``, counts
        as a step and sets ``info["parse_error"]``. A tool that fails (a missing file, a
        non-unique ``old`` string) is not malformed: its error is the observation.

    Reward:
        0 per step (minus the penalty for malformed actions). On ``submit`` the
        repository's diff against the base commit is graded in a fresh sandbox (hidden
        tests, test-file changes ignored; see :mod:`envsuite.families.swe.grading`):
        ``reward="binary"`` gives 1 if resolved, else 0; ``"dense"`` the fraction of
        FAIL_TO_PASS tests fixed, 0 if any PASS_TO_PASS test breaks; ``"similarity"``
        SWE-RL's patch-similarity reward in [-1, 1] (no tests run; -1 for an empty or
        unreadable diff). ``info["success"]`` is resolved (similarity: identical to the
        gold patch), ``info["score"]`` the dense score (similarity: the reward, floored at 0).

    Termination:
        Terminates on ``submit``, or when the sandbox dies (the agent killed it:
        ``info["agent_failure"]``, reward as for a failed submission). Truncated after
        ``step_limit`` steps, or as a safety limit after ``wall_limit_s`` seconds.

    Arguments:
        libraries: Shipped libraries to draw tasks from (None: all).
        tasks_file: A SWE-bench instance JSONL to draw tasks from instead of the shipped
            dataset (see :mod:`envsuite.families.swe.swebench_loader`).
        repos_root: Where the repositories of ``tasks_file`` are cloned.
        task_ids: Only these instance ids (None: all of the chosen libraries).
        task_selection: ``"random"`` (drawn from ``self.np_random``) or ``"seed_index"``
            (``reset(seed=i)`` picks task ``i`` mod the number of tasks, so a protocol's
            seeds 0..N-1 cover N tasks once each). ``reset(options={"task_id": ...})``
            picks one task explicitly.
        backend: ``"docker"`` or ``"local"``.
        reward: ``"binary"``, ``"dense"`` or ``"similarity"``.
        step_limit: Steps before the episode is truncated.
        wall_limit_s: Wall-clock safety limit per episode, in seconds.
        command_timeout_s: Default timeout of a shell command.
        max_command_timeout_s: Largest timeout an action may ask for.
        output_limit_bytes: Output bytes kept per observation (head and tail).
        test_timeout_s: Seconds the hidden tests may run when grading.
        pool_size: Started containers kept ready per task image (Docker).
        invalid_action_penalty: Reward subtracted for a malformed action.
        cache_grades: Remember graded diffs (per process): the same diff submitted for the
            same task with the same reward mode reuses its grade instead of running the
            tests again (a task's tests are deterministic: every shipped task's gold patch
            passed three runs in a row).
        render_mode: ``"ansi"`` (the text), ``"rgb_array"`` (the text drawn on an
            image), ``"human"`` (the text printed on every reset and step) or None.

    Version history:
        v0: Initial version.
    """

    metadata: dict[str, Any] = {"render_modes": list(TEXT_RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        libraries: tuple[str, ...] | list[str] | None = None,
        task_ids: tuple[str, ...] | list[str] | None = None,
        task_selection: TaskSelection = "random",
        backend: Backend = "docker",
        reward: RewardMode = "binary",
        step_limit: int = 50,
        wall_limit_s: float = 3600.0,
        command_timeout_s: float = DEFAULT_COMMAND_TIMEOUT,
        max_command_timeout_s: float = 600.0,
        output_limit_bytes: int = DEFAULT_OUTPUT_LIMIT,
        test_timeout_s: float = DEFAULT_TEST_TIMEOUT,
        pool_size: int = 1,
        invalid_action_penalty: float = 0.01,
        cache_grades: bool = True,
        tasks_file: str | None = None,
        repos_root: str | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
        if task_selection not in ("random", "seed_index"):
            raise ValueError(f"task_selection must be 'random' or 'seed_index': {task_selection!r}")
        if step_limit < 1 or output_limit_bytes < 256:
            raise ValueError("step_limit must be >= 1 and output_limit_bytes >= 256")
        render_mode = checked_render_mode(render_mode, TEXT_RENDER_MODES)
        self.config: dict[str, Any] = {
            "libraries": None if libraries is None else tuple(libraries),
            "task_ids": None if task_ids is None else tuple(task_ids),
            "task_selection": task_selection,
            "backend": backend,
            "reward": reward,
            "step_limit": step_limit,
            "wall_limit_s": wall_limit_s,
            "command_timeout_s": command_timeout_s,
            "max_command_timeout_s": max_command_timeout_s,
            "output_limit_bytes": output_limit_bytes,
            "test_timeout_s": test_timeout_s,
            "pool_size": pool_size,
            "invalid_action_penalty": invalid_action_penalty,
            "cache_grades": cache_grades,
            "tasks_file": tasks_file,
            "repos_root": repos_root,
            "render_mode": render_mode,
        }
        self.render_mode = render_mode
        self.tasks = self._load_tasks()
        self.observation_space = UnicodeText(MAX_OBSERVATION)
        self.action_space: spaces.Space[Any] = UnicodeText(MAX_ACTION)
        self.limits = OutputLimits(keep_bytes=output_limit_bytes)
        self.provider = SandboxProvider(backend, pool_size)
        self.task: SWEProblem | None = None
        self.sandbox: Sandbox | None = None
        self.base_commit = ""
        self.steps = 0
        self.started = 0.0
        self.text = ""
        self._replay: dict[str, Any] | None = None

    @classmethod
    def dataset_files(
        cls, libraries: Any = None, tasks_file: str | None = None, **config: Any
    ) -> list[Any]:
        """The dataset files the env reads (their sha256 go into the spec hash)."""
        if tasks_file is not None:
            return [Path(tasks_file)]
        return dataset_files(library_names() if libraries is None else libraries)

    def _load_tasks(self) -> list[SWEProblem]:
        return select_tasks(self.config)

    @classmethod
    def item_labels(cls, kwargs: Mapping[str, Any], seeds: Iterable[int]) -> dict[int, str]:
        """The instance id of the task each seed's episode works on (for per-task reports).

        ``kwargs`` are the env's constructor arguments with defaults filled in. With
        ``task_selection="random"`` the pick is the first draw of the generator that
        ``reset(seed=...)`` seeds (:func:`envsuite.dataset_items.item_for_seed`).
        """
        tasks = select_tasks(kwargs)
        labels = {}
        rule = ITEM_RULE[kwargs.get("task_selection", "random")]
        for seed in seeds:
            labels[seed] = tasks[item_for_seed(len(tasks), seed, rule=rule)].instance_id
        return labels

    # -- episode -----------------------------------------------------------------------
    def _pick(self, seed: int | None, options: dict[str, Any] | None) -> SWEProblem:
        """The task of the episode, by :mod:`envsuite.dataset_items`'s rule.

        ``options={"task_id": id}`` names the task (the explicit index of the rule).
        """
        index = None
        if options and "task_id" in options:
            ids = [task.instance_id for task in self.tasks]
            if options["task_id"] not in ids:
                raise ValueError(f"no selected task {options['task_id']!r}")
            index = ids.index(options["task_id"])
        rule = ITEM_RULE[self.config["task_selection"]]
        return self.tasks[pick_item(len(self.tasks), self.np_random, seed, rule=rule, index=index)]

    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[str, dict[str, Any]]:
        """Pick a task (see ``task_selection``) and start it in a fresh sandbox."""
        self._release()
        rng_state = self.np_random.bit_generator.state
        self.task = self._pick(seed, options)
        self._replay = {"rng_state": rng_state, "seed": seed, "options": options, "actions": []}
        archive, self.base_commit = repo_archive(self.task)
        self.sandbox = self.provider.factory(self.task.environment)()
        self.sandbox.load_repo(archive)
        self.steps = 0
        self.started = time.monotonic()
        statement = self.task.problem_statement[: MAX_OBSERVATION // 2]
        self.text = (
            f"{statement}\n\nThe repository {self.task.repo} is checked out at /repo "
            f"(commit {self.base_commit[:12]}).\n\n{TOOLS_HELP}"
        )
        info = {
            "problem_statement": self.task.problem_statement,
            "instance_id": self.task.instance_id,
            "repo": self.task.repo,
            "base_commit": self.base_commit,
            "step": 0,
        }
        return self.text, info

    def parse_action(self, action: Any) -> ToolCall:
        """Parse a JSON tool call (see :mod:`envsuite.families.swe.tools`)."""
        return parse_tool_call(action, self.config["max_command_timeout_s"])

    def apply_action(self, parsed: ToolCall) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Run the tool call; on submit grade the repository."""
        assert self.sandbox is not None and self.task is not None
        if self._replay is not None:
            self._replay["actions"].append(parsed)
        self.steps += 1
        if isinstance(parsed, SubmitCall):
            return self._finish(self._submit(), "submitted")
        result = apply_tool(self.sandbox, parsed, self.config["command_timeout_s"], self.limits)
        self.text = format_result(result)
        info: dict[str, Any] = {"tool": result.tool, **result.info, "step": self.steps}
        return self._after_step(0.0, info)

    def apply_invalid_action(self, message: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Cost the penalty and a step; the observation repeats the instructions."""
        if self._replay is not None:
            self._replay["actions"].append(None)
        self.steps += 1
        self.text = f"Invalid action: {message}\n\n{TOOLS_HELP}"
        penalty = -float(self.config["invalid_action_penalty"])
        return self._after_step(penalty, {"step": self.steps})

    def _after_step(
        self, reward: float, info: dict[str, Any]
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        assert self.sandbox is not None
        problem = self.sandbox.health()
        if problem is not None:
            outcome = failure_outcome(self.config["reward"], f"the sandbox died: {problem}")
            observation, total, terminated, _, end_info = self._finish(outcome, "sandbox_died")
            return observation, total + reward, terminated, False, {**info, **end_info}
        if self.steps >= self.config["step_limit"]:
            return self._truncate(reward, info, "step_limit")
        if time.monotonic() - self.started > self.config["wall_limit_s"]:
            return self._truncate(reward, info, "wall_limit")
        return self.text, reward, False, False, info

    def _truncate(
        self, reward: float, info: dict[str, Any], why: str
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self._release()
        info.update({"success": False, "score": 0.0, "truncated_reason": why})
        return self.text, reward, False, True, info

    def _submit(self) -> Outcome:
        assert self.sandbox is not None and self.task is not None
        problem = self.sandbox.health()
        if problem is not None:
            return failure_outcome(self.config["reward"], f"the sandbox died: {problem}")
        diff, error = repository_diff(self.sandbox, self.base_commit)
        self._release()
        if error is not None:
            return failure_outcome(self.config["reward"], error)
        parts = [self.task.instance_id, self.task.test_patch, self.config["reward"], diff]
        key = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
        outcome = _cached_grade(key) if self.config["cache_grades"] else None
        if outcome is None:
            factory = self.provider.factory(self.task.environment)
            outcome = score_submission(
                self.task, diff, self.config["reward"], factory, self.config["test_timeout_s"]
            )
            _remember_grade(key, outcome)
        return dataclasses.replace(outcome, info={**outcome.info, "patch": diff})

    def _finish(self, outcome: Outcome, why: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        self._release()
        resolution = outcome.info.get("resolution", "")
        self.text = f"Episode over ({why}). Reward {outcome.reward:g}" + (
            f", {resolution}." if resolution else "."
        )
        info = {**outcome.info, "success": outcome.success, "score": outcome.score}
        info.update({"step": self.steps, "end_reason": why})
        return self.text, outcome.reward, True, False, info

    def _release(self, wait: bool = False) -> None:
        if self.sandbox is not None:
            sandbox, self.sandbox = self.sandbox, None
            in_background = getattr(sandbox, "close_in_background", None)
            if callable(in_background) and not wait:
                in_background()  # a Docker container is removed off the critical path
            else:
                sandbox.close()

    def render_text(self) -> str:
        """The ``ansi`` frame: the last observation."""
        return self.text

    def close(self) -> None:
        """Destroy the sandbox and stop the warm pools."""
        self._release(wait=True)
        self.provider.close()
        super().close()

    # -- pickling ----------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """Config, generator state at the last reset and the actions since (no sandbox)."""
        return {"config": self.config, "replay": self._replay}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild the env; re-create its sandbox and replay the episode's actions."""
        self.__init__(**state["config"])  # type: ignore[misc]
        replay = state["replay"]
        if replay is None:
            return
        self.np_random  # noqa: B018  (creates the generator, then its state is restored)
        self._np_random.bit_generator.state = replay["rng_state"]  # type: ignore[union-attr]
        self._last_observation, _ = self.new_episode(replay["seed"], replay["options"])
        self._episode_over = False
        for call in replay["actions"]:
            if call is None:
                self.step(None)
            else:
                self.step(_call_json(call))


def select_tasks(config: Mapping[str, Any]) -> list[SWEProblem]:
    """The tasks an env with ``config`` (its constructor arguments) draws from, in order.

    Raises:
        ValueError: no task selected, an unknown task id, or ``tasks_file`` without
            ``repos_root``.
    """
    if config.get("tasks_file") is not None:
        if config.get("repos_root") is None:
            raise ValueError("tasks_file needs repos_root (where the repositories are)")
        tasks = load_swebench_jsonl(config["tasks_file"], config["repos_root"])
    else:
        tasks = load_problems(config.get("libraries"))
    wanted = config.get("task_ids")
    if wanted is not None:
        unknown = sorted(set(wanted) - {t.instance_id for t in tasks})
        if unknown:
            raise ValueError(f"unknown task ids: {', '.join(unknown[:5])}")
        tasks = [t for t in tasks if t.instance_id in set(wanted)]
    if not tasks:
        raise ValueError("no SWE tasks selected (is datasets/swe populated?)")
    return tasks


_grades: OrderedDict[str, Outcome] = OrderedDict()
_grades_lock = threading.Lock()


def _cached_grade(key: str) -> Outcome | None:
    with _grades_lock:
        return _grades.get(key)


def _remember_grade(key: str, outcome: Outcome) -> None:
    with _grades_lock:
        _grades[key] = outcome
        while len(_grades) > GRADE_CACHE_SIZE:
            _grades.popitem(last=False)


def _call_json(call: ToolCall) -> str:
    from envsuite.families.swe.tools import tool_call_json

    return tool_call_json(call)
