"""The shortest-path planner: exact fewest actions to a goal, and the next one from any state.

Actions are the units: following an edge costs its slot's cost
(:meth:`~.screen_plan.ScreenPlan.cost`: 1, or more behind a tab, the menu or the fold),
arriving on a screen with a distractor pop-up costs 1 more (dismissing it), ``back`` and
``home`` cost 1 each.

From the first screen (home, empty back stack) a shortest solution only moves forward
(``back`` or ``home`` would return to a screen already left, so the moves since then were
wasted), so :func:`distances_to` is Dijkstra on the graph with edges reversed, from the
target. From any later state :func:`best_action` compares, by exact cost: each widget of
the shown screen as it is now (the open tab, scroll offsets, an open menu or pop-up,
keyboard focus), then forward; ``back`` pressed k times, then forward; and ``home``, then
forward. After a forward step the same argument holds again, so the result is exact.

A reset only needs the distance from home (:func:`distance_from_home`, stopped at the
target); the distances from every screen (:func:`distances_to`) are computed the first
time the oracle is asked.
"""

from __future__ import annotations

import heapq

import numpy as np

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.apps.graph import AppGraph
from envsuite.families.gui.apps.graph_app import (
    MENU_ID,
    POPUP_ID,
    TABS_ID,
    GraphApp,
    Target,
    screen_index,
)
from envsuite.families.gui.apps.screen_plan import edge_costs as plan_edge_costs
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.toggles import Checkbox

#: Distance of a screen the target cannot be reached from by moving forward.
UNREACHABLE = 1 << 30


def edge_weights(graph: AppGraph, height: int, arrival: np.ndarray) -> np.ndarray:
    """Per edge (``graph.targets`` order): its cost on a fresh screen plus its arrival cost."""
    is_section = np.zeros(graph.size, dtype=bool)
    is_section[list(graph.sections)] = True
    costs = plan_edge_costs(
        graph.layout, graph.offsets, is_section[graph.targets], height, graph.edge_sources()
    )
    return costs + arrival[graph.targets]


def arrival_costs(graph: AppGraph, distractors: bool, free: int = -1) -> np.ndarray:
    """Per screen: actions spent on arrival (1 to dismiss a pop-up); ``free`` costs 0."""
    arrival = (graph.popup > 0).astype(np.int64) if distractors else np.zeros(graph.size, int)
    if free >= 0:
        arrival[free] = 0
    return arrival


def distance_from_home(graph: AppGraph, weights: np.ndarray, target: int, terminal: int) -> int:
    """Fewest actions from fresh home (pop-up dismissed) to the goal.

    :func:`distances_to` stopped once home is settled: the cheap part of a reset, since
    in-degrees are small except at hubs, so few screens are touched.
    """
    return _reverse_dijkstra(graph, weights, target, terminal, stop=0)[0]


def distances_to(graph: AppGraph, weights: np.ndarray, target: int, terminal: int) -> list[int]:
    """Per screen: fewest actions from its fresh state (pop-up dismissed) to the goal.

    Forward moves only: Dijkstra on the reversed edges, from the target.

    Args:
        graph: The app.
        weights: :func:`edge_weights`.
        target: The goal screen.
        terminal: Actions still needed on the fresh target (0 to arrive, or an action).
    """
    return _reverse_dijkstra(graph, weights, target, terminal, stop=-1)


def _reverse_dijkstra(
    graph: AppGraph, weights: np.ndarray, target: int, terminal: int, stop: int
) -> list[int]:
    order, sources, starts = graph.incoming()
    incoming_weights = weights[order].tolist()
    dist = [UNREACHABLE] * graph.size
    dist[target] = terminal
    heap = [(terminal, target)]
    while heap:
        d, screen = heapq.heappop(heap)
        if screen == stop:
            break
        if d > dist[screen]:
            continue
        for edge in range(starts[screen], starts[screen + 1]):
            source, nd = sources[edge], d + incoming_weights[edge]
            if nd < dist[source]:
                dist[source] = nd
                heapq.heappush(heap, (nd, source))
    return dist


