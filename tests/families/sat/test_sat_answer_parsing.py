from __future__ import annotations

import pytest

from envsuite.env_base import InvalidAction
from envsuite.families.sat.answer_parsing import extract_boxed, parse_assignment, parse_decision
from envsuite.families.sat.cnf import Formula, saturn_violated


def test_the_last_boxed_answer_counts_and_boxes_never_span_lines():
    assert extract_boxed("try \\boxed{0000} then \\boxed{1010}") == "1010"
    assert extract_boxed("\\boxed{10\n10}") is None
    assert extract_boxed("\\boxed{}") == ""
    assert extract_boxed("no answer") is None


@pytest.mark.parametrize("parser", ["saturn", "strict"])
def test_no_boxed_answer_is_no_answer(parser):
    with pytest.raises(InvalidAction, match="no \\\\boxed"):
        parse_assignment("The answer is 10101.", 5, parser)
    with pytest.raises(InvalidAction, match="str"):
        parse_assignment(None, 5, parser)


@pytest.mark.parametrize("content", ["1101", "110101", "1 101", "11O1x", "T F T"])
def test_saturn_accepts_any_content_strict_only_exact_bits(content):
    response = f"so \\boxed{{{content}}}"
    assert parse_assignment(response, 5, "saturn") == content
    with pytest.raises(InvalidAction, match="exactly 5 characters"):
        parse_assignment(response, 5, "strict")
    assert parse_assignment("\\boxed{11010}", 5, "strict") == "11010"


def test_where_the_parsers_differ_in_score():
    # (A or B) and (not E): "1101" is short, SATURN reads E as 0 and accepts it.
    formula = Formula(5, ((1, 2), (-5,)))
    content = parse_assignment("\\boxed{1101}", 5, "saturn")
    assert saturn_violated(formula, content) == []
    # A space for A satisfies neither A nor not-A.
    assert saturn_violated(Formula(5, ((1,), (-1,))), " 0000") == [0, 1]


def test_decisions():
    assert parse_decision("\\boxed{SAT}", "strict") is True
    assert parse_decision("\\boxed{UNSAT}", "strict") is False
    with pytest.raises(InvalidAction, match="SAT"):
        parse_decision("\\boxed{unsat}", "strict")
    assert parse_decision("\\boxed{ unsatisfiable }", "saturn") is False
    assert parse_decision("\\boxed{maybe}", "saturn") is None
    with pytest.raises(InvalidAction):
        parse_decision("UNSAT", "saturn")
