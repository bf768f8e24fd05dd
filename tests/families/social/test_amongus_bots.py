"""AmongUs bots: what the belief bot infers and does, and that it reads only its own seat."""

from __future__ import annotations

from envsuite.families.social.amongus_bots import BeliefBot, RandomLegalBot
from envsuite.families.social.amongus_setup import Action, Phase
from tests.families.social.amongus_scripts import ROOM, act, game
from tests.families.social.test_amongus_visibility import OBSERVER, script

TASKS = {1: "Engine", 2: "Weapons", 3: "Storage", 4: "Security"}


def test_a_witness_reports_the_body_then_accuses_and_votes_for_the_killer():
    g = game((0,), TASKS)
    carol = BeliefBot()
    act(g, 0, "go", "Engine")
    act(g, 1, "go", "Engine")
    act(g, 2, "go", "Engine")
    act(g, 3, "wait")
    act(g, 4, "wait")
    act(g, 1, "task")
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 4, "wait")
    act(g, 0, "kill", 1)  # before Carol's eyes
    assert carol.choose(g, 2) == Action("report")
    act(g, 2, "report")
    g.apply_chance(2)
    assert carol.choose(g, 2) == Action("accuse", 0)
    for seat in (2, 3, 4, 0):
        act(g, seat, "accuse", 0 if seat != 0 else 2)
    assert g.phase is Phase.VOTE
    act(g, 0, "vote", 2)
    assert carol.choose(g, 2) == Action("vote", 0)
    assert carol.suspicion[0] >= 100


def test_a_crewmate_walks_to_its_nearest_task_and_does_it():
    g = game((0,), {1: "Reactor", 2: "Weapons", 3: "Storage", 4: "Security"})
    bob = BeliefBot()
    act(g, 0, "wait")
    assert bob.choose(g, 1) in (Action("go", ROOM["Engine"]), Action("go", ROOM["Security"]))
    act(g, 1, "go", "Security")
    for seat in (2, 3, 4):
        act(g, seat, "wait")
    assert bob.choose(g, 1) == Action("go", ROOM["Reactor"])
    act(g, 1, "go", "Reactor")
    for seat in (2, 3, 4, 0):  # the rest of round 2, then round 3 up to Bob
        act(g, seat, "wait")
    for seat in (2, 3, 4, 0):
        act(g, seat, "wait")
    assert bob.choose(g, 1) == Action("task")


def test_an_impostor_kills_a_crewmate_it_finds_alone_and_not_before_witnesses():
    g = game((0,), TASKS)
    alice = BeliefBot()
    act(g, 0, "go", "Engine")
    act(g, 1, "go", "Engine")
    for seat in (2, 3, 4):
        act(g, seat, "wait")
    act(g, 1, "task")
    act(g, 2, "wait")
    act(g, 3, "wait")
    act(g, 4, "wait")
    assert alice.choose(g, 0) == Action("kill", 1)
    crowded = game((0,), TASKS)
    act(crowded, 0, "wait")
    for seat in (1, 2, 3, 4):
        act(crowded, seat, "wait")
    for seat in (1, 2, 3, 4):
        act(crowded, seat, "wait")
    assert BeliefBot().choose(crowded, 0).kind in ("go", "wait")  # four witnesses


def test_the_belief_bot_of_a_crewmate_acts_alike_on_deals_it_cannot_tell_apart():
    (_, a), (_, b) = script(0), script(1)
    bots = [BeliefBot(), BeliefBot()]
    for bot in bots:
        bot.reset(7)
    # Eve (seat 4) plays round 5 from the same view in both games.
    while a.to_move != OBSERVER:
        act(a, a.to_move, "wait")
        act(b, b.to_move, "wait")
    assert bots[0].choose(a, OBSERVER) == bots[1].choose(b, OBSERVER)
    assert bots[0].suspicion == bots[1].suspicion


def test_the_random_bot_plays_only_legal_actions():
    g = game((0,), TASKS)
    bot = RandomLegalBot()
    bot.reset(3)
    for _ in range(200):
        if g.over or g.to_move is None:
            break
        seat = g.to_move
        action = bot.choose(g, seat)
        assert g.illegal_reason(seat, action) is None
        g.apply(seat, action)
        while g.phase is Phase.CHANCE:
            g.apply_chance(g.chance_outcomes()[0])
