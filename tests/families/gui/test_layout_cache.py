"""The cached widget tree, placement and hit tests agree with a fresh computation.

:meth:`Screen.tree` keeps a screen's widget list, placement and hit tests while the
layout generation, the screen's lists and every container's child lists are unchanged.
A stale cache would send clicks to the wrong widget and draw wrong pictures, so these
tests drive every task type (both splits, with distractors) through random and oracle
actions and, after every step, compare each cached answer with one computed afresh.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.placement import (
    MAX_REMEMBERED_HITS,
    hit,
    hit_on,
    live_by_id,
    place,
    place_now,
)
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.task import SPLITS, GuiTask
from envsuite.families.gui.tasks_index import all_tasks, app_tasks
from envsuite.families.gui.widget import Group, Label, Widget, touch_layout

STEPS = 60
KEYS = ("tab", "shift+tab", "enter", "escape", "space", "down", "up", "pagedown", "backspace")


def fresh_widgets(screen: Screen) -> Iterator[Widget]:
    """Every widget, walked now (the uncached walk ``all_widgets`` used to do)."""
    stack: list[Widget] = [*reversed(screen.dialogs), *reversed(screen.items)]
    while stack:
        widget = stack.pop()
        yield widget
        if isinstance(widget, Tabs):
            inner: list[Widget] = [*widget.tabs, *widget.all_panel_widgets()]
        elif isinstance(widget, Dropdown):
            inner = list(widget.option_widgets)
        else:
            inner = list(widget.children())
        stack.extend(reversed(inner))


def assert_cache_fresh(screen: Screen, rng: np.random.Generator) -> None:
    """Every cached answer about ``screen`` equals the one computed now."""
    cached = place(screen)  # first: a stale cache must be caught, not refreshed
    fresh = place_now(screen)
    assert cached == fresh
    widgets = list(fresh_widgets(screen))
    assert list(screen.all_widgets()) == widgets
    assert screen.expanded_dropdowns() == [
        w for w in widgets if isinstance(w, Dropdown) and w.expanded
    ]
    for widget in widgets:
        first = next(w for w in widgets if w.element_id == widget.element_id)
        assert screen.find(widget.element_id) is first
    live = live_by_id(screen)
    for item in fresh:
        first = next(
            (p for p in fresh if p.widget.element_id == item.widget.element_id and not p.inert),
            None,
        )
        assert live.get(item.widget.element_id) == first
    points = [(int(x), int(y)) for x, y in rng.integers(0, 256, size=(12, 2))]
    points += [p.visible.center for p in fresh if p.visible is not None]
    for x, y in points:
        if x < screen.width and y < screen.height:
            assert hit_on(screen, x, y) == hit(fresh, x, y)


def random_action(task: GuiTask, rng: np.random.Generator) -> GuiAction:
    """The oracle's next move half of the time, else a random click, key, text or scroll."""
    screen = task.app.screen
    roll = rng.random()
    if roll < 0.4:
        return task.oracle_action()
    x, y = (int(v) for v in rng.integers(0, min(screen.width, screen.height), size=2))
    if roll < 0.6:
        return GuiAction("click", x=x, y=y)
    if roll < 0.7:
        shown = [p.widget.element_id for p in place_now(screen) if p.visible is not None]
        if shown:
            return GuiAction("click", element_id=shown[int(rng.integers(len(shown)))])
    if roll < 0.8:
        return GuiAction("key", key=KEYS[int(rng.integers(len(KEYS)))])
    if roll < 0.85:
        return GuiAction("type", text="ab")
    if roll < 0.9:
        return GuiAction("scroll", x=x, y=y, dx=0, dy=int(rng.integers(-60, 61)))
    if roll < 0.93:
        return GuiAction("double_click", x=x, y=y)
    if roll < 0.96:
        return GuiAction("drag", x=x, y=y, dx=x, dy=max(0, y - 40))
    return GuiAction("back")


def new_task(name: str, split: str, rng: np.random.Generator) -> GuiTask:
    options: dict[str, Any] = (
        {"max_screens": 30, "distractors": True}
        if name in app_tasks()
        else {"popup_rate": 0.5, "shift_rate": 0.5}
    )
    return all_tasks()[name](rng, split=split, **options)


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", sorted(all_tasks()))
def test_cache_matches_fresh_computation_over_random_episodes(name: str, split: str) -> None:
    rng = np.random.default_rng([17, sorted(all_tasks()).index(name), SPLITS.index(split)])
    task = new_task(name, split, rng)
    assert_cache_fresh(task.app.screen, rng)
    for _ in range(STEPS):
        app = task.app
        log = app.screen.event_log
        before = len(log)
        try:
            result = dispatch(app.screen, random_action(task, rng))
        except GuiActionError:
            continue
        app.after_action(log[before:], result.navigation)
        assert_cache_fresh(app.screen, rng)
        if task.outcome() is not None:
            task = new_task(name, split, rng)
            assert_cache_fresh(task.app.screen, rng)


