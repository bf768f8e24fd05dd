"""Every form task type, both splits: oracle, failure, determinism, variety, splits, pop-ups."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from envsuite.families.gui.actions import GuiAction
from envsuite.families.gui.forms import FORM_TASKS
from envsuite.families.gui.forms.distractors import BANNER_ID
from envsuite.families.gui.forms.form_task import POPUP_ID, FormTask, click
from envsuite.families.gui.renderer import render_screen
from tests.families.gui.forms.driving import instance_key, make, oracle, random_actions, run

NAMES = sorted(FORM_TASKS)
SPLITS = ("train", "test")
SEEDS = range(20)


def _click_other_button(task):
    return click(next(f"button-{i}" for i in range(len(task.labels)) if i != task.target))


def _sequence_out_of_order(task):
    return click(f"button-{task.order[1]}")


def _other_link(task):
    return click(f"link-{(task.target + 1) % len(task.links)}")


def _wrong_ticks(task):
    wanted = set(task.targets) ^ {0}
    for i in range(len(task.labels)):
        if task.widget(f"check-{i}").checked != (i in wanted):
            return click(f"check-{i}")
    return click("submit")


def _other_option(task):
    other = (task.target + 1) % len(task.options)
    if task.widget("options").selected != other:
        return click(f"options/{other}")
    return click("submit")


def _other_link_in_a_panel(task):
    if task.name == "click-collapsible" and task.app.data.get("open") != task.section:
        return click(f"section-{task.section}")
    shown = task.section if task.name == "click-collapsible" else task.widget("tabs").active
    other = next(
        i for i in range(len(task.links[shown])) if (shown, i) != (task.section, task.index)
    )
    return click(f"link-{shown}-{other}")


def _wrong_text(task):
    wrong = [*task.expected[:-1], task.expected[-1] + "x"]
    for i, text in enumerate(wrong):
        action = task.fill(f"field-{i}", text)
        if action is not None:
            return action
    return click("submit")


def _focus_other_field(task):
    if len(task.labels) == 1:
        return GuiAction("done")
    return click(f"field-{(task.target + 1) % len(task.labels)}")


def _other_list_option(task):
    other = (task.target + 1) % len(task.options)
    box = task.widget("list")
    if box.selected == other and not box.expanded:
        return click("submit")
    return click(f"list/{other}") if box.expanded else click("list")


def _other_scroll_item(task):
    other = (task.target + 1) % len(task.items)
    if task.widget("list").selected == other:
        return click("submit")
    return task.reach(f"list/{other}")


def _wrong_item(task):
    return task.fill("field", task.target[:-1]) or click("submit")


def _other_widget(task):
    other = (task.target + 1) % len(task.kinds)
    return click(f"widget-{other}/0" if task.kinds[other] == "radio" else f"widget-{other}")


def _wrong_file(task):
    inside = task.target.path
    files = [
        n
        for n in task.all_nodes()
        if not n.folder and n is not task.target and n.path[: len(inside)] != inside
    ]
    top = [n for n in files if len(n.path) == 1]
    if top:
        return click(top[0].element_id)
    other = files[0]
    opened = set(task.app.data.get("open", []))
    for depth in range(1, len(other.path)):
        ancestor = "node-" + "-".join(map(str, other.path[:depth]))
        if ancestor not in opened:
            return task.reach(ancestor)
    return task.reach(other.element_id)


def _wrong_result(task):
    if task.app.screen_id == "search":
        return task.fill("query", task.query) or click("search")
    return click(f"result-{1 if task.target == 0 else 0}")


def _delete_another_email(task):
    if task.app.screen_id == "inbox":
        return click(f"open-{(task.target + 1) % len(task.senders)}")
    return click("delete")


def _book_another_flight(task):
    if task.app.screen_id == "search":
        return task.oracle_action()
    return task.reach(f"book-{(task.best + 1) % len(task.prices)}")


def _other_post_action(task):
    return task.reach(f"post-{task.target}-{'like' if task.action != 'Like' else 'share'}")


def _wrong_date(task):
    picked = task.app.data.get("picked")
    if picked is not None and picked != task.date:
        return click("submit")
    return click(f"day-{1 if task.day != 1 else 2}")


#: A policy per task type that ends in failure (a wrong click, a wrong submission).
WRONG = {
    "click-button": _click_other_button,
    "click-button-sequence": _sequence_out_of_order,
    "click-link": _other_link,
    "click-checkboxes": _wrong_ticks,
    "click-option": _other_option,
    "click-tab": _other_link_in_a_panel,
    "click-collapsible": _other_link_in_a_panel,
    "click-dialog": lambda task: GuiAction("key", key="escape"),
    "focus-text": _focus_other_field,
    "enter-text": _wrong_text,
    "enter-date": _wrong_text,
    "enter-password": _wrong_text,
    "login-user": _wrong_text,
    "choose-list": _other_list_option,
    "click-scroll-list": _other_scroll_item,
    "use-autocomplete": _wrong_item,
    "click-widget": _other_widget,
    "navigate-tree": _wrong_file,
    "search-engine": _wrong_result,
    "email-inbox": _delete_another_email,
    "book-flight": _book_another_flight,
    "social-media": _other_post_action,
    "choose-date": _wrong_date,
    "enter-text-2": _wrong_text,
    "find-word": _wrong_text,
    "simple-arithmetic": _wrong_text,
    "read-table": _wrong_text,
    "use-spinner": lambda task: click("submit"),  # it starts away from the target
}


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", NAMES)
def test_oracle_succeeds_in_exactly_optimal_steps(name, split):
    for seed in SEEDS:
        task = make(FORM_TASKS[name], seed, split)
        assert task.outcome() is None
        outcome, steps = run(task, oracle)
        assert (outcome, steps) == ("success", task.optimal_steps), (name, seed)


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", NAMES)
def test_oracle_recovers_after_the_distractor_popup(name, split):
    for seed in SEEDS:
        plain = make(FORM_TASKS[name], seed, split)
        task = make(FORM_TASKS[name], seed, split, popup_rate=1.0)
        assert task.goal == plain.goal
        assert task.optimal_steps == plain.optimal_steps + 1
        shown = []

        def watch(t, shown=shown):
            shown.append(t.app.screen.find(POPUP_ID) is not None)
            return oracle(t)

        outcome, steps = run(task, watch)
        assert (outcome, steps) == ("success", task.optimal_steps), (name, seed)
        assert any(shown)


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", NAMES)
def test_layout_shifts_cost_the_oracle_nothing(name, split):
    cls = FORM_TASKS[name]
    shifted = 0
    for seed in SEEDS:
        plain = make(cls, seed, split, popup_rate=1.0)
        task = make(cls, seed, split, popup_rate=1.0, shift_rate=1.0)
        assert task.goal == plain.goal and task.optimal_steps == plain.optimal_steps
        banners = []

        def watch(t, banners=banners):
            banners.append(t.widget(BANNER_ID) is not None)
            return oracle(t)

        assert run(task, watch) == ("success", task.optimal_steps), (name, seed)
        shifted += any(banners)
    if cls.layout_shifts:
        assert shifted > 0
    else:
        assert shifted == 0


@pytest.mark.parametrize("size", [(200, 200), (256, 200), (200, 320), (480, 360)])
@pytest.mark.parametrize("name", NAMES)
def test_oracle_fits_every_screen_size(name, size):
    width, height = size
    for seed in range(6):
        for split in SPLITS:
            rate = float(seed % 2)
            task = make(FORM_TASKS[name], seed, split, width=width, height=height, popup_rate=rate)
            outcome, steps = run(task, oracle)
            assert (outcome, steps) == ("success", task.optimal_steps), (name, seed, split)


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_action_sequence_fails(name, split):
    for seed in SEEDS:
        task = make(FORM_TASKS[name], seed, split)
        assert run(task, WRONG[name])[0] == "failure", (name, seed)


@pytest.mark.parametrize("name", NAMES)
def test_saying_done_early_fails(name):
    task = make(FORM_TASKS[name], 0)
    task.app.after_action([], "done")
    assert task.outcome() == "failure"


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_instance_and_pixels(name, split):
    for seed in range(5):
        one, two = (make(FORM_TASKS[name], seed, split) for _ in range(2))
        assert one.goal == two.goal
        assert one.app.state_digest() == two.app.state_digest()
        assert instance_key(one) == instance_key(two)
        pixels = [
            hashlib.sha256(render_screen(t.app.screen, t.app.theme).tobytes()).digest()
            for t in (one, two)
        ]
        assert pixels[0] == pixels[1]


@pytest.mark.parametrize("name", NAMES)
def test_seeds_give_distinct_instances(name):
    # Each module's docstring counts its instances (over 10^5); 1,000 seeds then collide
    # on fewer than 3% of instances, while a generator stuck on a few would collide often.
    tasks = [make(FORM_TASKS[name], seed) for seed in range(1000)]
    keys = {instance_key(task) for task in tasks}
    goals = {(t.goal.instruction, tuple(sorted(t.goal.fields.items()))) for t in tasks[:300]}
    assert len(keys) >= 0.97 * len(tasks)
    assert len(goals) >= 6


@pytest.mark.parametrize("name", NAMES)
def test_test_split_holds_out_words_and_layouts(name):
    cls = FORM_TASKS[name]
    assert issubclass(cls, FormTask)
    assert not set(cls.layouts["train"]) & set(cls.layouts["test"])
    seen = {}
    for split in SPLITS:
        values = set()
        for seed in range(200):
            task = make(cls, seed, split)
            assert task.layout in cls.layouts[split]
            values |= {task.goal.fields[f] for f in cls.held_out_fields}
        seen[split] = values
    if cls.held_out_fields:
        assert seen["train"] and seen["test"]
        assert not seen["train"] & seen["test"]


@pytest.mark.parametrize("name", NAMES)
def test_random_actions_never_crash(name):
    rng = np.random.default_rng(7)
    for seed in range(10):
        task = make(FORM_TASKS[name], seed, popup_rate=0.5)
        assert random_actions(task, rng, 40) in (None, "success", "failure")


@pytest.mark.parametrize("name", NAMES)
def test_first_screen_renders_in_the_theme(name):
    for seed in range(4):
        task = make(FORM_TASKS[name], seed, width=320, height=240)
        image = render_screen(task.app.screen, task.app.theme)
        assert image.shape == (240, 320, 3)
        background = np.array(task.app.theme.background, dtype=np.uint8)
        assert (image != background).any(axis=2).mean() > 0.01  # something is drawn


def test_small_screens_and_bad_arguments_are_refused():
    cls = FORM_TASKS["click-button"]
    with pytest.raises(ValueError):
        make(cls, 0, width=120)
    with pytest.raises(ValueError):
        make(cls, 0, popup_rate=1.5)
    with pytest.raises(ValueError):
        make(cls, 0, shift_rate=-0.1)
    with pytest.raises(ValueError):
        make(cls, 0, split="valid")


def test_goal_fields_name_the_target():
    task = make(FORM_TASKS["click-button"], 3)
    assert task.goal.fields["button"] in task.goal.instruction
    assert isinstance(task.oracle_action(), GuiAction)
