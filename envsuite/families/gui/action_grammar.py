r"""Reading a GUI action from an agent's text or dict, in envsuite's grammar or a common one.

**envsuite's grammar** (Python call syntax; arguments are literals, never evaluated)::

    click(x, y)            click("element_id")     click(save)     click(x=40, y=12)
    double_click(x, y)     double_click("element_id")
    type("text")           type(text="text")
    key("enter")           key(tab)                key("ctrl+backspace")
    scroll(dx, dy)         scroll(dx, dy, x, y)    scroll(direction="down", amount=3)
    drag(x1, y1, x2, y2)
    back()   home()   done()

Coordinates are the screen's logical pixels (rounded to integers); ``scroll`` amounts are
pixels, right and down positive; a direction without an amount scrolls
:data:`DEFAULT_WHEEL_CLICKS` wheel clicks of :data:`WHEEL_STEP` pixels. Key names follow
:func:`~envsuite.families.gui.keys.canonical_key` (``Return``, ``Enter`` and ``enter`` are
one key). A bare name such as ``click(save)`` is an element id, as is one joined by ``-``
or ``/`` (``click(button-0)``, ``click(popup/close)``).

**UI-TARS** (its prompts' action space)::

    click(start_box='<|box_start|>(x,y)<|box_end|>')   click(start_box='(x,y)')
    click(start_box='[x1, y1, x2, y2]')  (the box's centre)   click(point='<point>x y</point>')
    left_single(...)  left_double(...)  drag(start_box=..., end_box=...)  select(...)
    type(content='...')  hotkey(key='ctrl c')  press(key='enter')
    scroll(start_box=..., direction='down')  press_back()  press_home()  finished(content='')

UI-TARS coordinates are taken as screen pixels (UI-TARS-1.5's absolute mode); an env that
prompts for UI-TARS-1.0's relative 0-1000 coordinates rescales before dispatch.

**JSON** (Anthropic's computer-use tool, Qwen's ``computer_use`` / ``mobile_use``)::

    {"action": "left_click", "coordinate": [x, y]}       ("click" too)
    {"action": "double_click", "coordinate": [x, y]}
    {"action": "type", "text": "hello"}
    {"action": "key", "text": "Return"}                  ({"keys": ["ctrl", "a"]} too)
    {"action": "scroll", "coordinate": [x, y], "scroll_direction": "down", "scroll_amount": 3}
    {"action": "left_click_drag", "start_coordinate": [x1, y1], "coordinate": [x2, y2]}
    {"action": "system_button", "button": "Back"}        ("Home" too)
    {"action": "terminate", "status": "success"}         (done)

and envsuite's own kinds as JSON (``{"action": "click", "element_id": "save"}``,
``{"action": "scroll", "dx": 0, "dy": 120}``). A tool call wrapper
(``{"name": ..., "arguments": {...}}``, ``{"input": {...}}``, ``<tool_call>...</tool_call>``)
is unwrapped. Text before a last ``Action:`` line (a model's ``Thought:``) and code fences
are ignored.

Anything else raises :class:`~envsuite.families.gui.actions.GuiActionError` (an
``InvalidAction``) whose message says what was wrong; no input makes the parser crash.
"""

from __future__ import annotations

import ast
import json
import math
import re
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from envsuite.families.gui.action_space import from_space_action
from envsuite.families.gui.actions import (
    MAX_COORDINATE,
    MAX_TYPE_CHARS,
    GuiAction,
    GuiActionError,
)
from envsuite.families.gui.keys import canonical_key

#: Longest action text read.
MAX_ACTION_CHARS = 4000
#: Pixels one wheel click scrolls (``scroll_amount`` counts wheel clicks).
WHEEL_STEP = 40
#: Wheel clicks a scroll given only a direction makes.
DEFAULT_WHEEL_CLICKS = 3
#: Unit vectors of scroll directions.
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
#: An element id written bare with ``-`` or ``/`` in it (``button-0``, ``popup/close``).
_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-/][A-Za-z0-9_]+)+")


def parse_gui_action(action: Any) -> GuiAction:
    """Any accepted action form as a :class:`GuiAction`.

    Text goes through :func:`parse_action_text`; a dict with ``"kind"`` is a Dict-space
    action; another dict is read as JSON; a :class:`GuiAction` passes through.

    Raises:
        GuiActionError: the action is malformed (the message says how).
    """
    if isinstance(action, GuiAction):
        return action
    if isinstance(action, str):
        return parse_action_text(action)
    if isinstance(action, Mapping):
        if "kind" in action:
            return from_space_action(action)
        return _from_json(action)
    raise GuiActionError(f"expected an action as text or a dict, got {type(action).__name__}")


