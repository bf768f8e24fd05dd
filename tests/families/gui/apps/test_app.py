"""The generated app as an agent meets it: navigation widgets, back and home, pop-ups,
layout shifts, settings that persist, and the tasks' success and failure rules."""

from __future__ import annotations

import re

import numpy as np
import pytest

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.apps.graph_app import MENU_ID, POPUP_ID, GraphApp, screen_id
from envsuite.families.gui.apps.tasks import ROUTE_SEPARATOR
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.placement import place
from envsuite.families.gui.renderer import render_image
from tests.families.gui.apps.app_driver import make, run_oracle, step


def click(element_id):
    return GuiAction("click", element_id=element_id)


def first_task(predicate, name="app-navigation", seeds=200, **kwargs):
    for seed in range(seeds):
        task = make(name, seed, **kwargs)
        if predicate(task):
            return task
    pytest.fail("no seed fits")


def test_edges_lead_where_they_say_and_back_and_home_undo_them():
    task = make("app-navigation", 3)
    app = task.app
    first = app.edges[0]
    assert first.kind == "button"
    step(app, click(first.element_id))
    assert app.screen_id == screen_id(first.screen) and app.history == ["s0"]
    assert app.screen.title == task.graph.title(first.screen)
    second = app.edges[0]
    step(app, click(second.element_id))
    assert app.history == ["s0", screen_id(first.screen)]
    step(app, GuiAction("back"))
    assert app.screen_id == screen_id(first.screen) and app.history == ["s0"]
    step(app, click(app.edges[0].element_id))
    step(app, GuiAction("home"))
    assert app.screen_id == "s0" and app.history == []
    digest = app.state_digest()
    step(app, GuiAction("back"))  # nothing to go back to: a no-op
    assert app.state_digest() == digest


def test_list_rows_and_menu_entries_navigate():
    task = first_task(lambda t: any(e.kind == "row" for e in t.app.edges), max_screens=60)
    row = next(e for e in task.app.edges if e.kind == "row")
    list_id = row.element_id.split("/")[0]
    assert isinstance(task.app.screen.find(list_id), ListBox)
    step(task.app, click(row.element_id))
    assert task.app.screen_id == screen_id(row.screen)

    def has_menu(t):
        run_to = [e for e in t.app.edges if e.kind == "option"]
        return bool(run_to)

    task = None
    for seed in range(300):
        candidate = make("app-navigation", seed, max_screens=100)
        app = candidate.app
        for edge in list(app.edges):  # look one screen deep for a menu
            if app.screen_id != "s0":
                break
            if edge.kind == "button" and not edge.container:
                step(app, click(edge.element_id))
                if has_menu(candidate):
                    task = candidate
                    break
                step(app, GuiAction("back"))
        if task is not None:
            break
    assert task is not None
    option = next(e for e in task.app.edges if e.kind == "option")
    menu = task.app.screen.find(MENU_ID)
    assert isinstance(menu, Dropdown) and not menu.expanded
    with pytest.raises(GuiActionError, match="is shown on this screen"):
        step(task.app, click(option.element_id))  # entries are hidden until the menu opens
    step(task.app, click(MENU_ID))
    step(task.app, click(option.element_id))
    assert task.app.screen_id == screen_id(option.screen)


def test_rows_below_the_fold_need_a_scroll_and_other_tabs_a_click():
    def wide(t):
        return any(
            e.kind != "option" and e.slot.row >= t.app.plan.visible_rows for e in t.app.edges
        )

    for seed in range(400):
        task = make("app-navigation", seed, max_screens=200)
        app = task.app
        if wide(task):
            break
        movers = [e for e in app.edges if e.kind == "button" and not e.container]
        if movers:
            step(app, click(movers[0].element_id))
            if wide(task):
                break
    else:
        pytest.fail("no screen with hidden rows")
    hidden = next(
        e for e in app.edges if e.kind != "option" and e.slot.row >= app.plan.visible_rows
    )
    if hidden.panel:
        step(app, click(f"tabs/{hidden.panel}"))
    with pytest.raises(GuiActionError, match="scrolled out of view"):
        step(app, click(hidden.element_id))
    box = app.screen.find(hidden.container).bounds
    row = app.screen.find(hidden.element_id).bounds
    x, y = box.center
    step(app, GuiAction("scroll", x=x, y=y, dx=0, dy=row.y - box.y))
    step(app, click(hidden.element_id))
    assert app.screen_id == screen_id(hidden.screen)


