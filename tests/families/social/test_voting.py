"""Vote tallies, the tie rules and speaking orders of the shared social engine."""

from __future__ import annotations

import pytest

from envsuite.families.social.channels import Message, MessageLog
from envsuite.families.social.turn_order import round_robin, within_budget
from envsuite.families.social.voting import strict_majority, tally


def test_plurality_wins_and_abstentions_count_for_nobody():
    result = tally([2, None, 2, 3, None], "no_exile")
    assert result.chosen == 2 and result.counts == {2: 2, 3: 1} and not result.needs_draw


def test_no_votes_chooses_nobody_under_every_rule():
    for rule in ("no_exile", "random", "first_named"):
        assert tally([None, None], rule).chosen is None


def test_a_tie_exiles_nobody_asks_for_a_draw_or_takes_the_first_named():
    votes = [3, 1, 1, 3, 4]
    assert tally(votes, "no_exile").chosen is None
    drawn = tally(votes, "random")
    assert drawn.chosen is None and drawn.needs_draw and set(drawn.leaders) == {1, 3}
    assert tally(votes, "first_named").chosen == 3


def test_round_robin_starts_at_the_first_speaker_and_repeats():
    assert round_robin([0, 2, 3, 5], 3, 2) == [3, 5, 0, 2, 3, 5, 0, 2]
    with pytest.raises(ValueError, match="not a living seat"):
        round_robin([0, 2], 1, 1)


def test_speaking_budget_cuts_long_messages():
    assert within_budget("hello", 3) == "hel" and within_budget("hi", 3) == "hi"


def test_private_messages_reach_their_audience_only():
    log = MessageLog(3)
    log.post(Message(1, "speech", 0, None, "public"))
    log.post(Message(1, "check", 1, frozenset({1}), "secret"))
    assert [m.text for m in log.view(0)] == ["public"]
    assert [m.text for m in log.view(1)] == ["public", "secret"]
    assert len(log) == 2


def test_a_yes_no_vote_needs_a_strict_majority_and_a_tie_rejects():
    assert strict_majority([True, True, True, False, False])
    assert not strict_majority([True, True, False, False, False])
    assert not strict_majority([True, True, True, False, False, False])  # 3 of 6: a tie
