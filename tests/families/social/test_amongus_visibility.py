"""What each player sees in AmongUs: no hidden role, kill or room leaks into another's view.

The strong form (non-interference): two games whose deals differ only in who the impostor
is, played so that the observer sees the same things (an unseen kill by one or the
other), give the observer byte-identical text and vector observations at every step.
"""

from __future__ import annotations

import pytest

import envsuite
from envsuite.families.social.amongus_observation import text_view, vector_view
from envsuite.families.social.amongus_rules import AmongUsGame
from tests.families.social.amongus_scripts import act, game
from tests.families.social.env_checks import check_every_view_in_random_play

OBSERVER = 4
# Seat 4 (Eve) is a crewmate in both deals; the impostor is Alice in A and Bob in B.
TASKS_A = {1: "MedBay", 2: "Weapons", 3: "Storage", 4: "Security"}
TASKS_B = {0: "MedBay", 2: "Weapons", 3: "Storage", 4: "Security"}


def views(g: AmongUsGame, seat: int) -> tuple[str, bytes]:
    return text_view(g, seat, None, [], 60_000), vector_view(g, seat).tobytes()


def script(impostor: int) -> tuple[list[tuple[str, bytes]], AmongUsGame]:
    """Alice, Bob and Carol go to Engine; the impostor kills Carol there; Dave reports."""
    g = game((impostor,), TASKS_A if impostor == 0 else TASKS_B)
    steps: list[tuple[int, str, object]] = [
        (0, "go", "Engine"),
        (1, "go", "Engine"),
        (2, "go", "Engine"),
        (3, "wait", None),
        (4, "wait", None),
        (1, "kill" if impostor == 1 else "wait", 2 if impostor == 1 else None),
        (2, "wait", None),
        (3, "wait", None),
        (4, "wait", None),
        (0, "kill" if impostor == 0 else "wait", 2 if impostor == 0 else None),
        (2, "wait", None),  # Carol's ghost
        (3, "go", "Engine"),
        (4, "wait", None),
        (0, "wait", None),
        (1, "wait", None),
        (3, "report", None),
    ]
    seen = [views(g, OBSERVER)]
    for seat, kind, target in steps:
        act(g, seat, kind, target)
        seen.append(views(g, OBSERVER))
    g.apply_chance(4)
    meeting = [
        (4, "say", None, "I stayed in the Cafeteria."),
        (0, "accuse", 1, ""),
        (1, "accuse", 0, ""),
        (3, "wait", None, ""),
        (0, "vote", 1, ""),
        (1, "vote", 0, ""),
        (3, "wait", None, ""),
        (4, "wait", None, ""),
    ]
    for seat, kind, target, value in meeting:
        act(g, seat, kind, target, value)
        seen.append(views(g, OBSERVER))
    assert not g.over and g.round == 5 and not g.alive[2]
    return seen, g


def test_a_crewmate_cannot_tell_who_the_impostor_is_from_an_unseen_kill():
    seen_a, _ = script(0)
    seen_b, _ = script(1)
    assert seen_a == seen_b


def test_the_script_does_reach_private_information():
    _, g = script(0)
    assert "Alice killed Carol in Engine." in [m.text for m in g.log.view(1)]
    assert not any("killed" in m.text for m in g.log.view(OBSERVER))
    _, g = script(1)
    assert "Bob killed Carol in Engine." in [m.text for m in g.log.view(0)]
    # The impostor's own view shows its cooldown and that it is one; the observer's not.
    assert "impostor" in text_view(g, 1, None, [], 60_000).split("\n")[1]
    assert "Kill cooldown" not in text_view(g, OBSERVER, None, [], 60_000)


def test_where_an_unseen_player_went_stays_hidden():
    # Bob leaves Eve's Cafeteria for Engine, then goes on to MedBay or Reactor unseen.
    def run(room: str) -> list[tuple[str, bytes]]:
        g = game((0,), TASKS_A)
        act(g, 0, "wait")
        act(g, 1, "go", "Engine")
        for seat in (2, 3, 4):
            act(g, seat, "wait")
        act(g, 1, "go", room)
        seen = [views(g, OBSERVER)]
        for seat in (2, 3, 4, 0):
            act(g, seat, "wait")
            seen.append(views(g, OBSERVER))
        return seen

    assert run("MedBay") == run("Reactor")
    assert run("MedBay") != run("Cafeteria")  # Bob walking back in is seen


@pytest.mark.parametrize("mode", ["text", "vector"])
def test_no_info_or_observation_names_another_players_role_before_the_end(mode):
    def check(game_, seat, info, text):
        assert info["role"] == game_.roles[seat]
        if text is not None:
            names = game_.names
            for hidden in range(len(names)):
                if game_.known_team[seat][hidden] is None:
                    assert f"{names[hidden]} was an" not in text
                    assert f"{names[hidden]} was a crewmate" not in text
            _, here, bodies = game_.sight(seat)
            lines = [x for x in text.split("\n") if x.startswith("You are in ")]
            line = lines[0] if lines else ""
            for hidden in set(range(len(names))) - set(here) - set(bodies):
                assert hidden == seat or names[hidden] not in line

    env = envsuite.make("envsuite/AmongUs-v0", num_players=7, observation_mode=mode)
    check_every_view_in_random_play(env, 5000, check)


def test_a_task_done_out_of_sight_shows_only_at_the_next_meeting():
    def run(kind: str) -> list[tuple[str, bytes]]:
        g = game((0,), TASKS_A)
        act(g, 0, "wait")
        act(g, 1, "go", "Engine")
        for seat in (2, 3, 4):
            act(g, seat, "wait")
        act(g, 1, "go", "MedBay")
        for seat in (2, 3, 4, 0):
            act(g, seat, "wait")
        act(g, 2, "wait")
        act(g, 3, "wait")
        act(g, 4, "wait")
        act(g, 0, "wait")
        act(g, 1, kind)  # Bob does his task in MedBay, or only waits there
        seen = [views(g, OBSERVER)]
        act(g, 3, "button")
        return [*seen, views(g, OBSERVER)]

    task, wait = run("task"), run("wait")
    assert task[:-1] == wait[:-1]
    assert task[-1] != wait[-1] and "Task bar (as of the last meeting): 1/8" in task[-1][0]
