"""``envsuite/GuiForm-v0``: the web-form tasks (MiniWoB++'s most used types) on the simulator."""

from __future__ import annotations

from typing import Any

from envsuite.families.gui.gui_env import GuiEnv
from envsuite.families.gui.tasks_index import form_tasks


class GuiFormEnv(GuiEnv):
    """A web-form task: click the named button, fill and submit a form, pick from a list.

    Description:
        One task type of :mod:`envsuite.families.gui.forms` (``task``, a MiniWoB++ name
        such as ``click-button``, ``enter-text`` or ``login-user``), drawn afresh from the
        seed every episode: the words, the layout, the theme and, with ``popup_rate``, a
        seeded distractor pop-up that must be closed first, with ``shift_rate`` a seeded
        layout shift. Everything else (the loop,
        observations, actions, penalties) is :class:`~.gui_env.GuiEnv`'s.

    Observation:
        As :class:`~.gui_env.GuiEnv` (``observation_mode``, default ``"dict"``:
        instruction, screenshot and accessibility text).

    Action:
        As :class:`~.gui_env.GuiEnv`: the GUI grammar's text (``click("submit")``,
        ``type("Ada")``, ...), the common GUI-agent formats, or a Dict-space element.

    Reward:
        1.0 when the form's state meets the goal (the task's predicate), else 0;
        ``-invalid_penalty`` for a malformed or inapplicable action.

    Termination:
        Terminated on success or failure (a wrong click or submission); truncated after
        ``max_steps``.

    Arguments:
        task: The form task type's name (see ``tasks_index.form_tasks()``).
        popup_rate: Probability, per episode, of the distractor pop-up (0 to 1).
        shift_rate: Probability, per episode, of a layout shift: a banner pushes the form
            down after a seeded action (0 to 1; it costs no action).
        split, width, height, observation_mode, action_mode, screenshot_size, max_steps,
            invalid_penalty, backend, render_mode: as :class:`~.gui_env.GuiEnv`.

    Version history:
        v0: Initial version.
    """

    def __init__(
        self,
        *,
        task: str = "click-button",
        popup_rate: float = 0.0,
        shift_rate: float = 0.0,
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
        tasks = form_tasks()
        if not isinstance(task, str) or task not in tasks:
            raise ValueError(
                f"unknown form task {task!r}; known: {', '.join(sorted(tasks))}"
                if isinstance(task, str)
                else f"task must be a form task's name; got {task!r}"
            )
        for name, rate in (("popup_rate", popup_rate), ("shift_rate", shift_rate)):
            if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
                raise ValueError(f"{name} must be a number in [0, 1]; got {rate!r}")
        options: dict[str, Any] = {"popup_rate": float(popup_rate), "shift_rate": float(shift_rate)}
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
            task_options=options,
            render_mode=render_mode,
        )
        self.popup_rate, self.shift_rate = float(popup_rate), float(shift_rate)
