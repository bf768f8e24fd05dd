"""AmongUs rules: movement, tasks, the kill cooldown, reports, meetings and the win conditions."""

from __future__ import annotations

import pytest

from envsuite.families.social.amongus_rules import AmongUsGame
from envsuite.families.social.amongus_setup import Action, AmongUsSetup, Phase
from envsuite.families.social.game_log import GameLog
from tests.families.social.amongus_scripts import ROOM, act, game

TASKS = {1: "Engine", 2: "Weapons", 3: "Storage", 4: "Security"}


def texts(g: AmongUsGame, seat: int) -> list[str]:
    return [message.text for message in g.log.view(seat)]


def test_players_move_along_corridors_only_and_see_only_their_room():
    g = game((0,), TASKS)
    assert g.round == 1 and g.to_move == 0 and set(g.room) == {ROOM["Cafeteria"]}
    assert g.illegal_reason(0, Action("go", ROOM["Reactor"])).startswith("no corridor")
    act(g, 0, "go", "Engine")
    act(g, 1, "go", "Engine")
    act(g, 2, "go", "Weapons")
    assert g.sight(1) == (ROOM["Engine"], (0,), ())
    assert g.sight(4) == (ROOM["Cafeteria"], (3,), ())
    assert "Bob came in from Cafeteria." in texts(g, 0)
    assert texts(g, 0)[-2:] == ["You went to Engine: nobody here.", "Bob came in from Cafeteria."]
    assert texts(g, 1)[-1] == "You went to Engine: Alice here."
    assert "Alice left for Engine." in texts(g, 4)
    assert "Bob came in from Cafeteria." not in texts(g, 4)
    assert g.last_seen[1][0] == (ROOM["Engine"], 1)


def test_rounds_rotate_the_first_mover_and_skip_the_dead_impostors():
    g = game((0,), TASKS)
    for seat in range(5):
        act(g, seat, "wait")
    assert g.round == 2 and g.queue == [1, 2, 3, 4, 0]


def test_tasks_take_their_steps_in_their_room_and_impostors_have_none():
    g = game((0,), TASKS)
    assert g.illegal_reason(0, Action("task")) == "impostors have no tasks"
    assert g.illegal_reason(0, Action("wait")) is None
    act(g, 0, "wait")
    assert g.illegal_reason(1, Action("task")) == "you have no unfinished task in Cafeteria"
    act(g, 1, "go", "Engine")
    for seat in (2, 3, 4):
        act(g, seat, "wait")
    act(g, 1, "task")
    assert g.progress[1] == [1] and g.tasks_left(1) == [ROOM["Engine"]]
    for seat in (2, 3, 4, 0):
        act(g, seat, "wait")
    act(g, 2, "wait")  # round 3 starts at seat 2
    for seat in (3, 4, 0):
        act(g, seat, "wait")
    act(g, 1, "task")
    assert g.tasks_left(1) == [] and "You finished your task in Engine." in texts(g, 1)
    assert g.steps_done == 2 and g.total_steps == 8
    assert g.task_bar == 0  # the public bar moves at meetings only
    act(g, 3, "button")  # round 4 starts at seat 3
    assert g.task_bar == 2


def test_the_crew_wins_when_every_task_is_done():
    g = game((0,), {1: "Engine", 2: "Weapons", 3: "Storage"}, n=4, task_steps=1)
    act(g, 0, "wait")
    act(g, 1, "go", "Engine")
    act(g, 2, "go", "Weapons")
    act(g, 3, "go", "Storage")
    act(g, 1, "task")
    act(g, 2, "task")
    assert not g.over
    act(g, 3, "task")
    assert g.over and g.winner == "crew" and not g.truncated


