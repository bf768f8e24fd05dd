"""Generated apps as screen graphs (issue 17, GUI Exploration Lab style).

:func:`~.graph.generate_graph` draws an app of 10-500 screens from a seeded generator as
a few numpy arrays (topology, depth, layout, theme, icons, titles, settings, pop-ups);
:class:`~.graph_app.GraphApp` builds a screen's widgets only when it is shown; the
planner (:mod:`~.planner`) gives the exact fewest actions and the next one from any
state, counting the extra actions behind tabs, the "More" menu, the fold and pop-ups.

Tasks (``APP_TASKS``), both built as ``Task(rng, split, width, height, min_screens=10,
max_screens=100, distractors=False, depth=None)``:

- ``app-navigation``: reach the screen named by its title and a route of titles;
- ``app-action``: on that screen, turn a named setting on or off or press a named button.

Splits: ``test`` draws only icons, themes, layouts, topologies and depths that ``train``
never draws (:mod:`~.styles`). Distractors (opt-in): modal pop-ups on arrival at about
30% of the screens, and layouts reshuffled on every visit (:mod:`~.graph_app`).

How many apps: per split and size, every choice of (topology, depth, layout, theme, app
name) — 3 x 3 x 5 x 5 x 20 = 4,500 for ``train``, 2 x 3 x 3 x 3 x 20 = 1,080 for ``test``
— times the graph drawn for it, times the titles: the screens other than home and the
(at most 5) icon sections get distinct titles from 1,500 two-word titles, at least
1,500 x 1,499 x 1,498 x 1,497 > 5 x 10^12 orders at the smallest size. Leaving words
aside, 5,000 seeds at the default sizes (10-100 screens) gave 5,000 (train) and 4,915
(test) different combinations of graph, layout, theme and icons; the tests sample
3,000 seeds per split for both counts.
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
