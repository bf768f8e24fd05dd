"""Widgets built by ``fast_init``'s ``__init__`` equal those the dataclass's own builds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import envsuite.families.gui.apps.graph_app
import envsuite.families.gui.showcase  # noqa: F401
from envsuite.families.gui import widget as widget_module
from envsuite.families.gui.geometry import Rect
from envsuite.families.gui.screen import Screen
from envsuite.families.gui.widget import Widget, fast_init


def _widget_classes() -> list[type[Widget]]:
    found: list[type[Widget]] = []
    stack: list[type[Widget]] = [Widget]
    while stack:
        cls = stack.pop()
        if "__dataclass_init__" in vars(cls):
            found.append(cls)
        stack.extend(cls.__subclasses__())
    return sorted(found, key=lambda cls: cls.__qualname__)


WIDGETS = _widget_classes()


def _state(widget: Widget) -> dict[str, Any]:
    """Field values; widgets held (options, tabs, a close button, a back reference) by
    their class, id, bounds and name (they hold their parent back, so not recursively)."""

    def plain(value: Any) -> Any:
        if isinstance(value, Widget):
            return (type(value), value.element_id, value.bounds, value.name)
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return {key: plain(value) for key, value in vars(widget).items()}


def test_every_widget_class_of_the_package_has_the_fast_init() -> None:
    names = {cls.__name__ for cls in WIDGETS}
    assert {"Widget", "Button", "Label", "TextField", "Dropdown", "Tabs", "Dialog"} <= names
    assert len(WIDGETS) >= 15


@pytest.mark.parametrize("cls", WIDGETS, ids=lambda cls: cls.__name__)
def test_fast_init_builds_what_the_dataclass_init_builds(cls: type[Widget]) -> None:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    base = {"element_id": "w", "bounds": Rect(4, 6, 120, 40)}
    variants: list[dict[str, Any]] = [base, {**base, "name": "Named", "enabled": False}]
    extras = {"items": [], "options": ["a", "b", "c"], "labels": ["One", "Two"], "text": "hi"}
    variants.append({**base, **{k: v for k, v in extras.items() if k in fields}})
    for kwargs in variants:
        fast = cls(**kwargs)
        slow = cls.__new__(cls)
        vars(cls)["__dataclass_init__"](slow, **kwargs)
        assert _state(fast) == _state(slow), kwargs
        assert list(vars(fast)) == list(vars(slow)), "fields are set in the same order"


def test_fast_init_keeps_defaults_and_factories_apart_per_instance() -> None:
    from envsuite.families.gui.widget import Group

    first, second = Group("a", Rect(0, 0, 1, 1)), Group("b", Rect(0, 0, 1, 1))
    assert first.items == [] and first.items is not second.items


def test_a_new_widget_added_to_a_shown_screen_is_placed() -> None:
    from envsuite.families.gui.buttons import Button
    from envsuite.families.gui.placement import place, place_now

    screen = Screen(100, 100, items=[Button("a", Rect(0, 0, 10, 10))])
    assert [p.widget.element_id for p in place(screen)] == ["a"]
    screen.items.append(Button("b", Rect(20, 0, 10, 10)))
    assert place(screen) == place_now(screen)
    assert [p.widget.element_id for p in place(screen)] == ["a", "b"]


def test_setting_a_field_after_building_still_moves_the_generation_on() -> None:
    from envsuite.families.gui.buttons import Button

    button = Button("a", Rect(0, 0, 10, 10))
    before = widget_module.layout_generation()
    button.visible = False
    assert widget_module.layout_generation() != before


def test_fast_init_refuses_fields_outside_init() -> None:
    @dataclasses.dataclass(eq=False)
    class Odd(Widget):
        hidden: int = dataclasses.field(default=0, init=False)

    with pytest.raises(TypeError, match="outside __init__"):
        fast_init(Odd)
