from __future__ import annotations

import itertools
import math

import pytest

from envsuite.families.sat.cnf import (
    Formula,
    canonical_clauses,
    clause_string,
    partial_status,
    saturn_violated,
    variable_names,
)
from envsuite.families.sat.levels import (
    LADDERS,
    NAMED_LEVELS,
    SATURN_TEST_LEVELS,
    SATURN_TRAIN_LEVELS,
    Level,
    max_distinct_clauses,
    parse_ladder,
    parse_level,
    saturn_difficulty,
)


def test_variables_are_letters_up_to_26_then_x_names():
    assert variable_names(5) == ("A", "B", "C", "D", "E")
    assert variable_names(26)[-1] == "Z"
    names = variable_names(27)
    assert names[0] == "x1" and names[-1] == "x27" and len(set(names)) == 27
    with pytest.raises(ValueError):
        variable_names(0)


def test_formula_rejects_bad_literals_and_empty_clauses():
    with pytest.raises(ValueError, match="outside"):
        Formula(3, ((1, 4),))
    with pytest.raises(ValueError, match="outside"):
        Formula(3, ((1, 0),))
    with pytest.raises(ValueError, match="empty"):
        Formula(3, ((1,), ()))
    with pytest.raises(ValueError):
        Formula(0, ())


def test_violated_is_the_ordinary_truth_value_for_clean_assignments():
    formula = Formula(3, ((1, -2), (2, 3), (-1, -3)))
    assert formula.violated("100") == [1]
    assert formula.satisfies("110")
    with pytest.raises(ValueError):
        formula.violated("11")


def test_saturn_rule_reads_missing_positions_as_zero_and_odd_characters_as_neither():
    formula = Formula(3, ((3,), (-3,), (1, 2)))
    # Position 3 missing reads as 0: the negated literal holds, the positive one does not.
    assert saturn_violated(formula, "11") == [0]
    # A space satisfies neither polarity.
    assert saturn_violated(formula, "1 ") == [0]
    assert saturn_violated(formula, " 1 ") == [0, 1]
    # Characters past the last variable are ignored.
    assert saturn_violated(formula, "110xyz") == [0]


def test_partial_status_separates_violated_and_open_clauses():
    formula = Formula(3, ((1, 2), (-1, 3), (2, 3)))
    violated, undecided = partial_status(formula, [1, 0, None])
    assert violated == [] and undecided == [1, 2]
    violated, undecided = partial_status(formula, [0, 0, 0])
    assert violated == [0, 2] and undecided == []


def test_canonical_order_is_saturn_text_order():
    clauses = [(1, 2, 3), (-1, -2, -3), (-1, 2, 3), (1, -2, 3)]
    ordered = canonical_clauses(clauses, 5)
    texts = [clause_string(c, 5) for c in ordered]
    assert texts == sorted(texts) == ["!A!B!C", "!ABC", "A!BC", "ABC"]
    # With x-names the order is by (variable, negated first), not by text.
    big = canonical_clauses([(2, 10), (-2, 3), (1, 30)], 30)
    assert big == ((1, 30), (-2, 3), (2, 10))


def test_saturn_difficulty_formula():
    assert saturn_difficulty(3, 5, 20) == pytest.approx(
        math.log2(5) + 2 * math.log2(20) - 3 + 5 / 3
    )
    assert Level(3, 5, 20).difficulty == pytest.approx(9.6324, abs=1e-4)


def test_levels_validate_their_sizes():
    with pytest.raises(ValueError, match="cannot exceed"):
        Level(6, 5, 10)
    with pytest.raises(ValueError):
        Level(3, 5, 0)
    with pytest.raises(ValueError):
        Level(True, 5, 3)  # type: ignore[arg-type]


def test_parse_level_accepts_names_mappings_and_triples():
    assert parse_level("n3-k5-l20") == Level(3, 5, 20)
    assert parse_level("saturn-stage-1") == Level(3, 5, 5)
    assert parse_level("saturn-test-10") == Level(6, 7, 40)
    assert parse_level({"clause_width": 4, "num_vars": 7, "num_clauses": 40}) == Level(4, 7, 40)
    assert parse_level([3, 6, 20]) == Level(3, 6, 20)
    assert Level(3, 6, 20).name == "n3-k6-l20"
    with pytest.raises(ValueError, match="unknown level"):
        parse_level("hard")
    with pytest.raises(ValueError, match="unknown level fields"):
        parse_level({"clause_width": 3, "num_vars": 5, "num_clauses": 5, "width": 3})


def test_saturn_levels_match_saturn_26k():
    assert [lv.name for lv in SATURN_TRAIN_LEVELS] == [
        "n3-k5-l5", "n3-k5-l6", "n3-k5-l13", "n3-k5-l15"
    ]  # fmt: skip
    assert len(SATURN_TEST_LEVELS) == 10 and len(NAMED_LEVELS) == 14


def test_named_ladders_get_harder_and_bad_ladders_are_refused():
    for name, ladder in LADDERS.items():
        assert parse_ladder(name) == ladder
        assert all(b.difficulty > a.difficulty for a, b in itertools.pairwise(ladder))
    with pytest.raises(ValueError, match="must get harder"):
        parse_ladder(["n3-k5-l20", "n3-k5-l5"])
    with pytest.raises(ValueError, match="at least one"):
        parse_ladder([])
    with pytest.raises(ValueError, match="unknown ladder"):
        parse_ladder("nope")


def test_max_distinct_clauses():
    assert max_distinct_clauses(3, 5, satisfied_by_one=True) == 10 * 7
    assert max_distinct_clauses(3, 5, satisfied_by_one=False) == 10 * 8
