"""The browser and the simulator reach the same logical state after the same actions."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.actions import GuiAction, GuiActionError
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.placement import place
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.showcase import showcase_screen
from envsuite.families.gui.state_digest import screen_state, state_digest
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.widget import Label

KEYS = [
    "tab",
    "shift+tab",
    "enter",
    "space",
    "escape",
    "up",
    "down",
    "left",
    "right",
    "backspace",
    "delete",
    "home",
    "end",
    "pageup",
    "pagedown",
    "ctrl+backspace",
    "a",
    "Z",
    "ctrl+a",
    "+",
]
TEXTS = ["abc", "Zoë", "x y", "😀!", "tab\there", "Ω" * 30]


def two(screen_factory):
    return screen_factory(), screen_factory()


def step_both(browser, sim: Screen, real: Screen, action: GuiAction):
    """Apply ``action`` in both backends; both raise the same error or neither does."""
    try:
        expected = dispatch(sim, action)
    except GuiActionError as error:
        with pytest.raises(GuiActionError) as raised:
            browser.perform(real, action)
        assert str(raised.value) == str(error)
        return None, None
    return expected, browser.perform(real, action)


def assert_same_state(sim: Screen, real: Screen, where: str) -> None:
    if state_digest(sim) == state_digest(real):
        return
    expected, got = screen_state(sim), screen_state(real)
    diffs = [(a, b) for a, b in zip(expected["widgets"], got["widgets"], strict=True) if a != b]
    pytest.fail(
        f"{where}: focus {expected['focus']!r} vs {got['focus']!r}, events "
        f"{expected['events']} vs {got['events']}, widgets {diffs[:3]}"
    )


def test_the_showcase_script_in_both_backends(browser):
    sim, real = two(showcase_screen)
    script = [
        "click(100, 69)",
        'type("Ada é😀")',
        "key(left)",
        "key(backspace)",
        "key(tab)",
        "key(tab)",
        "key(space)",
        "click(country)",
        "click(150, 180)",  # the open list covers the radio group: picks an option
        "click('plan/0')",
        "key(down)",
        "click(help)",
        "click(save)",
        "key(tab)",
        "key(enter)",
        "click('tabs/1')",
        "scroll(0, 40, 100, 100)",
        "double_click('inbox/4')",
        "drag(100, 150, 100, 120)",
        "scroll(0, -10)",
        "key(down)",
        "key(pagedown)",
        "click('tabs/2')",
        "click('tabs/0')",
        "click(name)",
        "key(enter)",
        "back()",
    ]
    for text in script:
        expected, got = step_both(browser, sim, real, parse_gui_action(text))
        assert_same_state(sim, real, text)
        assert got is not None and expected is not None
        assert (got.changed, got.target, got.navigation) == (
            expected.changed,
            expected.target,
            expected.navigation,
        ), text
    assert real.find("name").value == "Ada 😀"  # left, then backspace took the é
    assert real.find("country").value == "Kenya" and real.find("plan").selected == 1
    assert ("activate", "save") in real.event_log and ("submit", "name") in real.event_log
    assert real.find("inbox").opened == 4 and real.find("inbox_scroll").scroll_y > 0


def test_the_modal_dialog_in_both_backends(browser):
    sim, real = two(lambda: showcase_screen(with_dialog=True))
    for text in ["click(name)", "click(20, 240)", "key(tab)", "key(tab)", "key(enter)"]:
        step_both(browser, sim, real, parse_gui_action(text))
        assert_same_state(sim, real, text)
    assert real.open_dialogs() == [] and real.event_log == [
        ("activate", "discard"),  # tab order: the close button, Discard, Keep
        ("close", "confirm"),
    ]
    sim, real = two(lambda: showcase_screen(with_dialog=True))
    for text in ["key(tab)", "key(escape)"]:
        step_both(browser, sim, real, parse_gui_action(text))
        assert_same_state(sim, real, text)
    assert real.focus_id is None  # focus left in the closed dialog is dropped
    for text in ["click(name)", 'type("x")']:
        step_both(browser, sim, real, parse_gui_action(text))
        assert_same_state(sim, real, text)
    assert real.find("name").value == "x" and ("close", "confirm") in real.event_log


def test_errors_are_the_simulators(browser):
    sim, real = two(lambda: showcase_screen(with_dialog=True))
    for text in ["click(300, 10)", "click(name)", "click(nothing)", "drag(10, 10, 10, 400)"]:
        expected, got = step_both(browser, sim, real, parse_gui_action(text))
        assert expected is None and got is None
    assert_same_state(sim, real, "errors")


def layered_screen() -> Screen:
    """Nested scrolling, a wide container, a non-modal pop-up and a disabled field."""
    inner = ScrollContainer(
        "inner",
        Rect(20, 120, 120, 60),
        items=[TextField(f"f{i}", Rect(24, 124 + 26 * i, 100, 22)) for i in range(5)],
    )
    outer = ScrollContainer(
        "outer",
        Rect(10, 30, 200, 160),
        items=[
            Label("top", Rect(14, 34, 180, 20), text="Top"),
            TextField("wide", Rect(14, 60, 320, 22), value="wide field"),
            Button("go", Rect(14, 90, 60, 24), name="Go"),
            inner,
            Button("far", Rect(14, 300, 60, 24), name="Far"),
            TextField("off", Rect(100, 90, 80, 22), enabled=False, value="no"),
        ],
    )
    popup = Dialog(
        "tip",
        Rect(120, 150, 120, 90),
        name="Tip",
        modal=False,
        items=[Button("ok", Rect(150, 200, 60, 24), name="OK", dismisses=True)],
    )
    return Screen(256, 256, title="Layers", items=[outer], dialogs=[popup])


def random_action(rng: np.random.Generator, screen: Screen) -> GuiAction:
    """One action of a generated sequence (points anywhere, elements that are shown)."""
    shown = [p.widget.element_id for p in place(screen) if p.visible is not None]
    roll = rng.random()
    if roll < 0.25:
        return GuiAction("click", x=int(rng.integers(0, 256)), y=int(rng.integers(0, 256)))
    if roll < 0.5 and shown:
        kind = "double_click" if rng.random() < 0.15 else "click"
        return GuiAction(kind, element_id=shown[int(rng.integers(len(shown)))])
    if roll < 0.6:
        return GuiAction("type", text=TEXTS[int(rng.integers(len(TEXTS)))])
    if roll < 0.82:
        return GuiAction("key", key=KEYS[int(rng.integers(len(KEYS)))])
    if roll < 0.92:
        dx, dy = (int(v) for v in rng.integers(-90, 90, size=2))
        if rng.random() < 0.5:
            return GuiAction("scroll", dx=dx, dy=dy)
        x, y = (int(v) for v in rng.integers(0, 256, size=2))
        return GuiAction("scroll", x=x, y=y, dx=dx, dy=dy)
    if roll < 0.97:
        x, y, ex, ey = (int(v) for v in rng.integers(0, 256, size=4))
        return GuiAction("drag", x=x, y=y, dx=ex, dy=ey)
    return GuiAction("back")


@pytest.mark.parametrize(
    "factory",
    [showcase_screen, lambda: showcase_screen(with_dialog=True), layered_screen],
    ids=["showcase", "dialog", "layered"],
)
def test_generated_action_sequences_reach_the_same_state(browser, factory):
    rng = np.random.default_rng(np.random.SeedSequence(17))
    for episode in range(3):
        sim, real = two(factory)
        for step in range(40):
            action = random_action(rng, sim)
            expected, got = step_both(browser, sim, real, action)
            assert_same_state(sim, real, f"episode {episode} step {step}: {action.describe()}")
            if expected is not None and got is not None:
                assert got.changed == expected.changed, action.describe()
                assert got.navigation == expected.navigation, action.describe()


def test_changes_made_outside_the_browser_are_shown_before_the_next_action(browser):
    sim, real = two(showcase_screen)
    step_both(browser, sim, real, parse_gui_action("click(name)"))
    for screen in (sim, real):  # a layout shift (no state changes): Save moves left
        screen.find("save").bounds = Rect(8, 222, 80, 26)
    step_both(browser, sim, real, parse_gui_action("click(20, 230)"))
    assert_same_state(sim, real, "after the layout shift")
    assert real.find("save").activations == 1
    for screen in (sim, real):  # a pop-up and a disabled button, as an app's distractor
        screen.find("cancel").enabled = False
        screen.dialogs.append(
            Dialog("note", Rect(120, 60, 120, 80), name="Note", modal=False, items=[])
        )
    for text in ["click(100, 230)", "click(200, 70)", "key(escape)"]:
        step_both(browser, sim, real, parse_gui_action(text))
        assert_same_state(sim, real, text)
    assert real.find("cancel").activations == 0
    assert real.event_log == [("activate", "save"), ("close", "note")]


def test_edge_actions_agree(browser):
    sim, real = two(layered_screen)
    script = [
        'type("")',
        "click('f0')",
        'type("a\\nb")',
        'type("' + "x" * 300 + '")',
        "scroll(0, 0)",  # a wheel turned by nothing, with no point
        "scroll(0, 40, 100, 200)",  # then one at a point: routed by the point, not focus
        "scroll(100000, -100000, 30, 130)",
        "drag(30, 130, 30, 130)",
        "key('+')",
        "key('ctrl++')",
        "double_click(5, 5)",
        "back()",
        "home()",
        "done()",
    ]
    for text in script:
        expected, got = step_both(browser, sim, real, parse_gui_action(text))
        assert_same_state(sim, real, text)
        if expected is not None and got is not None:
            assert (got.changed, got.navigation) == (expected.changed, expected.navigation), text
