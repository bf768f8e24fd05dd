"""The measure bookkeeping every social game shares, and the free-text stance reader."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.env_base import InvalidAction
from envsuite.families.social.belief_probes import ProbeQuestion
from envsuite.families.social.social_measures import (
    MeasureBook,
    belief_on_truth,
    checked_probe_phases,
    read_probe_answer,
)
from envsuite.families.social.speech_stance import speech_stance

QUESTION = ProbeQuestion(("Bob", "Carol"), ("evil", "good"), "vote", 1, "quest")
TRUTH = {"Bob": "evil", "Carol": "good"}


def test_probe_phases_keep_the_games_order():
    assert checked_probe_phases(["vote", "night"], ("night", "vote")) == ("night", "vote")
    assert checked_probe_phases(None, ("night",)) == ()
    with pytest.raises(ValueError, match="unknown phases"):
        checked_probe_phases(["dawn"], ("night",))


def test_a_probe_answer_is_refused_only_when_nothing_is_read():
    assert read_probe_answer({"Bob": 0.9}, QUESTION) == '{"Bob": 0.9}'
    assert read_probe_answer("Bob: 0.9", QUESTION) == "Bob: 0.9"
    for unreadable in (None, 3, ["Bob"], "", "I do not know"):
        with pytest.raises(InvalidAction):
            read_probe_answer(unreadable, QUESTION)


def test_belief_on_truth_leaves_the_listener_out():
    first = np.array([0.9, 0.8, 0.3, 0.5])
    truth = np.array([False, True, False, True])
    # Seat 0 listens: seat 1 is evil (0.8), seat 2 good (0.7), seat 3 evil (0.5).
    assert belief_on_truth(first, truth, 0) == pytest.approx((0.8 + 0.7 + 0.5) / 3)


def test_the_book_scores_probes_and_speeches_and_assembles_the_final_info():
    book = MeasureBook(("vote",), speaking_reward=True)
    book.reset(3)
    book.queue = [0, 2]
    with pytest.raises(ValueError, match="no probe"):
        book.score_answer(2, QUESTION, TRUTH, "uniform")
    book.score_answer(0, QUESTION, TRUTH, "Bob: 1, Carol: 0")
    book.score_answer(2, QUESTION, TRUTH, "Bob: 0.5")  # Carol defaulted: malformed
    assert book.probe_seat is None
    book.add_speech(1, 0, "say", 2, 0.25)
    book.add_speech(1, 0, "say", 0, 0.75)  # nobody listened: 0
    book.add_cover(1, 0.4)
    book.add_cover(1, 0.6)
    zero = book.final_info(0)
    assert zero["probes"] == 1 and zero["probe_brier"] == 0.0 and zero["probe_malformed"] == 0
    assert zero["speeches"] == 2 and zero["speaking_reward_total"] == 0.25
    assert zero["speaking_reward"] == 0.125 and "deception" not in zero
    assert book.final_info(1) == {
        "probes": 0,
        "probe_malformed": 0,
        "speeches": 0,
        "speaking_reward_total": 0.0,
        "deception": 0.5,
    }
    two = book.final_info(2)
    assert two["probe_malformed"] == 1 and two["probe_brier"] == 0.25
    assert [answer["seat"] for answer in book.digest()["answers"]] == [0, 2]


def test_a_book_with_nothing_on_gives_nothing():
    book = MeasureBook((), speaking_reward=False)
    book.reset(2)
    assert not book.enabled and book.final_info(0) == {}


@pytest.mark.parametrize(
    ("text", "stance"),
    [
        ("Bob is a liar", (1, True)),
        ("I DON'T think Bob is a liar", (1, False)),
        ("bob: honest", (1, False)),
        ("Bobby is a liar", None),  # whole words only
        ("Bob is an honest liar", None),
    ],
)
def test_speech_stance_reads_plain_statements_only(text, stance):
    names = ("Alice", "Bob", "Carol")
    assert speech_stance(text, names, 0, {"liar"}, {"honest"}) == stance
