"""The planner is exact: the oracle solves every task in exactly ``optimal_steps``, the
costs agree with an independent search, and no shorter solution exists."""

from __future__ import annotations

import contextlib
import copy
import itertools
from collections import deque

import numpy as np
import pytest

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.apps import APP_TASKS
from envsuite.families.gui.apps.graph_app import POPUP_ID, GraphApp, screen_id
from envsuite.families.gui.apps.screen_plan import edge_costs, plan_screen
from envsuite.families.gui.buttons import Button, Link
from envsuite.families.gui.dropdown import Dropdown, DropdownOption
from envsuite.families.gui.list_box import ListItem
from envsuite.families.gui.placement import place
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tab
from envsuite.families.gui.toggles import Checkbox
from tests.families.gui.apps.app_driver import make, run_oracle, step

TASKS = sorted(APP_TASKS)


@pytest.mark.parametrize("name", TASKS)
@pytest.mark.parametrize("split", ["train", "test"])
@pytest.mark.parametrize("distractors", [False, True])
def test_oracle_solves_in_exactly_optimal_steps(name, split, distractors):
    for seed in range(40):
        task = make(name, seed, split=split, max_screens=80, distractors=distractors)
        actions = run_oracle(task)
        assert task.outcome() == "success", (seed, task.goal.instruction)
        assert len(actions) == task.optimal_steps, seed


@pytest.mark.parametrize("name", TASKS)
def test_oracle_on_the_largest_apps(name):
    for seed, split in [(0, "train"), (1, "test"), (2, "train"), (3, "test")]:
        task = make(name, seed, split=split, min_screens=500, max_screens=500, distractors=True)
        assert task.graph.size == 500
        actions = run_oracle(task)
        assert task.outcome() == "success" and len(actions) == task.optimal_steps


def _screen_costs(app: GraphApp, screen: int) -> dict[int, int]:
    """Per out-edge target: actions to follow it, read off the built screen's widgets."""
    built = app.build_screen(screen_id(screen))
    shown = {p.widget.element_id: p for p in place(built)}
    costs: dict[int, int] = {}
    for target in app.edges:
        widget = built.find(target.element_id)
        if isinstance(widget, DropdownOption):
            cost = 2  # open the menu, choose
        else:
            item = shown.get(target.element_id)
            cost = 1
            if item is None:  # on another tab: show it first, then look again
                cost += 1
                strip = built.find("tabs")
                strip.switch(target.panel)
                item = {p.widget.element_id: p for p in place(built)}[target.element_id]
            if item.visible is None:
                cost += 1
        costs[target.screen] = min(cost, costs.get(target.screen, cost))
    return costs


@pytest.mark.parametrize("name", TASKS)
@pytest.mark.parametrize("split", ["train", "test"])
def test_optimal_steps_match_a_breadth_first_search_of_the_built_screens(name, split):
    """Every edge becomes a chain of unit steps as long as its cost on the built screen
    (plus one for a pop-up on arrival); plain BFS over that graph gives the same length."""
    for seed in range(12):
        task = make(name, seed, split=split, max_screens=60, distractors=bool(seed % 2))
        graph, app = task.graph, GraphApp(task.graph, distractors=task.distractors)
        start = 0
        popup = [bool(task.distractors and graph.popup[s]) for s in range(graph.size)]
        goal = ("goal",)
        neighbours: dict = {}
        for screen in range(graph.size):
            for target, cost in _screen_costs(app, screen).items():
                arrive = popup[target]
                if name == "app-navigation" and target == task.target:
                    arrive, end = False, goal
                else:
                    end = target
                chain = [screen, *[(screen, target, k) for k in range(cost - 1 + arrive)], end]
                for a, b in itertools.pairwise(chain):
                    neighbours.setdefault(a, []).append(b)
        if name == "app-action":
            key = task._goal_key
            built_app = GraphApp(graph, distractors=False)
            built_app.go(screen_id(task.target))
            widget = (built_app.settings.get(key) or built_app.actions[key]).element_id
            item = {p.widget.element_id: p for p in place(built_app.screen)}[widget]
            act = 1 + (item.visible is None)
            chain = [task.target, *[("act", k) for k in range(act - 1)], goal]
            for a, b in itertools.pairwise(chain):
                neighbours.setdefault(a, []).append(b)
        seen = {start: popup[start] * 1}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in neighbours.get(node, []):
                if nxt not in seen:
                    seen[nxt] = seen[node] + 1
                    queue.append(nxt)
        assert seen[goal] == task.optimal_steps, (seed, task.goal.instruction)


def test_vectorised_edge_costs_agree_with_the_screen_plans():
    for seed in range(300):
        split = ("train", "test")[seed % 2]
        task = make("app-navigation", seed, split=split, max_screens=120)
        graph = task.graph
        is_section = np.zeros(graph.size, dtype=bool)
        is_section[list(graph.sections)] = True
        vector = edge_costs(graph.layout, graph.offsets, is_section[graph.targets], 256)
        looped = []
        for screen in range(graph.size):
            plan = plan_screen(
                graph.layout,
                tuple(t in graph.sections for t in graph.out(screen)),
                len(graph.settings(screen)),
                len(graph.actions(screen)),
                256,
            )
            looped.extend(plan.cost(slot) for slot in plan.edges)
        assert vector.tolist() == looped, seed