def _kill_bob_in_engine() -> AmongUsGame:
    """Alice (impostor) and Bob go to Engine in round 1; Alice kills Bob in round 2."""
    g = game((0,), TASKS)
    assert g.illegal_reason(0, Action("kill", 1)) == "your kill cooldown has 1 more rounds"
    act(g, 0, "go", "Engine")
    act(g, 1, "go", "Engine")
    act(g, 2, "go", "Weapons")
    act(g, 3, "go", "Storage")
    act(g, 4, "wait")
    act(g, 1, "task")
    act(g, 2, "task")
    act(g, 3, "task")
    act(g, 4, "wait")
    act(g, 0, "kill", 1)
    return g


def test_the_kill_cooldown_runs_from_the_start_and_from_each_kill():
    g = game((0,), TASKS)
    act(g, 0, "go", "Engine")
    act(g, 1, "go", "Engine")
    for seat in (2, 3, 4):
        act(g, seat, "wait")
    act(g, 1, "task")
    for seat in (2, 3, 4):
        act(g, seat, "wait")
    assert g.cooldown(0) == 0 and Action("kill", 1) in g.legal_actions(0)
    g = _kill_bob_in_engine()
    # The kill ended round 2; a one-round cooldown lets Alice kill again in round 3.
    assert not g.alive[1] and g.bodies == {1: ROOM["Engine"]}
    assert g.round == 3 and g.next_kill[0] == 3 and g.cooldown(0) == 0


def test_only_those_in_the_room_see_a_kill_and_a_body():
    g = _kill_bob_in_engine()
    assert "Alice killed Bob in Engine." in texts(g, 1)
    for seat in (2, 3, 4):
        assert not any("killed" in text for text in texts(g, seat))
        assert g.known_dead[seat] == set()
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 4, "go", "Engine")
    assert g.known_dead[4] == {1} and g.sight(4) == (ROOM["Engine"], (0,), (1,))
    assert Action("report") in g.legal_actions(4) or g.to_move != 4


def test_a_report_opens_a_meeting_that_ejects_the_impostor_and_the_crew_wins():
    g = _kill_bob_in_engine()
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 4, "go", "Engine")
    act(g, 0, "go", "Cafeteria")
    assert g.illegal_reason(1, Action("report")).startswith("you are a ghost")
    act(g, 1, "task")  # Bob's ghost finishes his task unseen
    act(g, 3, "wait")  # round 4 starts at seat 3
    act(g, 4, "report")
    assert g.phase is Phase.CHANCE and g.chance_outcomes() == (0, 2, 3, 4)
    assert "Eve reported Bob's body in Engine: a meeting begins." in texts(g, 2)
    assert "Bob is dead." in texts(g, 2) and g.known_dead[2] == {1}
    assert set(g.room) == {ROOM["Cafeteria"]} and g.bodies == {}
    g.apply_chance(2)
    act(g, 2, "say", value="Where was everyone?")
    act(g, 3, "accuse", 0)
    act(g, 4, "accuse", 0)
    act(g, 0, "accuse", 4)
    assert g.phase is Phase.VOTE and g.illegal_reason(0, Action("vote", 1)) == "Bob is dead"
    act(g, 0, "vote", 4)
    act(g, 2, "vote", 0)
    assert not any("voted" in text for text in texts(g, 3))  # secret until all are in
    act(g, 3, "vote", 0)
    act(g, 4, "vote", 0)
    assert "Alice was ejected. Alice was an impostor." in texts(g, 3)
    assert g.over and g.winner == "crew"
    assert g.accusations[3][0] == 1 and g.vote_counts[2][0] == 1


def test_the_impostors_win_at_parity():
    g = game((0,), {1: "Engine", 2: "Weapons", 3: "Storage"}, n=4, discussion_rounds=0)
    act(g, 0, "go", "Engine")
    act(g, 1, "go", "Engine")
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 1, "task")
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 0, "kill", 1)
    assert not g.over
    act(g, 2, "button")  # round 3 starts at seat 2, in the Cafeteria
    assert g.phase is Phase.VOTE and g.buttons[2] == 0
    act(g, 0, "vote", 3)
    act(g, 2, "vote", 3)
    act(g, 3, "wait")
    assert g.over and g.winner == "impostors"


