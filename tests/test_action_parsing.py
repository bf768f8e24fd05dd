from __future__ import annotations

import random
import re
import types

import numpy as np
import pytest

from envsuite import action_parsing
from envsuite.action_parsing import _name_patterns, parse_choice, parse_index, parse_named_choice
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


def _alone_by_searching(names: tuple[str, ...]) -> dict[str, int]:
    """The names that name only themselves, by a search with every name's pattern."""
    patterns, _ = _name_patterns(names)
    alone = {}
    for index, (name, _pattern) in enumerate(patterns):
        found = [other for other, (_, pattern) in enumerate(patterns) if pattern.search(name)]
        if found == [index]:
            alone[name] = index
    return alone


def test_the_names_that_name_only_themselves_are_found_as_by_searching():
    rng = random.Random(7)
    pieces = ["red", "Red", "button", "1", "12", "a-b", "a", "b_c", " ", "-", "_", ".", "İ", "é"]
    for _ in range(3000):
        names = tuple(
            "".join(rng.choice(pieces) for _ in range(rng.randint(1, 4)))
            for _ in range(rng.randint(1, 7))
        )
        assert _name_patterns(names)[1] == _alone_by_searching(names), names
    for names in [("red", "red"), ("red", "RED", "blue"), ("", "red"), ("red blue", "red", "blue")]:
        assert _name_patterns(names)[1] == _alone_by_searching(names), names


def test_the_table_of_names_takes_no_search_per_pair_of_names(monkeypatch):
    searches = []

    class CountingPattern:
        def __init__(self, pattern: re.Pattern[str]) -> None:
            self.pattern = pattern

        def search(self, text: str) -> re.Match[str] | None:
            searches.append(text)
            return self.pattern.search(text)

    counting = types.SimpleNamespace(
        compile=lambda *a: CountingPattern(re.compile(*a)), escape=re.escape
    )
    monkeypatch.setattr(action_parsing, "re", counting)
    names = tuple(f"arm {i}" for i in range(200))
    _, alone = _name_patterns.__wrapped__(names)
    assert len(alone) == 200 and alone["arm 199"] == 199
    assert searches == []  # a search per pair was 40,000 here (10**8 at 10,000 arms)