def test_popups_appear_on_every_arrival_and_block_until_dismissed():
    task = first_task(
        lambda t: any(t.graph.popup[e.screen] for e in t.app.edges) and not t.graph.popup[0],
        distractors=True,
    )
    app = task.app
    edge = next(e for e in app.edges if task.graph.popup[e.screen])
    step(app, click(edge.element_id))
    dialogs = app.screen.open_dialogs()
    assert [d.element_id for d in dialogs] == [POPUP_ID] and dialogs[0].modal
    assert all(p.inert for p in place(app.screen) if p.widget.element_id.startswith("go/"))
    if app.edges:
        with pytest.raises(GuiActionError, match="behind a modal dialog"):
            step(app, click(app.edges[0].element_id))
    step(app, GuiAction("back"))  # back closes the pop-up first
    assert app.screen_id == screen_id(edge.screen) and not app.screen.open_dialogs()
    step(app, GuiAction("back"))
    step(app, click(edge.element_id))
    assert app.screen.open_dialogs()  # again on the next arrival
    step(app, click(f"{POPUP_ID}/no"))
    assert not app.screen.open_dialogs()
    assert make("app-navigation", 0, distractors=False).graph.popup.sum() == 0


def test_layouts_shift_between_visits_but_never_across_the_fold():
    task = first_task(lambda t: len(t.app.edges) >= 3, distractors=True, max_screens=100)
    app = task.app
    layouts = set()
    for _ in range(8):
        placed = {item.widget.element_id: item for item in place(app.screen)}
        layout = []
        for edge in app.edges:
            if edge.kind == "option":
                continue
            item = placed.get(edge.element_id)
            if edge.slot.kind == "toolbar":
                assert item.visible is not None
            elif edge.panel == 0:
                shown = edge.slot.row < app.plan.visible_rows
                assert (item.visible is not None) == shown
            else:
                assert item is None  # on a tab not shown
            layout.append(None if item is None else item.rect.as_list())
        layouts.add(str(layout))
        if app.screen.open_dialogs():
            step(app, click(f"{POPUP_ID}/no"))
        step(app, click(next(e for e in app.edges if e.kind == "button").element_id))
        if app.screen.open_dialogs():
            step(app, click(f"{POPUP_ID}/no"))
        step(app, GuiAction("back"))  # home again: a new visit
    assert len(layouts) > 1
    assert app.data["visits"]["s0"] == 9
    plain = make("app-navigation", 0, distractors=False)
    assert "visits" not in plain.app.data


def test_settings_persist_across_visits_and_only_the_asked_one_counts():
    task = first_task(lambda t: "setting" in t.goal.fields, name="app-action", max_screens=40)
    key = task._goal_key
    assert task.app.setting_value(key) != (task.goal.fields["value"] == "on")
    actions = run_oracle(task)
    assert task.outcome() == "success" and actions[-1].kind in ("click", "key")
    assert task.app.data["settings"] == {key: task.goal.fields["value"] == "on"}
    app = task.app
    step(app, GuiAction("back"))
    step(app, click(next(e.element_id for e in app.edges if e.screen == task.target)))
    widget = app.screen.find(app.settings[key].element_id)
    assert widget.checked == (task.goal.fields["value"] == "on")  # remembered


def test_pressing_another_action_button_fails_and_done_fails():
    task = first_task(
        lambda t: "button" in t.goal.fields and t.graph.action_codes[0] >= 0,
        name="app-action",
        max_screens=40,
    )
    (wrong,) = task.app.actions.values()
    step(task.app, click(wrong.element_id))
    assert task.outcome() == "failure"
    task = make("app-navigation", 5)
    step(task.app, GuiAction("done"))
    assert task.outcome() == "failure"
    task = make("app-action", 5)
    step(task.app, GuiAction("done"))
    assert task.outcome() == "failure"


def test_instructions_name_screens_by_visible_titles_never_by_ids():
    for seed in range(40):
        for name in ("app-navigation", "app-action"):
            task = make(name, seed, split=("train", "test")[seed % 2])
            text = task.goal.instruction
            titles = task.goal.fields["route"].split(ROUTE_SEPARATOR)
            assert titles[0] == task.graph.name and titles[-1] == task.goal.fields["screen"]
            assert task.goal.fields["screen"] == task.graph.title(task.target)
            assert not re.search(r"\bs\d+\b|go/|list\d|set/|act/", text)
            assert task.optimal_steps >= 1


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="at least 224x224"):
        make("app-navigation", 0, width=160, height=256)
    with pytest.raises(ValueError, match="min_screens"):
        make("app-navigation", 0, min_screens=50, max_screens=20)


@pytest.mark.parametrize("width,height", [(256, 256), (320, 480), (224, 224)])
def test_other_screen_sizes_render_and_solve(width, height):
    for seed in range(6):
        task = make("app-action", seed, width=width, height=height, distractors=True)
        image = render_image(task.app.screen, task.app.theme)
        assert image.size == (width, height)
        actions = run_oracle(task)
        assert task.outcome() == "success" and len(actions) == task.optimal_steps


def test_graph_app_reads_only_its_graph():
    task = make("app-navigation", 7)
    app = GraphApp(task.graph)
    assert app.state() == GraphApp(task.graph).state()
    assert app.theme == task.graph.theme
    assert np.array_equal(task.graph.level, make("app-navigation", 7).graph.level)