# -- each way a layout changes ----------------------------------------------------------
def _screen() -> tuple[Screen, Group, ScrollContainer]:
    group = Group("group", Rect(0, 0, 100, 40), items=[Button("a", Rect(0, 0, 50, 20), "A")])
    scroll = ScrollContainer(
        "scroll",
        Rect(0, 100, 100, 50),
        items=[Button(f"row-{i}", Rect(0, 100 + 30 * i, 100, 30), f"R{i}") for i in range(5)],
        content_height=150,
    )
    return Screen(items=[group, scroll]), group, scroll


def _check(screen: Screen) -> None:
    assert assert_cache_fresh(screen, np.random.default_rng(0)) is None


def test_in_place_edits_of_child_lists_are_seen() -> None:
    screen, group, _ = _screen()
    # Built first (a new widget moves no generation on: only the list edits below show).
    button, label = Button("b", Rect(50, 0, 50, 20), "B"), Label("label", Rect(0, 0, 50, 20))
    _check(screen)
    group.items.append(button)
    assert screen.find("b") is button
    _check(screen)
    group.items[0] = label
    assert screen.find("a") is None and hit_on(screen, 5, 5).widget.element_id == "label"
    _check(screen)


def test_in_place_edits_of_screen_lists_are_seen() -> None:
    screen, group, _ = _screen()
    top, other = Label("top", Rect(0, 200, 50, 20)), Label("other", Rect(0, 200, 50, 20))
    dialog = Dialog("dialog", Rect(20, 20, 100, 100), name="D")
    _check(screen)
    screen.items.insert(0, top)
    assert place(screen)[0].widget is top
    screen.items[0] = other
    assert hit_on(screen, 5, 205).widget is other
    screen.dialogs.append(dialog)
    assert hit_on(screen, 60, 60).widget.element_id.startswith("dialog")
    assert all(p.inert for p in place(screen) if p.widget is group)
    _check(screen)


def test_attribute_changes_are_seen() -> None:
    screen, group, scroll = _screen()
    assert hit_on(screen, 5, 105).widget.element_id == "row-0"
    scroll.scroll_by(0, 30)
    assert hit_on(screen, 5, 105).widget.element_id == "row-1"
    group.visible = False
    assert hit_on(screen, 5, 5) is None
    group.visible = True
    group.items[0].bounds = Rect(60, 0, 20, 20)
    assert hit_on(screen, 5, 5).widget is group
    _check(screen)


def test_state_only_changes_keep_the_cache() -> None:
    screen, _, _ = _screen()
    label = Label("label", Rect(0, 60, 50, 20), text="x")
    screen.items.append(label)
    tree = screen.tree()
    label.text = "y"
    screen.focus_id = "a"
    assert screen.tree() is tree
    label.enabled = False
    assert screen.tree() is not tree
    tree = screen.tree()
    touch_layout()
    assert screen.tree() is not tree


def test_remembered_hits_are_bounded() -> None:
    screen = Screen(width=512, height=512, items=[Label("label", Rect(0, 0, 50, 20))])
    for x in range(100):
        for y in range(100):
            hit_on(screen, x, y)
    assert 0 < len(screen.tree().hits) <= MAX_REMEMBERED_HITS
    assert hit_on(screen, 10, 10).widget.element_id == "label"


def test_copies_and_pickles_build_their_own_tree() -> None:
    screen, group, _ = _screen()
    place(screen)
    group.visible = False  # the cached tree is stale now
    for other in (copy.deepcopy(screen), pickle.loads(pickle.dumps(screen))):
        assert other._tree is None
        assert hit_on(other, 5, 5) is None
        _check(other)


def test_in_place_edits_inside_tabs_dialogs_and_lists_are_seen() -> None:
    """The containers whose child lists the tree watches directly (not rebuilt each check)."""
    from envsuite.families.gui.list_box import ListBox

    tabs = Tabs(
        "tabs",
        Rect(0, 0, 200, 24),
        labels=["A", "B"],
        panels=[[Label("a0", Rect(0, 30, 50, 20))], []],
    )
    dialog = Dialog("dialog", Rect(0, 100, 200, 80), name="D", modal=False)
    box = ListBox("box", Rect(0, 200, 100, 40), items=["x"], item_height=20)
    screen = Screen(items=[tabs, box], dialogs=[dialog])
    _check(screen)
    tabs.panels[0].append(Label("a1", Rect(60, 30, 50, 20)))
    assert screen.find("a1") is not None and hit_on(screen, 65, 35).widget.element_id == "a1"
    _check(screen)
    tabs.panels.append([Label("c0", Rect(0, 30, 50, 20))])
    assert screen.find("c0") is not None
    _check(screen)
    dialog.items.append(Label("note", Rect(10, 150, 50, 20)))
    assert hit_on(screen, 15, 155).widget.element_id == "note"
    _check(screen)
    box.rows.pop()
    assert screen.find("box/0") is None
    _check(screen)
