import json

import numpy as np
import pytest

from envsuite.action_errors import InvalidAction
from envsuite.families.gui.action_grammar import parse_action_text, parse_gui_action
from envsuite.families.gui.actions import GuiAction, GuiActionError


def A(kind, **kw):
    return GuiAction(kind, **kw)


NATIVE = [
    ("click(40, 12)", A("click", x=40, y=12)),
    ("click(40.6, 12.2)", A("click", x=41, y=12)),
    ('click("save")', A("click", element_id="save")),
    ("click(save)", A("click", element_id="save")),
    ("click(x=3, y=4)", A("click", x=3, y=4)),
    ("click(element_id='tabs/1')", A("click", element_id="tabs/1")),
    ("click([5, 6])", A("click", x=5, y=6)),
    ("double_click(7, 8)", A("double_click", x=7, y=8)),
    ('double_click("inbox/2")', A("double_click", element_id="inbox/2")),
    ('type("hello, world")', A("type", text="hello, world")),
    ("type(text='it\\'s')", A("type", text="it's")),
    ('key("enter")', A("key", key="enter")),
    ("key(Return)", A("key", key="enter")),
    ('key("ctrl+backspace")', A("key", key="ctrl+backspace")),
    ("scroll(0, 120)", A("scroll", dx=0, dy=120)),
    ("scroll(0, -40, 100, 150)", A("scroll", x=100, y=150, dx=0, dy=-40)),
    ("scroll(direction='up', amount=2)", A("scroll", dx=0, dy=-80)),
    ("drag(10, 20, 10, 120)", A("drag", x=10, y=20, dx=10, dy=120)),
    ("back()", A("back")),
    ("home()", A("home")),
    ("done()", A("done")),
    ("  Thought: the button is there.\nAction: click(1, 2)  ", A("click", x=1, y=2)),
    ("```\nclick(1, 2)\n```", A("click", x=1, y=2)),
]

UI_TARS = [
    ("click(start_box='<|box_start|>(120,45)<|box_end|>')", A("click", x=120, y=45)),
    ("click(start_box='(120,45)')", A("click", x=120, y=45)),
    ("click(start_box='[100, 40, 140, 50]')", A("click", x=120, y=45)),
    ("click(point='<point>120 45</point>')", A("click", x=120, y=45)),
    ("left_single(start_box='(3,4)')", A("click", x=3, y=4)),
    ("left_double(start_box='(3,4)')", A("double_click", x=3, y=4)),
    ("type(content='hello\\n')", A("type", text="hello\n")),
    ("hotkey(key='ctrl c')", A("key", key="ctrl+c")),
    ("press(key='enter')", A("key", key="enter")),
    ("scroll(start_box='(50,60)', direction='down')", A("scroll", x=50, y=60, dx=0, dy=120)),
    ("drag(start_box='(1,2)', end_box='(3,4)')", A("drag", x=1, y=2, dx=3, dy=4)),
    (
        "select(start_point='<point>1 2</point>', end_point='<point>3 4</point>')",
        A("drag", x=1, y=2, dx=3, dy=4),
    ),
    ("press_back()", A("back")),
    ("press_home()", A("home")),
    ("finished(content='done it')", A("done")),
    ("Thought: ...\nAction: click(start_box='(9,9)')", A("click", x=9, y=9)),
]

