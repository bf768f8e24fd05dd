"""``envsuite/GuiForm-v0`` and ``envsuite/GuiApp-v0``: GUI tasks as a Gymnasium env."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from envsuite.env_base import EnvsuiteEnv
from envsuite.families.gui.accessibility import accessibility_json, accessibility_text
from envsuite.families.gui.action_grammar import MAX_ACTION_CHARS, parse_gui_action
from envsuite.families.gui.action_space import action_space as dict_action_space
from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.backend import GuiBackend, load_backend
from envsuite.families.gui.discrete_actions import discrete_space, from_discrete
from envsuite.families.gui.observation_modes import (
    OBSERVATION_MODES,
    ObservationMode,
    action_help,
    fitted,
    observation_space,
    parse_observation_mode,
    text_observation,
    text_space,
)
from envsuite.families.gui.task import SPLITS, GuiTask
from envsuite.families.gui.task_seeding import TaskSeeder, root_seed
from envsuite.families.gui.tasks_index import task_class
from envsuite.rendering import checked_render_mode
from envsuite.seeding import seed_sequence

#: Action modes: the action space an agent samples from (every mode accepts every form).
ACTION_MODES = ("text", "dict", "discrete")
#: Longest ``type`` text in the Dict action space.
DICT_TEXT_CHARS = 64
#: Fewest steps the default step limit allows.
MIN_STEP_LIMIT = 20
#: Smallest and largest logical screen side, and screenshot side, in pixels.
MIN_SIDE, MAX_SIDE = 64, 2048
#: Distinct action texts whose parse is remembered (an RL agent's vocabulary repeats; a
#: language model's long replies rarely do, so only short texts are kept). The parses
#: (frozen :class:`GuiAction` values, a pure function of the text) are shared by every
#: env of the process, so the copies of a vector env and each new env start warm.
PARSE_CACHE_SIZE = 4096
CACHED_ACTION_CHARS = 100
_PARSED: dict[str, GuiAction] = {}


class GuiEnv(EnvsuiteEnv[Any, Any, GuiAction]):
    """A GUI task (a web form or a generated app) on the Pillow simulator.

    Description:
        Each episode draws one instance of ``task`` (a
        :class:`~envsuite.families.gui.task.GuiTask` type from
        :mod:`~envsuite.families.gui.tasks_index`) from the env's generator: an app with
        its screens, a goal given as a sentence, and the fewest actions that reach it
        (``info["optimal_steps"]``). The agent acts on the screen with clicks, typing,
        keys, scrolling, dragging and ``back`` / ``home`` / ``done``; the app reacts as
        the task's app defines (a form submits, a link opens another screen). Same seed
        and actions give byte-identical observations (screenshots included).

        A backend applies each action and draws the screen (:mod:`.backend`); the default
        ``"simulator"`` is the in-process Pillow simulator.

    Observation:
        Chosen by ``observation_mode`` (see :mod:`.observation_modes`): ``"dict"`` (the
        default: ``instruction``, ``screenshot``, ``a11y``), ``"screenshot"`` (an RGB
        ``uint8`` array of ``screenshot_size``), ``"a11y"`` (the accessibility tree as
        indented text: one element a line with its id, role, name, bounds and states),
        ``"a11y_json"`` (the tree as JSON), ``"instruction"`` (the goal's sentence only; no
        screen is drawn or described, the fastest mode), ``"text"`` (instruction then
        accessibility text), ``"vector"`` (the screenshot, for classic RL: it also makes
        ``"discrete"`` the default action mode), or parts joined by ``+``. The first
        observation's
        instruction ends with a few lines on how to act (the grammar, the screen size).
        Coordinates everywhere (bounds, clicks) are the screen's logical pixels, whatever
        ``screenshot_size`` is.

    Action:
        Text in the GUI grammar of :mod:`~envsuite.families.gui.action_grammar`
        (``click(40, 12)``, ``click("submit")``, ``type("hello")``, ``key("enter")``,
        ``scroll(0, 120)``, ``drag(x1, y1, x2, y2)``, ``back()``, ``home()``, ``done()``),
        the common GUI-agent formats it reads (UI-TARS calls, computer-use JSON), a JSON
        dict, or an element of the Dict space of
        :func:`~envsuite.families.gui.action_space.action_space` (for RL agents), or
        ``[verb, x, y]`` of :mod:`~envsuite.families.gui.discrete_actions` (clicks,
        scrolls and keys at a point, for libraries without Dict action spaces). Every
        form is accepted in every ``action_mode``; the mode only chooses the declared
        action space: ``"text"`` (envsuite's text space), ``"dict"`` or ``"discrete"``
        (``MultiDiscrete([verbs, width, height])``).

    Reward:
        1.0 on the step the task succeeds, 0 on other steps; ``-invalid_penalty`` for a
        malformed action or one that cannot apply (a point off the screen, an element that
        is not shown, is behind a modal dialog or is scrolled out of view), which sets
        ``info["parse_error"]`` and leaves the app as it was. Success and failure are
        predicates on the app's state (never time, never a judge).

    Termination:
        Terminated when the task succeeds or fails (a wrong submission, ``done()`` too
        early, as the task defines); ``info["success"]`` and ``info["score"]`` are set
        then, and on truncation (False and 0). The score is the efficiency of a success,
        ``optimal_steps / steps`` (malformed steps count), and 0 for a failure.
        Truncated after ``max_steps`` steps (malformed ones count).

    Arguments:
        task: A task name (see ``tasks_index.all_tasks()``), or a ``GuiTask`` subclass
            of your own (direct construction only; specs take names).
        split: ``"train"`` or ``"test"``: what the task holds out for ``test`` (icons,
            themes, layouts, words, topologies) is never drawn for ``train``.
        width: Logical screen width in pixels (64 to 2048).
        height: Logical screen height in pixels (64 to 2048).
        observation_mode: See Observation.
        action_mode: ``"text"``, ``"dict"`` or ``"discrete"`` (see Action); None for
            ``"discrete"`` in ``"vector"`` observation mode, else ``"text"``.
        screenshot_size: ``[width, height]`` of screenshots (or one int for a square);
            None for the logical size. Whole-number enlargements repeat pixels.
        max_steps: Step limit; None for ``max(20, 4 * optimal_steps)`` of each episode.
        invalid_penalty: Cost of a malformed or inapplicable action (>= 0).
        backend: ``"simulator"`` (see :mod:`.backend` for others).
        task_options: Keyword arguments for the task type's constructor (the generated
            apps take their size and shape this way).
        render_mode: ``"rgb_array"`` (the screenshot) or ``"ansi"`` (the instruction and
            the accessibility text).

    Version history:
        v0: Initial version.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}
    #: The named observation modes (besides ``+`` lists of parts).
    observation_modes: tuple[str, ...] = OBSERVATION_MODES

    def __init__(
        self,
        *,
        task: str | type[GuiTask] = "click-button",
        split: str = "train",
        width: int = 256,
        height: int = 256,
        observation_mode: str = "dict",
        action_mode: str | None = None,
        screenshot_size: int | list[int] | tuple[int, int] | None = None,
        max_steps: int | None = None,
        invalid_penalty: float = 0.1,
        backend: str = "simulator",
        task_options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.task_class = _task_type(task)
        if split not in SPLITS:
            raise ValueError(f"split must be one of {', '.join(SPLITS)}; got {split!r}")
        self.width, self.height = _side("width", width), _side("height", height)
        self.mode: ObservationMode = parse_observation_mode(observation_mode)
        if action_mode is None:
            action_mode = "discrete" if self.mode.name == "vector" else "text"
        if action_mode not in ACTION_MODES:
            raise ValueError(f"action_mode must be one of {ACTION_MODES}; got {action_mode!r}")
        if max_steps is not None and (
            isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
        ):
            raise ValueError(f"max_steps must be a positive int or None; got {max_steps!r}")
        if isinstance(invalid_penalty, bool) or not isinstance(invalid_penalty, int | float):
            raise ValueError(f"invalid_penalty must be a number; got {invalid_penalty!r}")
        if not 0 <= invalid_penalty < float("inf"):
            raise ValueError(f"invalid_penalty must be finite and >= 0; got {invalid_penalty!r}")
        if task_options is not None and not isinstance(task_options, Mapping):
            raise ValueError(f"task_options must be a dict or None; got {task_options!r}")
        self.split = split
        self.action_mode = action_mode
        self.screenshot_size = _screenshot_size(screenshot_size, (self.width, self.height))
        self.max_steps = max_steps
        self.invalid_penalty = float(invalid_penalty)
        self.task_options = dict(task_options or {})
        self.render_mode = checked_render_mode(render_mode, self.metadata["render_modes"])
        self.backend_name = backend
        self.backend: GuiBackend = load_backend(backend)
        self.observation_space = observation_space(self.mode, self.screenshot_size)
        self._shows_tree = any(part.startswith("a11y") for part in self.mode.parts)
        self._help = action_help(self.width, self.height, element_ids=self._shows_tree)
        self.action_space: spaces.Space[Any] = (
            text_space(MAX_ACTION_CHARS)
            if action_mode == "text"
            else dict_action_space(self.width, self.height, DICT_TEXT_CHARS)
            if action_mode == "dict"
            else discrete_space(self.width, self.height)
        )
        self._seeder = TaskSeeder(seed_sequence(0, "gui-task", self.task_class.name).spawn_key)
        self.task: GuiTask | None = None
        self.step_limit_now = MIN_STEP_LIMIT
        self.steps = 0
        # The text the "instruction" mode shows after the first step (set per episode).
        self._instruction_only = not self.mode.as_dict and self.mode.parts == ("instruction",)
        self._goal_text = ""
        self._optimal = 0
        self._observation: Any = None

    # -- hooks -------------------------------------------------------------------------
    def new_episode(
        self, seed: int | None, options: dict[str, Any] | None
    ) -> tuple[Any, dict[str, Any]]:
        """Draw a task instance from a generator derived from ``np_random``; show it."""
        # 63 bits from the env's generator seed a SeedSequence named for the task type
        # (make_generator(root, "gui-task", name), its spawn key computed once): the
        # task's stream is independent of the env's and reproducible from it.
        # (TaskSeeder and root_seed build that generator and draw that root as numpy's
        # calls would, with less of numpy's per-call glue; see task_seeding.)
        rng = self._seeder.generator(root_seed(self.np_random))
        self.task = self.task_class(
            rng, split=self.split, width=self.width, height=self.height, **self.task_options
        )
        self.backend.start(self.task.app)
        self.steps = 0
        optimal = self._optimal = int(self.task.optimal_steps)
        self.step_limit_now = (
            self.max_steps if self.max_steps is not None else max(MIN_STEP_LIMIT, 4 * optimal)
        )
        self._goal_text = fitted(self.task.goal.instruction)
        self._observation = self._observe(first=True)
        return self._observation, self._info()

    def parse_action(self, action: Any) -> GuiAction:
        """Any accepted form (text, JSON, a Dict-space element, ``[verb, x, y]``) as a GuiAction."""
        if isinstance(action, str) and len(action) <= CACHED_ACTION_CHARS:
            parsed = _PARSED.get(action)
            if parsed is None:
                parsed = parse_gui_action(action)
                if len(_PARSED) >= PARSE_CACHE_SIZE:
                    _PARSED.clear()
                _PARSED[action] = parsed
            return parsed
        if isinstance(action, np.ndarray | list | tuple):
            return from_discrete(action, self.width, self.height)
        return parse_gui_action(action)

    def apply_action(self, parsed: GuiAction) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Perform the action, let the app react, then judge the task's state."""
        task = self.task
        if task is None:  # the base's reset-before-step rule makes this unreachable
            raise RuntimeError("no task: call reset() first")
        app = task.app
        try:
            performed = self.backend.perform(app, parsed)
        except GuiActionError as exc:  # well-formed but inapplicable here: the penalty
            observation, reward, terminated, truncated, info = self.apply_invalid_action(str(exc))
            info["parse_error"] = str(exc)
            return observation, reward, terminated, truncated, info
        app.after_action(performed.events, performed.navigation)
        self.steps += 1
        outcome = task.outcome()
        terminated = outcome is not None
        truncated = not terminated and self.steps >= self.step_limit_now
        self._observation = self._goal_text if self._instruction_only else self._observe()
        info = {"instruction": task.goal.instruction, "optimal_steps": self._optimal}
        if terminated or truncated:
            info["success"] = outcome == "success"
            info["score"] = self._score(info["success"])
        reward = 1.0 if outcome == "success" else 0.0
        return self._observation, reward, terminated, truncated, info

    def apply_invalid_action(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The penalty; the app is left as it was (the observation too)."""
        self._live_task()
        self.steps += 1
        truncated = self.steps >= self.step_limit_now
        info = self._info()
        if truncated:
            info["success"], info["score"] = False, 0.0
        return _copied(self._observation), -self.invalid_penalty, False, truncated, info

    def _score(self, success: bool) -> float:
        """Efficiency of a success: the fewest steps over the steps taken (0 on failure)."""
        optimal = int(self._live_task().optimal_steps)
        return min(1.0, optimal / max(self.steps, 1)) if success else 0.0

    # -- observations ------------------------------------------------------------------
    def _live_task(self) -> GuiTask:
        if self.task is None:  # the base's reset-before-step rule makes this unreachable
            raise RuntimeError("no task: call reset() first")
        return self.task

    def _instruction(self, first: bool) -> str:
        """The goal's sentence; the first observation adds how to act."""
        goal = self._live_task().goal.instruction
        if not first:
            return goal
        return f"{goal}\n\n{self._help}"

    def _part(self, part: str, first: bool) -> Any:
        task = self._live_task()
        if part == "instruction":
            return fitted(self._instruction(first))
        if part == "screenshot":
            return self.screenshot()
        if part == "a11y":
            return fitted(accessibility_text(task.app.screen))
        return fitted(accessibility_json(task.app.screen))

    def _observe(self, first: bool = False) -> Any:
        if self._instruction_only and not first:  # the fastest mode's every step
            return self._goal_text
        if self.mode.as_dict:
            return {part: self._part(part, first) for part in self.mode.parts}
        if self.mode.name == "text":
            screen = accessibility_text(self._live_task().app.screen)
            return text_observation(self._instruction(first), screen)
        return self._part(self.mode.parts[0], first)

    def _info(self) -> dict[str, Any]:
        task = self._live_task()
        return {"instruction": task.goal.instruction, "optimal_steps": self._optimal}

    def screenshot(self) -> np.ndarray:
        """The screen now, as an RGB array of ``screenshot_size``."""
        task = self._live_task()
        return self.backend.screenshot(task.app, self.screenshot_size)

    def text_view(self) -> str:
        """The instruction and the accessibility text (the ``"text"`` mode, ``ansi`` frames)."""
        task = self._live_task()
        return text_observation(task.goal.instruction, accessibility_text(task.app.screen))

    def render(self) -> Any:
        """``rgb_array``: the screenshot; ``ansi``: :meth:`text_view`; None otherwise."""
        if self.task is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.screenshot()
        return self.text_view()

    def state_digest(self) -> str:
        """sha256 of the app's logical state (what two backends must agree on)."""
        return self._live_task().app.state_digest()

    def close(self) -> None:
        """Release the backend."""
        self.backend.close()
        super().close()


def _copied(observation: Any) -> Any:
    """A copy of ``observation`` whose arrays are new (an agent may write into the last)."""
    if isinstance(observation, np.ndarray):
        return observation.copy()
    if isinstance(observation, dict):
        return {key: _copied(value) for key, value in observation.items()}
    return observation


def _task_type(task: Any) -> type[GuiTask]:
    if inspect.isclass(task) and issubclass(task, GuiTask):
        return task
    if not isinstance(task, str):
        raise ValueError(f"task must be a task name or a GuiTask subclass; got {task!r}")
    return task_class(task)


def _side(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
        raise ValueError(f"{name} must be an int from {MIN_SIDE} to {MAX_SIDE}; got {value!r}")
    return value


def _screenshot_size(value: Any, logical: tuple[int, int]) -> tuple[int, int]:
    if value is None:
        return logical
    if isinstance(value, int) and not isinstance(value, bool):
        return _side("screenshot_size", value), _side("screenshot_size", value)
    if isinstance(value, list | tuple) and len(value) == 2:
        return _side("screenshot_size", value[0]), _side("screenshot_size", value[1])
    raise ValueError(f"screenshot_size must be an int, [width, height] or None; got {value!r}")