def parse_action_text(text: str) -> GuiAction:
    """The action written in ``text`` (see the module docstring for the grammar).

    Raises:
        GuiActionError: empty, too long, or not an action of any accepted format.
    """
    if not isinstance(text, str):
        raise GuiActionError(f"expected action text, got {type(text).__name__}")
    if len(text) > MAX_ACTION_CHARS:
        raise GuiActionError(f"action text longer than {MAX_ACTION_CHARS} characters")
    body = _action_part(text)
    if not body:
        raise GuiActionError('empty action; write e.g. click(40, 12) or type("hello")')
    if body.startswith("{"):
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:
            raise GuiActionError(f"action JSON does not parse: {exc}") from None
        return _from_json(data)
    return _from_call(body)


def _action_part(text: str) -> str:
    """The action itself: after a last ``Action:``, inside a tool call, without fences."""
    tool_calls = _TOOL_CALL.findall(text)
    if tool_calls:
        text = tool_calls[-1]
    elif "Action:" in text:
        text = text.rsplit("Action:", 1)[1]
    return _FENCE.sub("", text.strip()).strip()


# --- call syntax ----------------------------------------------------------------------


def _literal(node: ast.expr, source: str) -> Any:
    if isinstance(node, ast.Name):
        return node.id  # a bare name is an identifier: click(save), key(Enter)
    if isinstance(node, ast.BinOp):  # a bare id with - or /: click(button-0), click(tabs/1)
        text = ast.get_source_segment(source, node) or ""
        if _BARE_ID.fullmatch(text):
            return text
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise GuiActionError(f"argument {ast.unparse(node)[:40]!r} is not a literal") from None


def _from_call(body: str) -> GuiAction:
    try:
        with warnings.catch_warnings():
            # Agent text such as "\d" or "1a" makes the parser warn; it is an error here.
            warnings.simplefilter("ignore")
            tree = ast.parse(body, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise GuiActionError(
            f'{body[:60]!r} is not an action call; write e.g. click(40, 12), type("hi"), key(enter)'
        ) from None
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise GuiActionError(f"{body[:60]!r} is not an action call such as click(40, 12)")
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
        kw.arg is None for kw in call.keywords
    ):
        raise GuiActionError("* and ** arguments are not allowed in an action")
    args = [_literal(arg, body) for arg in call.args]
    kwargs = {str(kw.arg): _literal(kw.value, body) for kw in call.keywords}
    name = call.func.id
    builder = _CALLS.get(name)
    if builder is None:
        known = ", ".join(sorted(_CALLS))
        raise GuiActionError(f"unknown action {name!r}; known: {known}")
    return builder(name, args, kwargs)


def _number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GuiActionError(f"{what} must be a number, got {value!r}"[:120])
    if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
        raise GuiActionError(f"{what} {value!r} is out of range")
    return round(value)


def _box_point(value: Any, what: str) -> tuple[int, int]:
    """A point from a UI-TARS box string or a list of two or four numbers.

    Box strings: ``'(x,y)'``, ``'[x1,y1,x2,y2]'`` (its centre), ``'<point>x y</point>'``.
    """
    if isinstance(value, str):
        numbers = [float(n) for n in _NUMBER.findall(value)]
    elif isinstance(value, list | tuple):
        numbers = [_number(v, what) for v in value]
    else:
        raise GuiActionError(f"{what} must be a point such as '(x,y)', got {value!r}"[:120])
    if len(numbers) == 2:
        return _number(numbers[0], what), _number(numbers[1], what)
    if len(numbers) == 4:
        return _number((numbers[0] + numbers[2]) / 2, what), _number(
            (numbers[1] + numbers[3]) / 2, what
        )
    raise GuiActionError(f"{what} must hold 2 numbers (a point) or 4 (a box), found {len(numbers)}")


def _no_extra(name: str, kwargs: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(kwargs) - allowed)
    if extra:
        raise GuiActionError(f"{name}() takes no argument {extra[0]!r}")


