"""``envsuite/GuiApp-v0``: generated screen-graph apps (10 to 500 screens) on the simulator."""

from __future__ import annotations

from envsuite.families.gui.gui_env import GuiEnv
from envsuite.families.gui.tasks_index import app_tasks

#: Fewest and most screens an app may have (the generator's bounds).
MIN_APP_SCREENS, MAX_APP_SCREENS = 10, 500
#: Shallowest and deepest app a ``depth`` may ask for.
MIN_DEPTH, MAX_DEPTH = 2, 9


class GuiAppEnv(GuiEnv):
    """Find your way through a generated app: reach a named screen, or use a control on it.

    Description:
        Each episode draws an app from the seed (:mod:`envsuite.families.gui.apps`): a
        screen graph of ``min_screens`` to ``max_screens`` screens (tree, hub, grid,
        chain and mesh topologies, with held-out ones for ``test``), its titles, icons,
        layouts, theme and settings, navigation edges, a back stack and home. The task
        (``task``) is ``app-navigation`` (reach the named screen) or ``app-action`` (turn a
        named setting on or off, or press a named button, on a named screen). With
        ``distractors``, pop-ups open on arrival at some screens and layouts are reshuffled
        on every visit. The oracle plays an exact shortest path from the current state
        (``info["optimal_steps"]`` from the first screen). Everything else (the loop,
        observations, actions, penalties) is :class:`~.gui_env.GuiEnv`'s.

    Observation:
        As :class:`~.gui_env.GuiEnv` (``observation_mode``, default ``"dict"``:
        instruction, screenshot and accessibility text).

    Action:
        As :class:`~.gui_env.GuiEnv`; ``back()`` pops the back stack, ``home()`` returns
        to the first screen.

    Reward:
        1.0 when the app's state meets the goal, else 0; ``-invalid_penalty`` for a
        malformed or inapplicable action.

    Termination:
        Terminated on success or failure (as the task defines); truncated after
        ``max_steps``.

    Arguments:
        task: ``"app-navigation"`` or ``"app-action"`` (see ``tasks_index.app_tasks()``).
        min_screens: Fewest screens of the app (10 to 500).
        max_screens: Most screens of the app (``min_screens`` to 500).
        distractors: Seeded pop-ups and layout reshuffles.
        depth: Levels below home (2 to 9; the target sits on the deepest), or None for
            the split's depths (train 2-4, test 5-7).
        split, width, height (at least 224), observation_mode, action_mode,
            screenshot_size, max_steps, invalid_penalty, backend, render_mode: as
            :class:`~.gui_env.GuiEnv`.

    Version history:
        v0: Initial version.
    """

    def __init__(
        self,
        *,
        task: str = "app-navigation",
        min_screens: int = MIN_APP_SCREENS,
        max_screens: int = 100,
        distractors: bool = False,
        depth: int | None = None,
        split: str = "train",
        width: int = 256,
        height: int = 256,
        observation_mode: str = "dict",
        action_mode: str | None = None,
        screenshot_size: int | list[int] | None = None,
        max_steps: int | None = None,
        invalid_penalty: float = 0.1,
        backend: str = "simulator",
        render_mode: str | None = None,
    ) -> None:
        tasks = app_tasks()
        if not isinstance(task, str) or task not in tasks:
            raise ValueError(f"unknown app task {task!r}; known: {', '.join(sorted(tasks))}")
        for name, value in (("min_screens", min_screens), ("max_screens", max_screens)):
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not MIN_APP_SCREENS <= value <= MAX_APP_SCREENS
            ):
                raise ValueError(
                    f"{name} must be an int from {MIN_APP_SCREENS} to {MAX_APP_SCREENS}; "
                    f"got {value!r}"
                )
        if min_screens > max_screens:
            raise ValueError(f"min_screens {min_screens} exceeds max_screens {max_screens}")
        if not isinstance(distractors, bool):
            raise ValueError(f"distractors must be True or False; got {distractors!r}")
        if depth is not None and (
            isinstance(depth, bool)
            or not isinstance(depth, int)
            or not MIN_DEPTH <= depth <= MAX_DEPTH
        ):
            raise ValueError(
                f"depth must be an int from {MIN_DEPTH} to {MAX_DEPTH} or None; got {depth!r}"
            )
        super().__init__(
            task=task,
            split=split,
            width=width,
            height=height,
            observation_mode=observation_mode,
            action_mode=action_mode,
            screenshot_size=screenshot_size,
            max_steps=max_steps,
            invalid_penalty=invalid_penalty,
            backend=backend,
            task_options={
                "min_screens": min_screens,
                "max_screens": max_screens,
                "distractors": distractors,
                "depth": depth,
            },
            render_mode=render_mode,
        )
        self.min_screens, self.max_screens = min_screens, max_screens
        self.distractors, self.depth = distractors, depth
