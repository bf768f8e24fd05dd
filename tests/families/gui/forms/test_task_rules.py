"""Rules particular to some form tasks: suggestions, pop-up focus, dialogs, app screens."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.forms import FORM_TASKS
from envsuite.families.gui.forms.distractors import BANNER_ID
from envsuite.families.gui.forms.form_task import POPUP_ID, click, key, type_text
from envsuite.families.gui.forms.vocabulary import (
    CITIES,
    COUNTRIES,
    FIRST_NAMES,
    LAST_NAMES,
    WORDS,
    pool,
    split_years,
)
from envsuite.families.gui.list_box import ListBox
from tests.families.gui.forms.driving import make, oracle, run, step


@pytest.mark.parametrize("entries", [WORDS, FIRST_NAMES, LAST_NAMES, CITIES, COUNTRIES])
def test_word_pools_split_into_disjoint_parts(entries):
    train, test = pool(entries, "train"), pool(entries, "test")
    assert len(set(entries)) == len(entries)
    assert not set(train) & set(test)
    assert set(train) | set(test) == set(entries)
    assert len(test) >= len(entries) // 4
    with pytest.raises(ValueError):
        pool(entries, "valid")


def test_date_years_split_into_disjoint_parts():
    train, test = set(split_years("train")), set(split_years("test"))
    assert train and test and not train & test
    with pytest.raises(ValueError):
        split_years("valid")


def test_autocomplete_suggests_and_fills_the_field():
    task = make(FORM_TASKS["use-autocomplete"], 4)
    assert task.widget("suggestions") is None
    assert step(task, click("field")) is None
    assert step(task, type_text(task.start)) is None
    suggestions = task.widget("suggestions")
    assert isinstance(suggestions, ListBox) and task.target in suggestions.items
    assert all(item.lower().startswith(task.start.lower()) for item in suggestions.items)
    assert step(task, click(f"suggestions/{suggestions.items.index(task.target)}")) is None
    assert task.widget("field").value == task.target
    assert task.widget("suggestions") is None and task.app.screen.focus_id == "field"
    assert step(task, click("submit")) == "success"


def test_autocomplete_targets_come_from_the_split_pool():
    for split in ("train", "test"):
        for seed in range(40):
            assert make(FORM_TASKS["use-autocomplete"], seed, split).target in pool(
                COUNTRIES, split
            )


def _with_popup_at(name, moment):
    for seed in range(200):
        task = make(FORM_TASKS[name], seed, popup_rate=1.0)
        if task.popup_at == moment:
            return task
    raise AssertionError("no seed opens the pop-up then")


def test_the_popup_opens_on_time_bumps_revision_and_returns_focus():
    task = _with_popup_at("enter-text", 1)
    revision = task.app.revision
    step(task, click("field-0"))
    assert task.app.revision > revision
    popup = task.widget(POPUP_ID)
    assert popup is not None and popup.is_open and popup.modal
    assert oracle(task) == click(f"{POPUP_ID}/close")
    step(task, key("escape"))  # any way of closing it will do
    assert not popup.is_open and task.app.screen.focus_id == "field-0"
    assert run(task, oracle)[0] == "success"


def test_the_layout_shift_moves_the_form_under_a_banner():
    task = next(
        t
        for s in range(200)
        if (t := make(FORM_TASKS["enter-text"], s, shift_rate=1.0)).shift_at == 1
    )
    before = task.widget("submit").bounds
    revision = task.app.revision
    step(task, click("field-0"))
    after = task.widget("submit").bounds
    assert task.app.revision > revision and task.widget(BANNER_ID) is not None
    assert after.x == before.x and 12 <= after.y - before.y <= 48
    assert after.bottom <= task.height
    stale = GuiAction("click", x=before.center[0], y=before.y + 2)  # where Submit was
    step(task, stale)
    assert "submitted" not in task.app.data
    assert run(task, oracle)[0] == "success"


def test_the_popup_never_opens_while_a_dropdown_list_is_open():
    moments = {make(FORM_TASKS["choose-list"], s, popup_rate=1.0).popup_at for s in range(60)}
    assert moments == {0, 2}


def test_enter_in_a_field_submits_the_form():
    task = make(FORM_TASKS["enter-text"], 11)
    for action in (click("field-0"), key("ctrl+backspace"), type_text(task.expected[0])):
        step(task, action)
    assert step(task, key("enter")) == "success"


def test_the_oracle_repairs_a_half_typed_field():
    task = make(FORM_TASKS["login-user"], 2)
    step(task, click("field-0"))
    step(task, type_text("zz"))
    assert oracle(task) == key("ctrl+backspace")
    assert run(task, oracle)[0] == "success"


def test_click_dialog_only_the_named_control_counts():
    cls = FORM_TASKS["click-dialog"]
    seed = next(s for s in range(50) if make(cls, s).target >= 0)
    target = f"dialog-button-{make(cls, seed).target}"
    assert step(make(cls, seed), click(target)) == "success"
    assert step(make(cls, seed), click("dialog/close")) == "failure"
    assert step(make(cls, seed), GuiAction("back")) == "failure"
    covered = _with_popup_at("click-dialog", 0)
    assert step(covered, key("escape")) is None  # closes the pop-up above the dialog
    assert covered.widget("dialog").is_open
    assert run(covered, oracle) == ("success", 1)


def test_search_engine_recovers_from_a_wrong_query_and_pages_back():
    task = next(t for s in range(50) if (t := make(FORM_TASKS["search-engine"], s)).target >= 3)
    for action in (click("query"), type_text("nothing"), click("search")):
        step(task, action)
    assert task.app.screen_id == "results/1" and task.app.data["query"] == "nothing"
    step(task, click("page-2"))
    assert task.app.screen_id == "results/2"
    step(task, GuiAction("back"))
    assert task.app.screen_id == "results/1"
    assert run(task, oracle)[0] == "success"


def test_email_inbox_leaves_the_wrong_form_and_succeeds():
    task = next(
        t for s in range(50) if (t := make(FORM_TASKS["email-inbox"], s)).chore == "forward"
    )
    step(task, click(f"open-{task.target}"))
    step(task, click("reply"))
    assert task.app.screen_id == f"reply/{task.target}"
    assert oracle(task) == GuiAction("back")
    assert run(task, oracle)[0] == "success"
    assert task.app.data["done"]["to"] == task.address


def test_email_inbox_delete_removes_the_row():
    task = next(t for s in range(50) if (t := make(FORM_TASKS["email-inbox"], s)).chore == "delete")
    assert run(task, oracle) == ("success", 2)
    assert task.app.screen_id == "inbox" and task.widget(f"open-{task.target}") is None


def test_book_flight_searches_again_after_a_wrong_search():
    task = make(FORM_TASKS["book-flight"], 5)
    step(task, click("search"))
    assert task.app.screen_id == "results" and task.app.data["search"] == ["", "", ""]
    assert oracle(task) == GuiAction("back")
    assert run(task, oracle)[0] == "success"


def test_collapsible_sections_open_one_at_a_time_and_push_the_rest_down():
    task = make(FORM_TASKS["click-collapsible"], 3)
    below = task.widget("section-1").bounds.y
    revision = task.app.revision
    step(task, click("section-0"))
    assert task.app.revision > revision and task.widget("link-0-0") is not None
    assert task.widget("section-1").bounds.y > below
    step(task, click("section-1"))
    assert task.widget("link-0-0") is None and task.widget("link-1-0") is not None
    step(task, click("section-1"))
    assert task.app.data["open"] is None and task.widget("section-1").bounds.y == below


def test_navigate_tree_folders_toggle_and_the_oracle_recovers():
    task = next(
        t for s in range(80) if len((t := make(FORM_TASKS["navigate-tree"], s)).target.path) == 3
    )
    top = "node-" + str(task.target.path[0])
    step(task, click(top))
    step(task, click(top))
    assert task.app.data["open"] == []
    assert run(task, oracle) == ("success", task.optimal_steps)


def test_click_widget_reads_the_first_widget_touched():
    task = make(FORM_TASKS["click-widget"], 8)
    first = task.kinds[0]
    outcome = step(task, GuiAction("key", key="tab"))  # focus lands on the first widget
    assert task.app.data["clicked"] == first
    assert outcome == ("success" if first == task.kinds[task.target] else "failure")


def test_choose_date_test_weeks_start_on_monday():
    assert make(FORM_TASKS["choose-date"], 1, "train").widget("weekday-0").text == "Su"
    assert make(FORM_TASKS["choose-date"], 1, "test").widget("weekday-0").text == "Mo"


def test_scroll_tasks_count_the_scroll_only_when_needed():
    steps = {make(FORM_TASKS["click-scroll-list"], s).optimal_steps for s in range(60)}
    assert steps == {2, 3}
    steps = {make(FORM_TASKS["social-media"], s).optimal_steps for s in range(60)}
    assert steps == {1, 2}


def test_same_seed_and_actions_give_the_same_states():
    rng = np.random.default_rng(3)
    for name in sorted(FORM_TASKS):
        one, two = (make(FORM_TASKS[name], 21, popup_rate=0.5) for _ in range(2))
        for _ in range(6):
            action = oracle(one) if rng.random() < 0.7 else click(f"{POPUP_ID}/close")
            outcomes = []
            for task in (one, two):
                try:
                    outcomes.append(step(task, action))
                except GuiActionError as error:  # the same refusal in both
                    outcomes.append(type(error).__name__)
            assert outcomes[0] == outcomes[1]
            assert one.app.state_digest() == two.app.state_digest()


@pytest.mark.parametrize("name", sorted(FORM_TASKS))
def test_a_task_pickled_mid_episode_plays_on_alike(name):
    task = make(FORM_TASKS[name], 3, popup_rate=1.0, shift_rate=1.0)
    step(task, oracle(task))
    copy = pickle.loads(pickle.dumps(task))
    assert copy.app.state_digest() == task.app.state_digest()
    assert run(copy, oracle) == run(task, oracle)
    assert copy.app.state_digest() == task.app.state_digest()