def _target(name: str, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The point or element a click-like call names."""
    _no_extra(name, kwargs, {"x", "y", "element_id", "id", "start_box", "point", "box"})
    for key in ("start_box", "point", "box"):
        if key in kwargs:
            x, y = _box_point(kwargs[key], key)
            return {"x": x, "y": y}
    element = kwargs.get("element_id", kwargs.get("id"))
    if element is None and len(args) == 1 and isinstance(args[0], str):
        element = args[0]
    if element is not None:
        if not isinstance(element, str) or not element:
            raise GuiActionError("an element id must be a non-empty string")
        return {"element_id": element}
    if len(args) == 1 and isinstance(args[0], list | tuple):
        x, y = _box_point(args[0], "point")
        return {"x": x, "y": y}
    values = [*args, *(kwargs[k] for k in ("x", "y") if k in kwargs)]
    if len(values) != 2:
        raise GuiActionError(
            f'{name} needs a point (x, y) or an element id, e.g. {name}(40, 12) or {name}("save")'
        )
    return {"x": _number(values[0], "x"), "y": _number(values[1], "y")}


def _click(name: str, args: list[Any], kwargs: dict[str, Any]) -> GuiAction:
    kind = (
        "double_click"
        if name in ("double_click", "left_double", "doubleclick", "dblclick")
        else "click"
    )
    return GuiAction(kind, **_target(name, args, kwargs))


def _type(name: str, args: list[Any], kwargs: dict[str, Any]) -> GuiAction:
    _no_extra(name, kwargs, {"text", "content"})
    values = [*args, *(kwargs[k] for k in ("text", "content") if k in kwargs)]
    if len(values) != 1 or not isinstance(values[0], str):
        raise GuiActionError('type needs one string, e.g. type("hello")')
    if len(values[0]) > MAX_TYPE_CHARS:
        raise GuiActionError(f"type text longer than {MAX_TYPE_CHARS} characters")
    return GuiAction("type", text=values[0])


def _key(name: str, args: list[Any], kwargs: dict[str, Any]) -> GuiAction:
    _no_extra(name, kwargs, {"key", "name", "keys"})
    values = [*args, *(kwargs[k] for k in ("key", "name", "keys") if k in kwargs)]
    if (
        len(values) == 1
        and isinstance(values[0], list)
        and all(isinstance(v, str) for v in values[0])
    ):
        values = ["+".join(values[0])]
    if len(values) != 1 or not isinstance(values[0], str):
        raise GuiActionError('key needs one key name, e.g. key("enter") or key("ctrl+a")')
    return GuiAction("key", key=canonical_key(values[0]))


def _direction_amount(direction: Any, amount: Any) -> tuple[int, int]:
    if not isinstance(direction, str) or direction.strip().lower() not in DIRECTIONS:
        raise GuiActionError(
            f"scroll direction must be one of up, down, left, right, got {direction!r}"[:120]
        )
    clicks = DEFAULT_WHEEL_CLICKS if amount is None else _number(amount, "scroll amount")
    ux, uy = DIRECTIONS[direction.strip().lower()]
    return ux * clicks * WHEEL_STEP, uy * clicks * WHEEL_STEP


def _scroll(name: str, args: list[Any], kwargs: dict[str, Any]) -> GuiAction:
    _no_extra(name, kwargs, {"dx", "dy", "x", "y", "direction", "amount", "start_box", "point"})
    at: tuple[int | None, int | None] = (None, None)
    for key in ("start_box", "point"):
        if key in kwargs:
            at = _box_point(kwargs[key], key)
    if "x" in kwargs or "y" in kwargs:
        at = (_number(kwargs.get("x"), "x"), _number(kwargs.get("y"), "y"))
    if "direction" in kwargs or (len(args) == 1 and isinstance(args[0], str)):
        direction = kwargs.get("direction", args[0] if args else None)
        dx, dy = _direction_amount(direction, kwargs.get("amount"))
        return GuiAction("scroll", x=at[0], y=at[1], dx=dx, dy=dy)
    values = [*args, *(kwargs[k] for k in ("dx", "dy") if k in kwargs)]
    if len(values) == 4:
        at = (_number(values[2], "x"), _number(values[3], "y"))
        values = values[:2]
    if len(values) != 2:
        raise GuiActionError(
            "scroll needs (dx, dy) pixels, e.g. scroll(0, 120), or direction='down'"
        )
    return GuiAction(
        "scroll", x=at[0], y=at[1], dx=_number(values[0], "dx"), dy=_number(values[1], "dy")
    )


def _drag(name: str, args: list[Any], kwargs: dict[str, Any]) -> GuiAction:
    _no_extra(name, kwargs, {"start_box", "end_box", "start_point", "end_point"})
    if kwargs:
        starts = [kwargs[k] for k in ("start_box", "start_point") if k in kwargs]
        ends = [kwargs[k] for k in ("end_box", "end_point") if k in kwargs]
        if len(starts) != 1 or len(ends) != 1:
            raise GuiActionError(
                "drag needs one start and one end, e.g. drag(start_box='(1,2)', end_box='(3,4)')"
            )
        (x, y), (ex, ey) = _box_point(starts[0], "start"), _box_point(ends[0], "end")
    elif len(args) == 4:
        x, y, ex, ey = (_number(v, "drag coordinate") for v in args)
    elif len(args) == 2:
        (x, y), (ex, ey) = _box_point(args[0], "start"), _box_point(args[1], "end")
    else:
        raise GuiActionError("drag needs two points, e.g. drag(10, 20, 10, 120)")
    return GuiAction("drag", x=x, y=y, dx=ex, dy=ey)


def _bare(kind: str) -> Callable[[str, list[Any], dict[str, Any]], GuiAction]:
    def build(name: str, args: list[Any], kwargs: dict[str, Any]) -> GuiAction:
        # finished(content=...) carries the model's answer; back/home take nothing.
        if kind != "done" and (args or kwargs):
            raise GuiActionError(f"{name}() takes no arguments")
        return GuiAction(kind)

    return build


_CALLS: dict[str, Callable[[str, list[Any], dict[str, Any]], GuiAction]] = {
    "click": _click,
    "left_single": _click,
    "tap": _click,
    "double_click": _click,
    "left_double": _click,
    "type": _type,
    "key": _key,
    "hotkey": _key,
    "press": _key,
    "scroll": _scroll,
    "drag": _drag,
    "select": _drag,
    "back": _bare("back"),
    "press_back": _bare("back"),
    "home": _bare("home"),
    "press_home": _bare("home"),
    "done": _bare("done"),
    "finished": _bare("done"),
}


# --- JSON -----------------------------------------------------------------------------


def _unwrap(data: Any) -> Any:
    for _ in range(3):  # a tool call's envelope: {"name", "arguments"} or {"input"}
        if isinstance(data, Mapping) and "action" not in data:
            inner = data.get("arguments", data.get("input"))
            if isinstance(inner, str):
                try:
                    inner = json.loads(inner)
                except (ValueError, RecursionError):
                    raise GuiActionError("tool call arguments are not JSON") from None
            if inner is None:
                break
            data = inner
    return data


def _from_json(data: Any) -> GuiAction:
    data = _unwrap(data)
    if not isinstance(data, Mapping) or not isinstance(data.get("action"), str):
        raise GuiActionError(
            'a JSON action needs an "action" name, e.g. {"action": "click", "coordinate": [40, 12]}'
        )
    name = data["action"].strip().lower()

    def point(key: str) -> tuple[int, int]:
        if key not in data:
            raise GuiActionError(f'"{name}" needs "{key}": [x, y]')
        return _box_point(data[key], key)

    if name in ("click", "left_click", "tap", "double_click", "left_double"):
        kind = "double_click" if "double" in name else "click"
        if "element_id" in data:
            element = data["element_id"]
            if not isinstance(element, str) or not element:
                raise GuiActionError("element_id must be a non-empty string")
            return GuiAction(kind, element_id=element)
        x, y = point("coordinate")
        return GuiAction(kind, x=x, y=y)
    if name == "type":
        return _type(name, [data.get("text")], {})
    if name in ("key", "hotkey"):
        keys = data.get("keys", data.get("text", data.get("key")))
        return _key(name, [keys], {})
    if name == "scroll":
        at = point("coordinate") if "coordinate" in data else (None, None)
        if "dx" in data or "dy" in data:
            dx, dy = _number(data.get("dx", 0), "dx"), _number(data.get("dy", 0), "dy")
        else:
            dx, dy = _direction_amount(
                data.get("scroll_direction", data.get("direction")),
                data.get("scroll_amount", data.get("amount")),
            )
        return GuiAction("scroll", x=at[0], y=at[1], dx=dx, dy=dy)
    if name in ("left_click_drag", "drag"):
        (x, y) = point("start_coordinate")
        (ex, ey) = point("end_coordinate" if "end_coordinate" in data else "coordinate")
        return GuiAction("drag", x=x, y=y, dx=ex, dy=ey)
    if name == "system_button":
        button = str(data.get("button", "")).strip().lower()
        if button in ("back", "home"):
            return GuiAction(button)
        if button == "enter":
            return GuiAction("key", key="enter")
        raise GuiActionError(
            f'system_button must be "Back", "Home" or "Enter", got {data.get("button")!r}'[:120]
        )
    if name in ("back", "home", "done"):
        return GuiAction(name)
    if name in ("terminate", "finished"):
        return GuiAction("done")
    raise GuiActionError(f"unknown JSON action {name!r}"[:120])
