import pytest

from envsuite.families.gui.buttons import Button, Icon, Link
from envsuite.families.gui.dialog import Dialog
from envsuite.families.gui.dropdown import Dropdown
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.list_box import ListBox
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.scroll_container import ScrollContainer
from envsuite.families.gui.tabs import Tabs
from envsuite.families.gui.text_field import TextField
from envsuite.families.gui.toggles import Checkbox, RadioGroup
from envsuite.families.gui.widget import Label

BOX = Rect(0, 0, 100, 20)


def test_text_field_caret_editing():
    field = TextField("f", BOX, value="abc", caret=3)
    assert field.on_text("de") and (field.value, field.caret) == ("abcde", 5)
    field.on_key("left")
    field.on_key("left")
    field.on_text("X")
    assert (field.value, field.caret) == ("abcXde", 4)
    field.on_key("backspace")
    field.on_key("delete")
    assert (field.value, field.caret) == ("abce", 3)
    field.on_key("home")
    assert field.caret == 0 and not field.on_key("backspace")
    field.on_key("end")
    assert field.caret == 4
    assert field.on_key("ctrl+backspace") and field.value == ""


def test_text_field_limits_and_unprintables():
    field = TextField("f", BOX, max_length=5)
    assert field.on_text("ab\ncd\tefg") and field.value == "abcde"
    assert not field.on_text("z")
    assert TextField("p", BOX, value="secret", password=True).state() == {"value": "••••••"}


def test_checkbox_and_radio_group():
    box = Checkbox("c", BOX)
    assert box.on_click(1, 1) and box.checked and box.on_key("space") and not box.checked
    assert not box.on_key("enter")
    group = RadioGroup("r", Rect(0, 0, 100, 60), options=["a", "b", "c"])
    assert [b.bounds.y for b in group.buttons] == [0, 20, 40]
    assert group.buttons[2].on_click(1, 41) and group.selected == 2
    assert not group.buttons[2].on_click(1, 41)  # already selected
    assert group.on_key("down") and group.selected == 0  # wraps
    assert group.buttons[0].state() == {"checked": True} and group.state() == {"value": "a"}


def test_dropdown_open_choose_keys():
    drop = Dropdown("d", Rect(10, 10, 80, 20), options=["x", "y", "z"])
    assert drop.popup_children() == ()
    drop.on_click(11, 11)
    assert drop.expanded and [o.bounds.y for o in drop.popup_children()] == [30, 50, 70]
    assert drop.option_widgets[1].on_click(11, 51)
    assert (drop.expanded, drop.value) == (False, "y")
    assert drop.on_key("down") and drop.value == "z" and not drop.on_key("down")
    drop.on_key("enter")
    assert drop.expanded and drop.on_key("escape") and not drop.expanded


def test_list_box_and_tabs():
    lst = ListBox("l", Rect(0, 0, 100, 72), items=["a", "b", "c"], item_height=24)
    assert lst.rows[1].bounds == Rect(0, 24, 100, 24)
    assert lst.on_key("down") and lst.selected == 0
    assert lst.rows[2].on_click(0, 50) and lst.state() == {"value": "c"}
    assert lst.on_key("enter") and lst.opened == 2
    inner = Label("in_two", Rect(0, 40, 50, 20), text="two")
    tabs = Tabs("t", Rect(0, 0, 90, 20), labels=["one", "two", "three"], panels=[[], [inner]])
    assert [t.bounds.x for t in tabs.tabs] == [0, 30, 60] and len(tabs.panels) == 3
    assert inner not in tabs.children()
    assert tabs.tabs[1].on_click(31, 1) and inner in tabs.children()
    assert tabs.on_key("left") and tabs.active == 0 and tabs.on_key("left") and tabs.active == 2


def test_scroll_container_clamps():
    items = [Label(f"l{i}", Rect(0, 20 * i, 80, 20), text=str(i)) for i in range(10)]
    pane = ScrollContainer("s", Rect(0, 0, 100, 50), items=items)
    assert pane.content_size() == (100, 200) and pane.max_scroll() == (0, 150)
    assert pane.scroll_by(0, 1000) and pane.scroll_y == 150
    assert not pane.scroll_by(0, 5) and pane.child_offset() == (0, -150)
    assert pane.scroll_by(0, -1000) and pane.scroll_y == 0
    assert ScrollContainer("s2", Rect(0, 0, 100, 50), items=items, scroll_y=999).scroll_y == 150


def test_buttons_links_icons_dialog():
    button = Button("b", BOX, name="Go")
    assert button.on_click(1, 1) and button.on_key("enter") and button.activations == 2
    link = Link("k", BOX, name="Help")
    assert not link.visited and link.on_click(0, 0) and link.state() == {"visited": True}
    assert Icon("i", BOX, shape="heart").name == "heart"
    dialog = Dialog("dlg", Rect(0, 0, 100, 80), name="Hi")
    assert dialog.children()[0].element_id == "dlg/close" and dialog.close() and not dialog.close()


def test_screen_rejects_duplicate_ids_and_finds_hidden_widgets():
    with pytest.raises(ValueError, match="share the element id"):
        Screen(items=[Label("a", BOX), Label("a", BOX)])
    hidden = Label("hidden", BOX, text="x")
    screen = Screen(items=[Tabs("t", BOX, labels=["one", "two"], panels=[[], [hidden]])])
    assert screen.find("hidden") is hidden and screen.find("nope") is None