#: Keys a shortest solution could use.
KEYS = ("escape", "tab", "shift+tab", "enter", "space", "up", "down", "left", "right")


def _candidate_actions(app: GraphApp, keys: bool = False) -> list[GuiAction]:
    """Every click on a live control, every scroll that shows a hidden row, back, home,
    escape, and with ``keys`` every key that can act: what a shortest solution could use."""
    actions = [GuiAction("back"), GuiAction("home")]
    actions += [GuiAction("key", key=k) for k in (KEYS if keys else KEYS[:1])]
    placed = place(app.screen)
    clickable = (Button, Link, Tab, ListItem, Dropdown, DropdownOption, Checkbox)
    for item in placed:
        widget = item.widget
        if item.inert or item.visible is None:
            continue
        if isinstance(widget, clickable):
            actions.append(GuiAction("click", element_id=widget.element_id))
        if isinstance(widget, ScrollContainer):
            x, y = item.visible.center
            for row in range(0, widget.max_scroll()[1] + 28, 28):
                actions.append(GuiAction("scroll", x=x, y=y, dx=0, dy=row - widget.scroll_y))
    return actions


def _shortest_by_search(task, budget: int, keys: bool) -> int | None:
    """Fewest actions to success found by breadth-first search over real app states
    (dispatch on copies), up to ``budget`` actions; None if none within it."""
    frontier = [task]
    seen = {task.app.state_digest()}
    for depth in range(1, budget + 1):
        nxt = []
        for node in frontier:
            for action in _candidate_actions(node.app, keys):
                child = copy.deepcopy(node, memo={id(node.graph): node.graph})
                try:
                    step(child.app, action)
                except GuiActionError:  # an action that cannot apply is not a step
                    continue
                digest = child.app.state_digest()
                if digest in seen:
                    continue
                seen.add(digest)
                if child.outcome() == "success":
                    return depth
                if child.outcome() is None:
                    nxt.append(child)
        frontier = nxt
    return None


@pytest.mark.parametrize("name", TASKS)
def test_no_shorter_solution_exists_on_small_apps(name):
    """Search over the real app states finds no solution shorter than ``optimal_steps``."""
    checked = 0
    for seed in range(40):
        task = make(name, seed, min_screens=10, max_screens=10, distractors=bool(seed % 2))
        if task.optimal_steps > 4 or checked == 6:
            continue
        checked += 1
        assert _shortest_by_search(task, task.optimal_steps, keys=False) == task.optimal_steps
    assert checked == 6


@pytest.mark.parametrize("name", TASKS)
def test_remaining_steps_are_exact_from_perturbed_states_with_keyboard_focus(name):
    """After random actions (keys too: focus moved, menus opened, tabs switched), search
    with every key finds no solution shorter than the planner's count, and the oracle
    finishes in exactly that count."""
    checked = 0
    for seed in range(150):
        if checked == 8:
            break
        task = make(name, seed, min_screens=10, max_screens=10, distractors=bool(seed % 2))
        rng = np.random.default_rng(seed)
        for _ in range(3):
            options = _candidate_actions(task.app, keys=True)
            with contextlib.suppress(GuiActionError):  # e.g. a click behind a pop-up
                step(task.app, options[int(rng.integers(len(options)))])
        remaining = task.remaining_steps() if task.outcome() is None else 0
        if not 1 <= remaining <= 3:
            continue
        checked += 1
        assert _shortest_by_search(copy.deepcopy(task), remaining, keys=True) == remaining, seed
        actions = run_oracle(task)
        assert task.outcome() == "success" and len(actions) == remaining
    assert checked == 8


def test_oracle_recovers_from_a_wrong_turn():
    """After random detours (wrong screens, an open menu, another tab) the oracle still
    finishes in exactly the planner's remaining count."""
    for seed in range(30):
        task = make("app-navigation", seed, max_screens=60, distractors=bool(seed % 2))
        rng = np.random.default_rng(1000 + seed)
        for _ in range(4):
            if task.outcome() is not None:
                break
            options = _candidate_actions(task.app, keys=True)
            with contextlib.suppress(GuiActionError):  # e.g. a click behind a pop-up
                step(task.app, options[int(rng.integers(len(options)))])
        if task.outcome() is not None:
            continue
        remaining = task.remaining_steps()
        actions = run_oracle(task)
        assert task.outcome() == "success" and len(actions) == remaining, seed


def test_popup_is_dismissed_first():
    for seed in range(60):
        task = make("app-navigation", seed, distractors=True)
        if task.app.screen.open_dialogs():
            assert task.oracle_action() == GuiAction("click", element_id=f"{POPUP_ID}/no")
            return
    pytest.fail("no seed showed a pop-up on home")
