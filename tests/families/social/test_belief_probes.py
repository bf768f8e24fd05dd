"""Belief probes: the answer format read leniently, and the proper scores on known inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from envsuite.families.social.belief_probes import (
    LOG_FLOOR,
    ProbeQuestion,
    answer_text,
    format_answer,
    parse_probe_answer,
    score_probe,
)

QUESTION = ProbeQuestion(("Alice", "Bob", "Carol"), ("werewolves", "village"), "vote", 1)
TRUTH = {"Alice": "werewolves", "Bob": "village", "Carol": "village"}


def _first(answer):
    parsed = parse_probe_answer(answer, QUESTION)
    return {name: belief[0] for name, belief in parsed.beliefs.items()}, parsed.defaulted


@pytest.mark.parametrize(
    "answer",
    [
        "Alice: 0.7, Bob: 0.1, Carol: 0.2",
        "alice=70%\nBOB = 10 %\nCarol: 20",
        'My guess: {"Alice": 0.7, "Bob": 0.1, "Carol": 0.2} done',
        {"Alice": 0.7, "Bob": "10%", "Carol": 0.2},
        {
            "Alice": {"werewolves": 7, "village": 3},
            "Bob": {"Werewolves": 0.1, "village": 0.9},
            "Carol": {"werewolves": 0.2, "village": 0.8},
        },
    ],
)
def test_every_documented_form_reads_the_same(answer):
    first, defaulted = _first(answer)
    assert defaulted == 0
    assert first == pytest.approx({"Alice": 0.7, "Bob": 0.1, "Carol": 0.2})


def test_uniform_is_an_answer_not_a_default():
    first, defaulted = _first("  Uniform ")
    assert first == {"Alice": 0.5, "Bob": 0.5, "Carol": 0.5}
    assert defaulted == 0


@pytest.mark.parametrize(
    ("answer", "defaulted"),
    [
        ("", 3),
        ("I think Alice is lying.", 3),
        ("Alice: 0.9", 2),  # Bob and Carol left out
        ("Alice: -0.2, Bob: 150, Carol: 0.3", 2),  # out of range
        ("Alice: 0.9, Alice: 0.1, Dave: 0.5", 2),  # the first Alice counts; Dave is unknown
        ({"Alice": None, "Bob": True, "Carol": [0.4]}, 3),
        ({"Alice": {"werewolves": 0.5}}, 3),  # a distribution must name every class
        ('{"Alice": 0.2', 2),  # broken JSON, read as pairs
        (None, 3),
        (b"Alice: 0.3", 3),
    ],
)
def test_malformed_answers_default_to_uniform_and_are_counted(answer, defaulted):
    parsed = parse_probe_answer(answer, QUESTION)
    assert parsed.defaulted == defaulted
    assert parsed.malformed
    read = {"Alice": 0.9, "Carol": 0.3}.get
    for name, belief in parsed.beliefs.items():
        assert sum(belief) == pytest.approx(1.0)
        assert belief[0] in (0.5, read(name), 0.2)


def test_scores_on_known_inputs():
    answer = parse_probe_answer("Alice: 0.8, Bob: 0.4, Carol: 0.5", QUESTION)
    score = score_probe(answer, QUESTION, TRUTH)
    # (0.8-1)^2, (0.4-0)^2, (0.5-0)^2
    assert score.brier == pytest.approx((0.04 + 0.16 + 0.25) / 3)
    assert score.log == pytest.approx(-(math.log(0.8) + math.log(0.6) + math.log(0.5)) / 3)
    assert score.accuracy == pytest.approx((1 + 1 + 0.5) / 3)  # Carol's 0.5 is a tie


def test_uniform_and_perfect_and_confidently_wrong():
    uniform = score_probe(parse_probe_answer("uniform", QUESTION), QUESTION, TRUTH)
    assert (uniform.brier, uniform.log, uniform.accuracy) == pytest.approx((0.25, math.log(2), 0.5))
    perfect = score_probe(
        parse_probe_answer("Alice: 1, Bob: 0, Carol: 0", QUESTION), QUESTION, TRUTH
    )
    assert (perfect.brier, perfect.log, perfect.accuracy) == (0.0, 0.0, 1.0)
    wrong = score_probe(parse_probe_answer("Alice: 0, Bob: 1, Carol: 1", QUESTION), QUESTION, TRUTH)
    assert (wrong.brier, wrong.accuracy) == (1.0, 0.0)
    assert wrong.log == pytest.approx(-math.log(LOG_FLOOR))


def test_three_classes_brier_is_half_the_squared_distance():
    question = ProbeQuestion(("Ann",), ("evil", "merlin", "good"), "vote", 1)
    answer = parse_probe_answer({"Ann": {"evil": 0.2, "merlin": 0.5, "good": 0.3}}, question)
    score = score_probe(answer, question, {"Ann": "merlin"})
    assert score.brier == pytest.approx(0.5 * (0.04 + 0.25 + 0.09))
    assert score.log == pytest.approx(-math.log(0.5))
    # a bare number names one class of two only
    assert parse_probe_answer("Ann: 0.4", question).defaulted == 1


@pytest.mark.parametrize("rule", ["brier", "log"])
def test_both_rules_are_proper(rule):
    # Reporting the true frequency q minimises the expected score over a grid of reports.
    question = ProbeQuestion(("Ann",), ("werewolves", "village"), "vote", 1)
    grid = np.linspace(0.01, 0.99, 99)
    for q in (0.2, 0.5, 0.83):
        expected = []
        for p in grid:
            answer = parse_probe_answer({"Ann": float(p)}, question)
            wolf = getattr(score_probe(answer, question, {"Ann": "werewolves"}), rule)
            village = getattr(score_probe(answer, question, {"Ann": "village"}), rule)
            expected.append(q * wolf + (1 - q) * village)
        assert grid[int(np.argmin(expected))] == pytest.approx(q, abs=0.006)


def test_score_needs_the_truth_of_every_player():
    answer = parse_probe_answer("uniform", QUESTION)
    with pytest.raises(ValueError, match="Carol"):
        score_probe(answer, QUESTION, {"Alice": "werewolves", "Bob": "village"})


def test_formatted_answers_read_back_exactly():
    beliefs = {"Alice": 1 / 3, "Bob": 0.1 + 0.2, "Carol": 0.0}
    first, defaulted = _first(format_answer(beliefs))
    assert first == beliefs and defaulted == 0
    assert answer_text(object()).startswith('"<object')  # JSON with str() of the unknown
