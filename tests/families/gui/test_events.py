import pytest

from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.actions import GuiActionError
from envsuite.families.gui.buttons import Button
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.renderer import render_screen
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.showcase import showcase_screen


def run(screen, *actions):
    return [dispatch(screen, parse_gui_action(a)) for a in actions]


def test_click_focuses_and_typing_goes_to_the_focused_field():
    screen = showcase_screen()
    run(screen, "click(100, 97)", 'type("abc")')  # the password field
    assert screen.focus_id == "password" and screen.find("password").value == "hunter2abc"
    run(screen, "click(name)", 'type("Ada")', "key(left)", 'type("r")')
    assert screen.find("name").value == "Adra"
    (result,) = run(screen, "click(140, 210)")  # empty background
    assert screen.focus_id is None and result.changed
    (result,) = run(screen, 'type("x")')
    assert not result.changed and result.note == "no widget has focus"


def test_tab_order_and_keys_on_the_focused_widget():
    screen = showcase_screen()
    run(screen, "key(tab)", "key(tab)")
    assert screen.focus_id == "newsletter"
    run(screen, "key(space)")
    assert not screen.find("newsletter").checked
    run(screen, "key(tab)", "key(down)")
    assert screen.focus_id == "country" and screen.find("country").value == "France"
    run(screen, "key('shift+tab')", "key('shift+tab')")
    assert screen.focus_id == "password"
    run(screen, "key(tab)", "key(tab)", "key(tab)")
    assert screen.focus_id == "plan"
    run(screen, "key(down)")
    assert screen.find("plan").state() == {"value": "Team"}


def test_checkbox_radio_dropdown_by_click():
    screen = showcase_screen()
    run(screen, "click(newsletter)", "click('plan/0')")
    assert not screen.find("newsletter").checked and screen.find("plan").selected == 0
    assert screen.focus_id == "plan"  # a radio button focuses its group
    run(screen, "click(country)")
    assert screen.find("country").expanded
    # The open list covers the radio group: a click there chooses the option instead.
    (result,) = run(screen, "click(150, 180)")
    assert result.target == "country/2" and screen.find("country").value == "Kenya"
    assert not screen.find("country").expanded and screen.find("plan").selected == 0
    run(screen, "click(country)", "click(20, 70)")  # a click outside only closes the list
    assert not screen.find("country").expanded and screen.focus_id == "country"


def test_tabs_hide_focus_and_scroll_the_list():
    screen = showcase_screen()
    run(screen, "click('tabs/1')")
    assert screen.focus_id == "tabs"  # a tab focuses its strip; the field it hid lost focus
    (result,) = run(screen, "scroll(0, 100, 100, 100)")
    assert result.target == "inbox_scroll" and screen.find("inbox_scroll").scroll_y == 42
    (result,) = run(screen, "scroll(0, 100)")
    assert not result.changed and result.note == "already at the end"
    run(screen, "drag(100, 100, 100, 110)")  # pull the content down by 10
    assert screen.find("inbox_scroll").scroll_y == 32
    with pytest.raises(GuiActionError, match="scrolled out of view"):
        run(screen, "click('inbox/0')")
    run(screen, "double_click('inbox/3')")
    assert screen.find("inbox").selected == 3 and screen.find("inbox").opened == 3
    (result,) = run(screen, "click(inbox)")
    assert result.target is not None


def test_dialog_is_modal_and_closes():
    screen = showcase_screen(with_dialog=True)
    with pytest.raises(GuiActionError, match="behind a modal dialog"):
        run(screen, "click(save)")
    (result,) = run(screen, "click(200, 240)")  # the Save button's place: inert
    assert result.note == "nothing is there" and screen.find("save").activations == 0
    assert screen.focus_id is None  # focus on the field behind the dialog was dropped
    run(screen, "click(keep)")
    assert not screen.find("confirm").is_open
    assert screen.event_log == [("activate", "keep"), ("close", "confirm")]
    run(screen, "click(save)")
    assert screen.find("save").activations == 1


def test_escape_and_back_close_popups_then_navigate():
    screen = showcase_screen(with_dialog=True)
    (result,) = run(screen, "key(escape)")
    assert result.changed and not screen.find("confirm").is_open
    run(screen, "click(country)")
    (result,) = run(screen, "back()")
    assert result.navigation is None and not screen.find("country").expanded
    (result,) = run(screen, "back()")
    assert result.navigation == "back" and not result.changed
    assert run(screen, "home()")[0].navigation == "home"
    assert run(screen, "done()")[0].navigation == "done"


def test_close_button_and_enter_in_a_field():
    screen = showcase_screen(with_dialog=True)
    run(screen, "click('confirm/close')")
    assert screen.event_log == [("activate", "confirm/close"), ("close", "confirm")]
    run(screen, "click(name)", "key(enter)")
    assert screen.event_log[-1] == ("submit", "name")


def test_disabled_widgets_ignore_input():
    button = Button("b", Rect(10, 10, 50, 20), name="Go", enabled=False)
    screen = Screen(100, 100, items=[button])
    run(screen, "click(b)", "key(enter)")
    assert button.activations == 0 and screen.event_log == []


@pytest.mark.parametrize(
    "action", ["click(256, 10)", "click(-1, 0)", "drag(0, 0, 300, 0)", "scroll(0, 5, 0, 999)"]
)
def test_points_off_the_screen_are_errors(action):
    with pytest.raises(GuiActionError, match="outside the 256x256 screen"):
        run(showcase_screen(), action)


def test_unknown_element_is_an_error():
    with pytest.raises(GuiActionError, match="no element 'nope'"):
        run(showcase_screen(), "click(nope)")
    with pytest.raises(GuiActionError, match="no element 'inbox'"):
        run(showcase_screen(), "click(inbox)")  # on a hidden tab


def test_same_actions_same_state_and_pixels():
    script = [
        "click(name)",
        'type("Zoe")',
        "key(tab)",
        "click(country)",
        "click('country/1')",
        "click('tabs/1')",
        "scroll(0, 24)",
    ]
    first, second = showcase_screen(), showcase_screen()
    run(first, *script)
    run(second, *script)
    assert (render_screen(first) == render_screen(second)).all()
    assert first.event_log == second.event_log and first.focus_id == second.focus_id


def test_non_modal_popup_leaves_the_screen_live():
    from envsuite.families.gui.dialog import Dialog

    screen = showcase_screen()
    screen.dialogs.append(Dialog("tip", Rect(150, 200, 100, 50), name="Tip", modal=False))
    run(screen, "click(newsletter)")  # still reachable beside the pop-up
    assert not screen.find("newsletter").checked
    run(screen, "click(200, 240)")  # the Save button's place: the pop-up covers it
    assert screen.find("save").activations == 0
    run(screen, "click('tip/close')")
    assert not screen.find("tip").is_open and screen.event_log[-1] == ("close", "tip")
