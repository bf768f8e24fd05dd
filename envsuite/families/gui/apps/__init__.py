"""Generated apps as screen graphs (issue 17, GUI Exploration Lab style).

:func:`~.graph.generate_graph` draws an app of 10-500 screens from a seeded generator
(topology, depth, layout, theme, icons, titles, settings, pop-ups) as compact lists;
:class:`~.graph_app.GraphApp` builds each screen only when it is shown; the planner
(:mod:`~.planner`) gives the exact fewest actions and the next one from any state.

Tasks (``APP_TASKS``): ``app-navigation`` (reach a named screen) and ``app-action``
(turn a named setting on or off, or press a named button, on a named screen).
"""

from __future__ import annotations

from envsuite.families.gui.apps.tasks import AppActionTask, AppNavigationTask, AppTask
from envsuite.families.gui.task import GuiTask

#: App task types by name.
APP_TASKS: dict[str, type[GuiTask]] = {
    AppNavigationTask.name: AppNavigationTask,
    AppActionTask.name: AppActionTask,
}

__all__ = ["APP_TASKS", "AppActionTask", "AppNavigationTask", "AppTask"]