def test_skip_is_a_candidate_and_ties_follow_the_tie_rule():
    for tie_rule, votes, expected in (
        ("no_exile", (("wait",), ("wait",), ("vote", 0), ("wait",), ("vote", 1)), "Nobody"),
        ("no_exile", (("vote", 2), ("vote", 0), ("vote", 0), ("vote", 2), ("wait",)), "Nobody"),
        ("random", (("vote", 2), ("vote", 0), ("vote", 0), ("vote", 2), ("wait",)), "draw"),
    ):
        g = game((0,), TASKS, discussion_rounds=0, tie_rule=tie_rule)
        act(g, 0, "button")
        for seat, vote in enumerate(votes):
            act(g, seat, *vote)
        if expected == "draw":
            assert g.phase is Phase.CHANCE and g.chance_outcomes() == (0, 2)
            g.apply_chance(2)
            assert "Carol was ejected. Carol was a crewmate." in texts(g, 4)
        else:
            assert "Nobody was ejected." in texts(g, 4) and g.phase is Phase.PLAY
            assert g.round == 2 and g.cooldown(0) == 1


def test_the_button_only_in_its_room_and_only_so_often():
    g = game((0,), TASKS, emergency_meetings=1)
    act(g, 0, "go", "Engine")
    assert g.illegal_reason(1, Action("button")) is None
    g2 = game((0,), TASKS, emergency_meetings=0)
    assert g2.illegal_reason(0, Action("button")) == "you have no emergency meetings left"
    for seat in range(1, 5):
        act(g, seat, "wait")
    act(g, 1, "wait")
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 4, "wait")
    assert g.illegal_reason(0, Action("button")) == "the emergency button is in Cafeteria"


def test_the_game_ends_undecided_after_max_rounds():
    g = game((0,), TASKS, max_rounds=2)
    for _ in range(2):
        while not g.over and g.to_move is not None:
            act(g, g.to_move, "wait")
    assert g.over and g.truncated and g.winner is None


def test_the_log_replays_the_game():
    g = _kill_bob_in_engine()
    act(g, 2, "wait")
    act(g, 3, "wait")
    g2 = AmongUsGame.replay(GameLog.from_json(g.game_log.to_json()))
    assert [m.text for m in g2.log] == [m.text for m in g.log]
    assert g2.game_log.to_json() == g.game_log.to_json()


TINY = {"button_room": "Hall", "tasks_per_player": 1}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_impostors": 2, "num_players": 4}, "num_impostors"),
        ({"corridors": (("Reactor", "Engine"),)}, "not connected"),
        ({"button_room": "Bridge"}, "button_room"),
        ({"rooms": ("Alice", "Hall"), "corridors": (("Alice", "Hall"),), **TINY}, "both"),
        ({"rooms": ("go", "Hall"), "corridors": (("go", "Hall"),), **TINY}, "grammar"),
        ({"tasks_per_player": 9}, "tasks_per_player"),
        ({"tie_rule": "first_named"}, "tie_rule"),
    ],
)
def test_bad_setups_are_refused(kwargs, message):
    values = {"num_players": 5, "names": ("Alice", "Bob", "Carol", "Dave", "Eve"), **kwargs}
    if values["num_players"] == 4:
        values["names"] = values["names"][:4]
    with pytest.raises(ValueError, match=message):
        AmongUsSetup(**values)


def test_ghosts_keep_their_turns_so_the_order_never_betrays_a_death():
    g = _kill_bob_in_engine()
    assert g.queue == [2, 3, 4, 0, 1] and g.tasks_left(1) == [ROOM["Engine"]]
    for seat in (2, 3, 4, 0):
        act(g, seat, "wait")
    act(g, 1, "task")  # Bob's ghost finishes his task; he still moves every round
    assert g.tasks_left(1) == [] and g.queue == [3, 4, 0, 1, 2]
