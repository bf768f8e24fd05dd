"""The Werewolf rules engine: nights, deaths, votes, ties, the end, the log's replay."""

from __future__ import annotations

import pytest

from envsuite.families.social.game_log import GameLog
from envsuite.families.social.werewolf_rules import WerewolfGame
from envsuite.families.social.werewolf_setup import (
    PASS,
    VILLAGE,
    WEREWOLVES,
    Action,
    Phase,
    WerewolfSetup,
)
from tests.families.social.werewolf_scripts import night, setup, vote

# Seat 0 werewolf, 1 seer, 2 doctor, 3-5 villagers.
ROLES6 = ("werewolf", "seer", "doctor", "villager", "villager", "villager")


def game6(**kwargs) -> WerewolfGame:
    return WerewolfGame(setup(6, discussion_rounds=0, **kwargs), ROLES6)


def test_the_night_kills_the_victim_unless_the_doctor_saves_it():
    game = game6()
    night(game, kill=3, check=0, save=4)
    assert not game.alive[3] and game.phase is Phase.VOTE and game.day == 1
    game = game6()
    night(game, kill=3, check=0, save=3)
    assert all(game.alive) and "Nobody died" in game.view(5)[-2].text


def test_the_seer_learns_a_team_privately():
    game = game6()
    night(game, kill=3, check=0, save=2)
    assert game.known[1][0] == WEREWOLVES
    assert any("Bob" not in m.text and "is a werewolf" in m.text for m in game.view(1))
    assert not any("Your vision" in m.text for seat in (0, 2, 3, 4, 5) for m in game.view(seat))


def test_illegal_actions_are_named():
    game = game6()
    assert game.illegal_reason(0, Action("kill", 0)) == (
        "Alice is a werewolf; the werewolves do not kill each other"
    )
    assert game.illegal_reason(3, Action("kill", 1)) == "it is not your turn"
    assert "not allowed now" in game.illegal_reason(0, Action("vote", 1))
    assert game.illegal_reason(0, PASS) is not None  # a night action is compulsory
    night(game, kill=3, check=0, save=2)
    assert game.illegal_reason(0, Action("vote", 3)) == "Dave is dead"
    assert game.illegal_reason(0, Action("vote", 0)) == "you cannot vote yourself"
    with pytest.raises(ValueError, match="illegal action"):
        game.apply(0, Action("vote", 0))


def test_votes_exile_the_most_voted_and_a_tie_exiles_nobody():
    game = game6()
    night(game, kill=3, check=0, save=2)
    vote(game, {0: 1, 1: 0, 2: 0, 4: 1, 5: None})  # 2-2: a tie
    assert sum(game.alive) == 5 and game.phase is Phase.NIGHT_WOLVES and game.day == 2
    night(game, kill=4, check=2, save=1)
    vote(game, {0: 5, 1: 0, 2: 0, 5: 0})
    assert game.winner == VILLAGE and game.over


def test_a_random_tie_is_a_chance_event_over_the_tied():
    game = game6(tie_rule="random")
    night(game, kill=3, check=0, save=2)
    vote(game, {0: 1, 1: 0, 2: 0, 4: 1})
    assert game.phase is Phase.CHANCE and game.chance_outcomes() == (0, 1)
    game.apply_chance(1)
    assert not game.alive[1] and game.phase is Phase.NIGHT_WOLVES


def test_the_werewolves_win_at_parity():
    game = game6()
    night(game, kill=3, check=4, save=2)
    vote(game, {0: 1, 2: 1, 4: 1})
    night(game, kill=2, check=None, save=5)  # the seer is dead: no check
    assert game.winner is None and sum(game.alive) == 3
    vote(game, {0: 4, 5: 4})
    assert game.winner == WEREWOLVES


def test_wolves_split_goes_to_the_first_named_and_they_see_each_other():
    game = WerewolfGame(
        setup(8, num_werewolves=2, discussion_rounds=0),
        ("villager", "werewolf", "seer", "werewolf", "doctor", "villager", "villager", "villager"),
    )
    game.apply(1, Action("kill", 5))
    game.apply(3, Action("kill", 6))
    assert any("Bob (werewolf) wants to kill Frank" in m.text for m in game.view(3))
    assert not any("wants to kill" in m.text for m in game.view(0))
    game.apply(2, Action("check", 0))
    game.apply(4, Action("save", 0))
    assert not game.alive[5] and game.alive[6]


def test_discussion_follows_round_robin_from_the_drawn_speaker():
    game = WerewolfGame(setup(6, discussion_rounds=2), ROLES6)
    night(game, kill=3, check=0, save=2)
    assert game.phase is Phase.CHANCE and game.chance_outcomes() == (0, 1, 2, 4, 5)
    game.apply_chance(4)
    order = []
    while game.phase is Phase.DISCUSSION:
        order.append(game.to_move)
        game.apply(game.to_move, Action("say", None, "x" * 500))
    assert order == [4, 5, 0, 1, 2] * 2 and game.phase is Phase.VOTE
    speech = next(m for m in game.view(0) if m.kind == "speech")
    assert speech.text.count("x") == game.setup.max_speech_chars


def test_the_day_limit_ends_the_game_undecided():
    game = game6(max_days=1)
    night(game, kill=3, check=0, save=2)
    vote(game, {})
    assert game.over and game.winner is None and game.truncated


def test_the_log_replays_the_game_message_for_message():
    game = WerewolfGame(setup(6, discussion_rounds=1, tie_rule="random"), ROLES6)
    night(game, kill=3, check=0, save=2)
    game.apply_chance(5)
    while game.phase is Phase.DISCUSSION:
        game.apply(game.to_move, Action("accuse", 0 if game.to_move else 1))
    game.forfeit_turn(game.to_move)
    vote(game, {1: 0, 2: 0, 4: 1, 5: 1})
    game.apply_chance(0)
    again = WerewolfGame.replay(GameLog.from_json(game.game_log.to_json()))
    assert again.log.messages == game.log.messages and again.winner == VILLAGE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 4}, "num_players"),
        ({"num_players": 6, "num_werewolves": 3}, "num_werewolves"),
        ({"tie_rule": "coin"}, "tie_rule"),
        ({"max_speech_chars": 0}, "max_speech_chars"),
        ({"names": ("A", "B")}, "names"),
        ({"num_players": 5, "names": ("Ann", "Bo", "Cy", "Abstain", "Di")}, "action grammar"),
    ],
)
def test_bad_setups_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        WerewolfSetup(**kwargs)


def test_a_bad_log_is_refused():
    with pytest.raises(ValueError, match="not a game log"):
        GameLog.from_json("[1, 2]")


def test_legal_tuples_are_shared_while_the_state_they_depend_on_holds():
    game = game6()
    wolves_night = game.legal_tuple(0)
    assert game.legal_tuple(0) is wolves_night
    assert game.legal_actions(0) == list(wolves_night) == [Action("kill", s) for s in range(1, 6)]
    assert game.legal_actions(0) is not game.legal_actions(0)  # a new list each call
    assert game.legal_tuple(1) == ()  # off-turn
    night(game, kill=3, check=0, save=4)  # seat 3 dies: the vote is over the living
    assert game.legal_actions(0) == [PASS, *(Action("vote", s) for s in (1, 2, 4, 5))]
    game.apply(0, PASS)
    assert game.legal_actions(1) == [PASS, *(Action("vote", s) for s in (0, 2, 4, 5))]
