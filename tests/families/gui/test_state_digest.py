from envsuite.families.gui.action_grammar import parse_gui_action
from envsuite.families.gui.events import dispatch
from envsuite.families.gui.showcase import showcase_screen
from envsuite.families.gui.state_digest import screen_state, state_digest


def test_digest_follows_logical_state_only():
    a, b = showcase_screen(), showcase_screen()
    assert state_digest(a) == state_digest(b)
    dispatch(a, parse_gui_action("click(newsletter)"))
    assert state_digest(a) != state_digest(b)
    dispatch(b, parse_gui_action("key(tab)"))
    dispatch(b, parse_gui_action("key(tab)"))
    dispatch(b, parse_gui_action("key(space)"))
    # Same checkbox and focus, reached by mouse or keyboard: the same logical state.
    assert state_digest(a) == state_digest(b)
    b.find("newsletter").bounds = b.find("newsletter").bounds.moved(5, 0)
    assert state_digest(a) == state_digest(b)  # geometry is not logical state


def test_hidden_and_secret_values_count():
    a, b = showcase_screen(), showcase_screen()
    b.find("password").value = "hunter3"  # same dots on screen, different password
    assert state_digest(a) != state_digest(b)
    widgets = {w["id"]: w for w in screen_state(a)["widgets"]}
    assert widgets["password"]["value"] == "hunter2" and "inbox" in widgets  # hidden tab kept
