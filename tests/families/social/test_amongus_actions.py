"""The AmongUs action grammar: text commands and vector indices, both ways."""

from __future__ import annotations

import pytest

from envsuite.env_base import InvalidAction
from envsuite.families.social.amongus_actions import (
    action_count,
    action_index,
    action_text,
    parse_index,
    parse_text,
)
from envsuite.families.social.amongus_setup import DEFAULT_ROOMS, WAIT, Action, Phase

NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("go Engine", Action("go", 1)),
        ("  Go to the medbay. ", Action("go", 2)),
        ("[move Navigation]", Action("go", 8)),
        ("do task", Action("task")),
        ("DO TASK.", Action("task")),
        ("kill bob", Action("kill", 1)),
        ("kill player_3", Action("kill", 3)),
        ("report", Action("report")),
        ("call meeting", Action("button")),
        ("emergency meeting", Action("button")),
        ("vote for Carol", Action("vote", 2)),
        ("accuse Eve", Action("accuse", 4)),
        ("skip", WAIT),
        ("pass", WAIT),
        ("wait", WAIT),
        ("say:  I was in   Weapons. ", Action("say", None, "I was in Weapons.")),
        ("[say: Bob vented]", Action("say", None, "Bob vented")),
    ],
)
def test_text_commands(text, action):
    assert parse_text(text, NAMES, DEFAULT_ROOMS) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (7, "expected a text command"),
        ("", "the command is empty"),
        ("dance", "no command in 'dance'"),
        ("go Bridge", "no room is called 'Bridge'"),
        ("vote Zed", "no player is called 'Zed'"),
        ("x" * 10_001, "longer than"),
    ],
)
def test_bad_text_commands_name_the_reason(text, reason):
    with pytest.raises(InvalidAction, match=reason):
        parse_text(text, NAMES, DEFAULT_ROOMS)


def test_text_round_trips():
    for action in (Action("go", 4), Action("task"), Action("kill", 2), Action("button")):
        assert parse_text(action_text(action, NAMES, DEFAULT_ROOMS), NAMES, DEFAULT_ROOMS) == action


def test_vector_indices_are_relative_to_the_seat_and_round_trip():
    rooms, n = len(DEFAULT_ROOMS), len(NAMES)
    assert action_count(rooms, n) == 18
    for me in range(n):
        for phase, verb in (
            (Phase.PLAY, "kill"),
            (Phase.DISCUSSION, "accuse"),
            (Phase.VOTE, "vote"),
        ):
            for target in range(n):
                index = action_index(Action(verb, target), me, rooms, n)
                assert index == 4 + rooms + (target - me) % n
                assert parse_index(index, me, rooms, n, phase) == Action(verb, target)
        for action in (WAIT, Action("task"), Action("report"), Action("button"), Action("go", 3)):
            assert (
                parse_index(action_index(action, me, rooms, n), me, rooms, n, Phase.PLAY) == action
            )
    assert action_index(Action("say", None, "hi"), 0, rooms, n) == 0
