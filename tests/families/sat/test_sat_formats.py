from __future__ import annotations

import json
import os

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.families.sat.cnf import Formula
from envsuite.families.sat.formats import (
    PROMPT_FORMATS,
    SATURN_SOLVE_HEADER,
    dimacs,
    render_interactive_prompt,
    render_prompt,
    saturn_clause_string,
    worst_case_formula,
)
from envsuite.families.sat.instances import GenerationSettings, generate_instance
from envsuite.families.sat.levels import Level
from envsuite.families.sat.problem_parsing import (
    ProblemFormatError,
    parse_dimacs,
    parse_english,
    parse_prompt,
    parse_saturn_clauses,
    parse_saturn_problem,
)
from envsuite.seeding import make_generator

EXAMPLE = Formula(4, ((-2, -3, -4), (1, -2, -4), (1, 2, -4)))


def test_saturn_prompt_is_saturns_template_and_json_line():
    prompt = render_prompt(EXAMPLE, 3, "saturn", "solve")
    assert prompt.startswith("You are now required to solve a SAT (Boolean Satisfiability)")
    assert prompt == (
        SATURN_SOLVE_HEADER + '{"n_sat": 3, "k": 4, "clause": "!B!C!D & A!B!D & AB!D"}\n'
    )
    # SATURN's template, as printed by its train_prompt.py, in three distinctive pieces.
    assert "put your final answer within \\boxed{}.\n\n**Example**\n" in prompt
    assert (
        "**Final Answer**\n\\boxed{1101}\n\nBelow is the SAT problem you need to solve:\n" in prompt
    )
    assert saturn_clause_string(EXAMPLE) == "!B!C!D & A!B!D & AB!D"


def test_dimacs_is_standard():
    text = dimacs(EXAMPLE, comments=["made by envsuite"])
    assert text == "c made by envsuite\np cnf 4 3\n-2 -3 -4 0\n1 -2 -4 0\n1 2 -4 0\n"
    assert parse_dimacs(text) == EXAMPLE


def test_dimacs_parser_takes_clauses_across_lines_and_ignores_trailing_text():
    assert parse_dimacs("c x\np cnf 3 2\n1 -2\n 0 2 3 0\nanswer below") == Formula(
        3, ((1, -2), (2, 3))
    )
    with pytest.raises(ProblemFormatError, match="announces 3 clauses"):
        parse_dimacs("p cnf 3 3\n1 0\n")
    with pytest.raises(ProblemFormatError, match="outside"):
        parse_dimacs("p cnf 2 1\n1 5 0\n")
    with pytest.raises(ProblemFormatError, match="no 'p cnf"):
        parse_dimacs("1 2 0")


def test_english_reads_as_sentences():
    prompt = render_prompt(EXAMPLE, 3, "english", "solve")
    assert "There are 4 Boolean variables: A, B, C and D." in prompt
    assert "1. B is false, or C is false, or D is false." in prompt
    assert "values of A, B, C and D in this order" in prompt
    assert parse_english(prompt) == EXAMPLE


@pytest.mark.parametrize("prompt_format", PROMPT_FORMATS)
@pytest.mark.parametrize("task", ["solve", "decide"])
@pytest.mark.parametrize("level", [Level(3, 5, 20), Level(4, 30, 90)])
def test_every_prompt_parses_back_to_its_formula(prompt_format, task, level):
    rng = make_generator(0, "format-tests", level.name)
    instance = generate_instance(rng, level, GenerationSettings())
    formula = instance.formula
    prompt = render_prompt(formula, level.clause_width, prompt_format, task)
    assert parse_prompt(prompt) == formula
    interactive = render_interactive_prompt(formula, level.clause_width, prompt_format, 10)
    assert parse_prompt(interactive) == formula
    if task == "decide":
        assert "UNSAT" in prompt


@pytest.mark.parametrize("prompt_format", PROMPT_FORMATS)
def test_worst_case_formula_bounds_real_prompts(prompt_format):
    for level in (Level(3, 5, 20), Level(3, 40, 170)):
        bound = len(render_prompt(worst_case_formula(level), 3, prompt_format, "solve"))
        for index in range(20):
            rng = make_generator(index, "bounds", prompt_format)
            formula = generate_instance(rng, level, GenerationSettings()).formula
            assert len(render_prompt(formula, 3, prompt_format, "solve")) <= bound


def test_saturn_clause_strings_with_x_names_round_trip():
    formula = Formula(30, ((1, -12, 30), (-2, 3, 29)))
    text = saturn_clause_string(formula)
    assert text == "x1!x12x30 & !x2x3x29"
    assert parse_saturn_clauses(text, 30) == formula


def test_saturn_parser_rejects_garbage_with_reasons():
    with pytest.raises(ProblemFormatError, match="not a SATURN clause"):
        parse_saturn_clauses("AB? & C", 5)
    with pytest.raises(ProblemFormatError, match="not one of the 3 variables"):
        parse_saturn_clauses("AD", 3)
    with pytest.raises(ProblemFormatError, match="no SATURN problem line"):
        parse_saturn_problem("hello")
    line = json.dumps({"n_sat": 3, "k": "five", "clause": "ABC"})
    with pytest.raises(ProblemFormatError, match="bad sizes"):
        parse_saturn_problem(line)
