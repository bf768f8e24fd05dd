"""Avalon's rules: team sizes, sight, votes, the rejection track, quests, the assassination."""

from __future__ import annotations

import pytest

from envsuite.families.social.avalon_rules import AvalonGame
from envsuite.families.social.avalon_setup import (
    EVIL_COUNT,
    NAMES,
    TEAM_SIZES,
    AvalonAction,
    AvalonSetup,
    Phase,
)
from envsuite.families.social.game_log import GameLog

# 5 players: Merlin, Percival, a servant (good); Morgana, the assassin (evil).
DEAL5 = ("merlin", "percival", "servant", "morgana", "assassin")
# 7 players with Mordred and Oberon: Merlin, Percival, 2 servants; Mordred, Oberon, assassin.
DEAL7 = ("merlin", "percival", "servant", "servant", "mordred", "oberon", "assassin")
ROLES7 = ("merlin", "percival", "mordred", "oberon", "assassin")


def game(deal=DEAL5, specials=("merlin", "percival", "morgana", "assassin"), leader=0):
    n = len(deal)
    setup = AvalonSetup(n, tuple(specials), discussion_rounds=0, names=NAMES[:n])
    played = AvalonGame(setup, deal)
    played.apply_chance(leader)
    return played


def act(played: AvalonGame, kind: str, **kwargs) -> None:
    played.apply(played.to_move, AvalonAction(kind, **kwargs))


def quest(played: AvalonGame, team, fails=(), approve=True):
    """Propose ``team``, vote all approve (or reject), and play cards (fail for ``fails``)."""
    act(played, "propose", team=tuple(team))
    while played.phase is Phase.VOTE:
        act(played, "approve" if approve else "reject")
    while approve and played.phase is Phase.QUEST:
        act(played, "fail" if played.to_move in fails else "success")


