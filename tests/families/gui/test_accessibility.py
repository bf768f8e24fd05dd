import json

from envsuite.families.gui.accessibility import (
    accessibility_json,
    accessibility_text,
    accessibility_tree,
)
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.showcase import showcase_screen
from envsuite.families.gui.widget import Group, Label


def _nodes(tree):
    yield tree
    for child in tree["children"]:
        yield from _nodes(child)


def _by_id(screen):
    return {node["id"]: node for node in _nodes(accessibility_tree(screen))}


def test_nodes_carry_role_name_bounds_states():
    nodes = _by_id(showcase_screen())
    assert nodes["name"] == {
        "id": "name",
        "role": "textbox",
        "name": "Name",
        "bounds": [70, 58, 178, 22],
        "states": {"focused": True, "value": ""},
        "children": [],
    }
    assert nodes["newsletter"]["states"] == {"checked": True}
    assert nodes["password"]["states"]["value"] == "•••••••"  # never the password itself
    assert nodes["plan"]["role"] == "radiogroup" and nodes["plan/1"]["states"] == {"checked": True}
    assert nodes["country"]["states"] == {"value": ""}  # collapsed: expanded is False
    assert nodes["tabs/0"]["states"] == {"selected": True}
    assert [c["id"] for c in nodes["plan"]["children"]] == ["plan/0", "plan/1", "plan/2"]


def test_hidden_panels_closed_lists_and_inert_background_are_absent():
    screen = showcase_screen()
    nodes = _by_id(screen)
    assert "inbox" not in nodes and "country/0" not in nodes
    screen.find("country").expanded = True
    nodes = _by_id(screen)
    assert nodes["country"]["states"]["expanded"] is True
    assert [c["id"] for c in nodes["country"]["children"]] == [f"country/{i}" for i in range(4)]
    modal = _by_id(showcase_screen(with_dialog=True))
    assert (
        "save" not in modal and "confirm" in modal and modal["confirm"]["states"] == {"modal": True}
    )


def test_offscreen_and_clipped_elements():
    screen = showcase_screen()
    screen.items[0].switch(1)
    nodes = _by_id(screen)
    assert nodes["inbox/7"]["states"] == {"offscreen": True}
    assert nodes["inbox/7"]["bounds"] == [8, 226, 228, 24]  # full bounds when offscreen
    assert nodes["inbox/6"]["bounds"] == [8, 202, 228, 6]  # the visible part when clipped
    assert "inbox/7" not in accessibility_text(screen)
    assert "[inbox/7] option" in accessibility_text(screen, include_offscreen=True)


def test_hidden_widget_and_flattened_group():
    screen = Screen(
        100,
        100,
        items=[
            Group("g", Rect(0, 0, 100, 100), items=[Label("a", Rect(0, 0, 10, 10), text="A")]),
            Label("b", Rect(0, 20, 10, 10), text="B", visible=False),
        ],
    )
    tree = accessibility_tree(screen)
    assert [c["id"] for c in tree["children"]] == ["a"]  # unnamed group lifted, hidden gone


def test_text_and_json_forms_agree():
    screen = showcase_screen()
    assert json.loads(accessibility_json(screen)) == accessibility_tree(screen)
    text = accessibility_text(screen)
    assert text.splitlines()[0] == 'window "Account settings" @0,0,256,256'
    assert '    [name] textbox "Name" @70,58,178,22 focused value=""' in text.splitlines()
    assert '      [plan/1] radio "Pro" @8,160,120,20 checked' in text.splitlines()