def best_action(
    app: GraphApp, dist: list[int], arrival: list[int], target: int, goal_key: str | None
) -> tuple[int, GuiAction]:
    """The fewest actions from the app's current state, and the first of them.

    Args:
        app: The running app.
        dist: :func:`distances_to` for the goal.
        arrival: :func:`arrival_costs` used for ``dist``.
        target: The goal screen.
        goal_key: ``"<screen id>/<name>"`` of the setting or action to use there, or None
            when arriving is the goal.
    """
    here = screen_index(app.screen_id)
    if goal_key is None and here == target:
        return 0, GuiAction("done")
    screen = app.screen
    modal = any(dialog.modal for dialog in screen.open_dialogs())
    menu = app.widget(MENU_ID)
    expanded = isinstance(menu, Dropdown) and menu.expanded
    best: tuple[int, GuiAction] | None = None

    def consider(cost: int, action: GuiAction) -> None:
        nonlocal best
        if best is None or cost < best[0]:
            best = (cost, action)

    if goal_key is not None and here == target:
        widget = app.settings.get(goal_key) or app.actions.get(goal_key)
        if widget is not None:
            consider(*_reach(app, widget, modal, expanded))
    for edge in app.edges:
        if dist[edge.screen] < UNREACHABLE:
            cost, action = _reach(app, edge, modal, expanded)
            consider(cost + arrival[edge.screen] + dist[edge.screen], action)
    if app.history:
        total = 1 + modal + expanded
        first = _prefix_action(modal, expanded) or GuiAction("back")
        for step, previous in enumerate(reversed(app.history)):
            index = screen_index(previous)
            total += (step > 0) + arrival[index]
            if dist[index] < UNREACHABLE:
                consider(total + dist[index], first)
    if app.history or here != 0:
        consider(1 + arrival[0] + dist[0], GuiAction("home"))
    assert best is not None, "home always reaches the target"
    return best


def _prefix_action(modal: bool, expanded: bool) -> GuiAction | None:
    """What clears the way first: dismiss the pop-up, or close the open menu."""
    if modal:
        return GuiAction("click", element_id=f"{POPUP_ID}/no")
    if expanded:
        return GuiAction("key", key="escape")
    return None


def _reach(app: GraphApp, target: Target, modal: bool, expanded: bool) -> tuple[int, GuiAction]:
    """Fewest actions that activate ``target`` from the screen as it is, and the first."""
    screen = app.screen
    click = GuiAction("click", element_id=target.element_id)
    if target.kind == "option":
        if modal:
            return 3, GuiAction("click", element_id=f"{POPUP_ID}/no")
        if expanded:
            return 1, click
        menu = app.widget(MENU_ID)
        index = int(target.element_id.split("/")[1])
        if isinstance(menu, Dropdown) and screen.focus_id == MENU_ID and menu.selected is None:
            if index == 0:
                return 1, GuiAction("key", key="down")
            if index == len(menu.options) - 1:
                return 1, GuiAction("key", key="up")
        return 2, GuiAction("click", element_id=MENU_ID)
    prefix = int(modal) + int(expanded)
    first = _prefix_action(modal, expanded)
    if not target.container:
        return prefix + 1, first or click
    tabs = app.widget(TABS_ID)
    active = tabs.active if isinstance(tabs, Tabs) else 0
    container = app.widget(target.container)
    widget = app.widget(target.element_id)
    assert isinstance(container, ScrollContainer) and widget is not None
    if prefix == 0 and target.panel == active:
        shortcut = _keyboard(app, target)
        if shortcut is not None:
            return 1, shortcut
    box, rect = container.bounds, widget.bounds
    shown = rect.y - container.scroll_y < box.bottom and rect.bottom - container.scroll_y > box.y
    switch = target.panel != active
    cost = prefix + int(switch) + int(not shown) + 1
    if first is None and switch:
        first = GuiAction("click", element_id=f"{TABS_ID}/{target.panel}")
    if first is None and not shown:
        x, y = box.center
        first = GuiAction("scroll", x=x, y=y, dx=0, dy=rect.y - 2 - box.y - container.scroll_y)
    return cost, first or click


def _keyboard(app: GraphApp, target: Target) -> GuiAction | None:
    """A one-key activation through keyboard focus, where the focus already allows one."""
    screen = app.screen
    focus = screen.focus_id
    if focus is None:
        return None
    if focus == target.element_id:
        widget = app.widget(focus)
        return GuiAction("key", key="space" if isinstance(widget, Checkbox) else "enter")
    if target.kind == "row":
        list_id, row = target.element_id.split("/")
        box = app.widget(list_id)
        if focus == list_id and isinstance(box, ListBox) and box.selected is None:
            if int(row) == 0:
                return GuiAction("key", key="down")
            if int(row) == len(box.items) - 1:
                return GuiAction("key", key="up")
    return None