def test_the_standard_table_of_evil_players_and_team_sizes():
    assert EVIL_COUNT == {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
    assert TEAM_SIZES[5] == (2, 3, 2, 3, 3) and TEAM_SIZES[6] == (2, 3, 4, 3, 4)
    assert TEAM_SIZES[7] == (2, 3, 3, 4, 4)
    assert TEAM_SIZES[8] == TEAM_SIZES[9] == TEAM_SIZES[10] == (3, 4, 4, 5, 5)
    for n in range(5, 11):
        setup = AvalonSetup(n, names=NAMES[:n])
        assert [setup.fails_needed(q) for q in range(5)] == [1, 1, 1, 2 if n >= 7 else 1, 1]
        assert setup.base_roles().count("minion") + 2 == EVIL_COUNT[n]


def test_sight_merlin_misses_mordred_evil_miss_oberon_percival_sees_a_pair():
    played = game(DEAL7, ROLES7)
    evil, good, pair = "evil", "good", "merlin_or_morgana"
    assert played.known[0] == [good, None, None, None, None, evil, evil]  # not Mordred (4)
    assert played.known[1] == [pair, good, None, None, None, None, None]  # no Morgana: Merlin
    assert played.known[4] == [None, None, None, None, evil, None, evil]  # not Oberon (5)
    assert played.known[5] == [None, None, None, None, None, evil, None]  # Oberon sees nobody
    assert played.known[2] == [None, None, good, None, None, None, None]
    five = game()
    assert five.known[1] == [pair, "good", None, pair, None]  # Merlin and Morgana


def test_a_team_of_the_wrong_size_or_with_repeats_is_refused():
    played = game()
    assert played.illegal_reason(0, AvalonAction("propose", (0, 1, 2))) == (
        "quest 1 needs a team of 2, not 3"
    )
    assert played.illegal_reason(0, AvalonAction("propose", (1, 1))) == (
        "the team names a player twice"
    )
    assert played.illegal_reason(1, AvalonAction("propose", (0, 1))) == "it is not your turn"
    assert len(played.legal_actions(0)) == 10  # C(5, 2)


def test_a_strict_majority_approves_and_five_rejections_in_a_row_give_evil_the_game():
    played = game()
    act(played, "propose", team=(0, 1))
    for vote in ("approve", "approve", "reject", "reject", "reject"):
        act(played, vote)
    assert played.rejections == 1 and played.leader == 1 and played.phase is Phase.PROPOSE
    for _ in range(3):
        quest(played, (0, 1), approve=False)
    assert played.rejections == 4 and not played.over
    quest(played, (0, 1), approve=False)
    assert played.over and played.winner == "evil" and played.results == []


def test_an_approved_quest_resets_the_track_and_good_must_play_success():
    played = game()
    quest(played, (0, 1), approve=False)
    act(played, "propose", team=(1, 3))
    for _ in range(5):
        act(played, "approve")
    assert played.phase is Phase.QUEST and played.rejections == 0 and played.to_move == 1
    assert played.illegal_reason(1, AvalonAction("fail")) == "a good player must play success"
    assert [a.kind for a in played.legal_actions(1)] == ["success"]
    act(played, "success")
    assert [a.kind for a in played.legal_actions(3)] == ["success", "fail"]
    act(played, "fail")
    assert played.results == [((1, 3), 1, False)] and played.quest == 1


def test_the_fourth_quest_needs_two_fails_with_seven_players():
    played = game(DEAL7, ROLES7)
    quest(played, (0, 4), fails=(4,))
    quest(played, (0, 1, 2))
    quest(played, (0, 1, 2))
    quest(played, (0, 4, 5, 6), fails=(4,))  # one fail: the quest still succeeds
    assert played.results[3] == ((0, 4, 5, 6), 1, True)
    assert played.phase is Phase.ASSASSINATE


def test_two_fails_do_fail_the_fourth_quest_and_three_failures_win_for_evil():
    played = game(DEAL7, ROLES7)
    quest(played, (0, 4), fails=(4,))
    quest(played, (0, 1, 2))
    quest(played, (0, 1, 2))
    quest(played, (0, 4, 5, 6), fails=(4, 6))
    assert played.results[3][2] is False and not played.over
    quest(played, (0, 4, 5, 6), fails=(5,))
    assert played.over and played.winner == "evil"


@pytest.mark.parametrize(("target", "winner"), [(0, "evil"), (1, "good")])
def test_the_assassin_naming_merlin_wins_for_evil(target, winner):
    played = game()
    for team in ((0, 1), (0, 1, 2), (1, 2)):
        quest(played, team)
    assert played.phase is Phase.ASSASSINATE and played.to_move == 4
    assert played.illegal_reason(4, AvalonAction("assassinate", target=3)) == (
        "Dave is on your side"
    )
    assert [a.target for a in played.legal_actions(4)] == [0, 1, 2]
    act(played, "assassinate", target=target)
    assert played.over and played.winner == winner


def test_without_an_assassin_three_successes_win_for_good():
    played = game(("merlin", "servant", "servant", "minion", "minion"), ("merlin",))
    for team in ((0, 1), (0, 1, 2), (1, 2)):
        quest(played, team)
    assert played.over and played.winner == "good"


def test_refused_turns_are_played_by_the_documented_default():
    played = game(leader=3)
    played.forfeit_turn(3)  # the leader and the seat after it
    assert played.team == (3, 4)
    for _ in range(5):
        played.forfeit_turn(played.to_move)  # every vote: reject
    assert played.rejections == 1
    act(played, "propose", team=(1, 3))
    while played.phase is Phase.VOTE:
        act(played, "approve")
    act(played, "success")
    played.forfeit_turn(3)  # an evil card: success
    assert played.results[-1] == ((1, 3), 0, True)


def test_the_log_replays_the_game_and_round_trips_through_json():
    played = game()
    quest(played, (0, 1), approve=False)
    quest(played, (1, 3), fails=(3,))
    played.forfeit_turn(played.to_move)
    again = AvalonGame.replay(GameLog.from_json(played.game_log.to_json()))
    assert [m.text for m in again.log] == [m.text for m in played.log]
    assert again.team == played.team and again.rejections == played.rejections


def test_bad_setups_are_refused():
    with pytest.raises(ValueError, match="num_players must be an int in"):
        AvalonSetup(11)
    with pytest.raises(ValueError, match="3 evil roles do not fit"):
        AvalonSetup(5, ("morgana", "mordred", "oberon"))
    with pytest.raises(ValueError, match="unknown role 'seer'"):
        AvalonSetup(5, ("seer",))
    with pytest.raises(ValueError, match="each special role may appear once"):
        AvalonSetup(5, ("merlin", "merlin"))
