"""Every GUI task type by name: the web forms' and the generated apps'.

Task names are unique across the two packages (``FORM_TASKS`` of
:mod:`envsuite.families.gui.forms`, ``APP_TASKS`` of :mod:`envsuite.families.gui.apps`);
the env resolves its ``task`` argument here. The packages are imported on first use, so
registering the specs imports neither.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Mapping

from envsuite.families.gui.task import GuiTask


@functools.cache
def form_tasks() -> Mapping[str, type[GuiTask]]:
    """The web-form task types (MiniWoB++-style), by name."""
    from envsuite.families.gui.forms import FORM_TASKS

    return dict(FORM_TASKS)


@functools.cache
def app_tasks() -> Mapping[str, type[GuiTask]]:
    """The generated-app task types, by name."""
    try:
        from envsuite.families.gui.apps import APP_TASKS
    except ModuleNotFoundError as exc:  # the apps package is not merged yet
        if exc.name != "envsuite.families.gui.apps":
            raise
        return {}
    return dict(APP_TASKS)


@functools.cache
def all_tasks() -> Mapping[str, type[GuiTask]]:
    """Every task type, forms first.

    Raises:
        RuntimeError: a name is used by both packages.
    """
    forms, apps = form_tasks(), app_tasks()
    both = sorted(set(forms) & set(apps))
    if both:
        raise RuntimeError(f"GUI task names used twice: {', '.join(both)}")
    return {**forms, **apps}


def task_class(name: str) -> type[GuiTask]:
    """The task type called ``name``.

    Raises:
        ValueError: no task has that name (the closest names are suggested).
    """
    tasks = all_tasks()
    if isinstance(name, str) and name in tasks:
        return tasks[name]
    close = difflib.get_close_matches(str(name), list(tasks), n=3)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise ValueError(f"unknown GUI task {name!r}.{hint} Known: {', '.join(sorted(tasks))}")