JSON_FORMS = [
    ({"action": "left_click", "coordinate": [40, 12]}, A("click", x=40, y=12)),
    ({"action": "click", "coordinate": [40, 12]}, A("click", x=40, y=12)),
    ({"action": "double_click", "coordinate": [1, 2]}, A("double_click", x=1, y=2)),
    ({"action": "type", "text": "hi"}, A("type", text="hi")),
    ({"action": "key", "text": "Return"}, A("key", key="enter")),
    ({"action": "key", "keys": ["ctrl", "a"]}, A("key", key="ctrl+a")),
    (
        {"action": "scroll", "coordinate": [5, 6], "scroll_direction": "down", "scroll_amount": 2},
        A("scroll", x=5, y=6, dx=0, dy=80),
    ),
    (
        {"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [3, 4]},
        A("drag", x=1, y=2, dx=3, dy=4),
    ),
    ({"action": "system_button", "button": "Back"}, A("back")),
    ({"action": "system_button", "button": "Home"}, A("home")),
    ({"action": "terminate", "status": "success"}, A("done")),
    ({"action": "click", "element_id": "save"}, A("click", element_id="save")),
    ({"action": "scroll", "dx": 0, "dy": 30}, A("scroll", dx=0, dy=30)),
    (
        {"name": "computer", "input": {"action": "left_click", "coordinate": [1, 1]}},
        A("click", x=1, y=1),
    ),
    ({"name": "computer_use", "arguments": '{"action": "type", "text": "x"}'}, A("type", text="x")),
]


@pytest.mark.parametrize(("text", "expected"), [*NATIVE, *UI_TARS], ids=lambda v: str(v)[:40])
def test_text_formats(text, expected):
    assert parse_action_text(text) == expected


@pytest.mark.parametrize(("data", "expected"), JSON_FORMS, ids=lambda v: str(v)[:40])
def test_json_formats_as_dict_text_and_tool_call(data, expected):
    assert parse_gui_action(data) == expected
    assert parse_action_text(json.dumps(data)) == expected
    assert parse_action_text(f"<tool_call>\n{json.dumps(data)}\n</tool_call>") == expected


@pytest.mark.parametrize(("text", "expected"), NATIVE[:21], ids=lambda v: str(v)[:40])
def test_describe_round_trips(text, expected):
    assert parse_action_text(expected.describe()) == expected


MALFORMED = [
    ("", "empty action"),
    ("   ", "empty action"),
    ("clack(1, 2)", "unknown action 'clack'"),
    ("click(1)", "needs a point"),
    ("click(1, 2, 3)", "needs a point"),
    ("click(True, 2)", "must be a number"),
    ("click(1e9, 2)", "out of range"),
    ("click(float('nan'), 2)", "not a literal"),
    ("click(__import__('os').system('x'), 1)", "not a literal"),
    ("click(*[1, 2])", "not allowed"),
    ("click(start_box='(1,2,3)')", "2 numbers"),
    ("click(foo=1)", "no argument 'foo'"),
    ("type(1)", "one string"),
    ("type('a' * 10)", "not a literal"),
    ("key('F99x')", "unknown key"),
    ("key()", "one key name"),
    ("scroll(0)", "scroll needs"),
    ("scroll(direction='sideways')", "direction must be"),
    ("drag(1, 2)", "start must be a point"),
    ("back(1)", "takes no arguments"),
    ("click(1, 2", "not an action call"),
    ("print('x')", "unknown action 'print'"),
    ("os.system('x')", "not an action call"),
    ("1 + 2", "not an action call"),
    ("{not json", "does not parse"),
    ('{"coordinate": [1, 2]}', 'needs an "action"'),
    ('{"action": "left_click"}', 'needs "coordinate"'),
    ('{"action": "left_click", "coordinate": [1, "a"]}', "must be a number"),
    ('{"action": "wait"}', "unknown JSON action"),
    ('{"action": "system_button", "button": "Menu"}', "system_button"),
    ("(" * 500 + ")" * 500, "not an action call"),
    ("[" * 5000, "longer than"),
    ("x" * 5000, "longer than"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED, ids=lambda v: str(v)[:30])
def test_malformed_text_is_a_clear_error(text, message):
    with pytest.raises(GuiActionError, match=message.replace("(", r"\(").replace("*", r"\*")):
        parse_action_text(text)


@pytest.mark.parametrize("action", [None, 3, 2.5, ["click", 1, 2], b"click(1,2)", object()])
def test_non_text_actions_are_errors(action):
    with pytest.raises(GuiActionError, match="expected an action"):
        parse_gui_action(action)


def test_errors_are_invalid_actions():
    assert issubclass(GuiActionError, InvalidAction)


def test_random_garbage_never_crashes():
    rng = np.random.default_rng(17)
    alphabet = [*"click(typekey)scrol_[]{}'\",:0123456789 -.=<>|\\\nAction:()"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet, size=int(rng.integers(0, 40))))
        try:
            action = parse_action_text(text)
        except GuiActionError:
            continue
        assert isinstance(action, GuiAction)
