from __future__ import annotations

import numpy as np
import pytest

from envsuite.action_parsing import parse_choice, parse_index, parse_named_choice
from envsuite.env_base import InvalidAction

NAMES = ("blue", "green", "button-2", "button-21", "stag hunt")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("blue", 0),
        ("I press Blue.", 0),
        ("GREEN!", 1),
        ("button-21", 3),
        ("press button-2 now", 2),
        ("let's go stag hunt", 4),
    ],
)
def test_named_choice_finds_the_one_name(text, expected):
    assert parse_named_choice(text, NAMES, "button") == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "names no button"),
        ("blue or green", "more than one button"),
        ("blueish", "names no button"),
        ("button-211", "names no button"),
        (b"blue", "expected button name"),
    ],
)
def test_named_choice_rejects_ambiguous_or_missing(text, message):
    with pytest.raises(InvalidAction, match=message):
        parse_named_choice(text, NAMES, "button")


@pytest.mark.parametrize("value", [0, 4, np.int64(3), np.array(2)])
def test_index_accepts_integers(value):
    assert parse_index(value, 5) == int(value)


@pytest.mark.parametrize("value", [True, 1.0, "1", None, -1, 5, np.array([1]), 2**70])
def test_index_rejects_everything_else(value):
    with pytest.raises(InvalidAction):
        parse_index(value, 5)


def test_choice_dispatches_on_mode():
    assert parse_choice("green", NAMES, text_mode=True, what="button") == 1
    assert parse_choice(1, NAMES, text_mode=False, what="button") == 1
    with pytest.raises(InvalidAction):
        parse_choice(1, NAMES, text_mode=True, what="button")


def test_a_name_answered_alone_that_holds_another_name_names_both() -> None:
    """The exact-answer shortcut keeps the whole-word rule: "dark red" also names "red"."""
    names = ["red", "dark red", "blue", "Button-1", "button-10"]
    with pytest.raises(InvalidAction, match="more than one"):
        parse_named_choice("dark red", names)
    assert parse_named_choice("red", names) == 0
    assert parse_named_choice("BLUE", names) == 2
    assert parse_named_choice("button-1", names) == 3
    assert parse_named_choice("button-10", names) == 4
    assert parse_named_choice("I press blue.", names) == 2
