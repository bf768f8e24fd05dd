from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.families.sat import solver
from envsuite.families.sat.cnf import Formula, canonical_clauses
from envsuite.families.sat.instances import GenerationSettings, generate_instance
from envsuite.families.sat.levels import Level
from envsuite.families.sat.planted_ksat import planted_batch, planted_instance
from envsuite.families.sat.random_ksat import (
    GenerationError,
    random_formula,
    random_satisfiable,
    random_unsatisfiable,
)
from envsuite.seeding import make_generator


def rng(*keys: int | str) -> np.random.Generator:
    return make_generator(0, "sat-generator-tests", *keys)


def assert_well_formed(formula: Formula, level: Level) -> None:
    assert formula.num_vars == level.num_vars
    assert formula.num_clauses == level.num_clauses
    assert len(set(formula.clauses)) == level.num_clauses, "clauses repeat"
    for clause in formula.clauses:
        variables = [abs(x) for x in clause]
        assert len(clause) == level.clause_width
        assert variables == sorted(set(variables)), "literals not distinct or out of order"
    assert formula.clauses == canonical_clauses(formula.clauses, formula.num_vars)


@pytest.mark.parametrize(
    "level", [Level(3, 5, 20), Level(4, 8, 40), Level(6, 7, 40), Level(3, 5, 70)]
)
def test_planted_instances_are_well_formed_and_satisfied_by_their_plant(level):
    for formula, planted in planted_batch(rng(level.name), level, 50):
        assert_well_formed(formula, level)
        assert len(planted) == level.num_vars and formula.satisfies(planted)


def test_planted_generator_handles_many_variables():
    level = Level(3, 120, 500)  # more than 64 variables: the rejection path for variable sets
    formula, planted = planted_instance(rng("big"), level)
    assert_well_formed(formula, level)
    assert formula.satisfies(planted) and formula.names[0] == "x1"


def test_planted_generator_handles_wide_clauses_whose_codes_overflow_int64():
    level = Level(10, 100, 50)  # 10 literals over 100 variables: the pure-Python paths
    for formula, planted in planted_batch(rng("wide"), level, 3):
        assert_well_formed(formula, level)
        assert formula.satisfies(planted)


def test_planted_clauses_follow_saturns_sign_distribution():
    # SATURN draws the agreement pattern uniformly from the 2^n - 1 non-zero patterns.
    level = Level(3, 5, 20)
    patterns: Counter[int] = Counter()
    for formula, planted in planted_batch(rng("signs"), level, 400):
        for clause in formula.clauses:
            agree = [(x > 0) == (planted[abs(x) - 1] == "1") for x in clause]
            patterns[sum(bit << i for i, bit in enumerate(agree))] += 1
    assert 0 not in patterns and set(patterns) == set(range(1, 8))
    expected = sum(patterns.values()) / 7
    assert all(abs(count - expected) < 0.1 * expected for count in patterns.values())


def test_planted_generation_is_deterministic_per_generator():
    level = Level(3, 7, 40)
    first = planted_batch(rng("same"), level, 5)
    assert first == planted_batch(rng("same"), level, 5)
    assert first != planted_batch(rng("other"), level, 5)


def test_infeasible_planted_level_is_refused():
    with pytest.raises(ValueError, match="distinct clauses"):
        planted_instance(rng(), Level(3, 4, 29))  # only C(4,3)·7 = 28 exist


def test_random_formulas_are_uniform_distinct_clauses():
    level = Level(3, 10, 43)
    formula = random_formula(rng("uniform"), level)
    assert_well_formed(formula, level)
    signs = [
        x > 0 for _ in range(30) for c in random_formula(rng("u", _), level).clauses for x in c
    ]
    assert abs(np.mean(signs) - 0.5) < 0.05


def test_random_satisfiable_returns_a_model_the_formula_accepts():
    formula, model = random_satisfiable(rng("sat"), Level(3, 10, 43))
    assert formula.satisfies(model) and solver.is_satisfiable(formula)


def test_random_satisfiable_gives_up_with_a_clear_error():
    with pytest.raises(GenerationError, match="clause/variable ratio"):
        random_satisfiable(rng("over"), Level(2, 3, 9), max_tries=5)  # all 12 2-clauses: UNSAT


@pytest.mark.parametrize("max_tries", [200, 0])
def test_unsatisfiable_instances_have_no_solution(max_tries):
    level = Level(3, 6, 30)
    formula, method = random_unsatisfiable(rng("unsat", max_tries), level, max_tries=max_tries)
    assert method == ("repaired" if max_tries == 0 else "uniform")
    assert_well_formed(formula, level)
    assert solver.count_solutions(formula, 10) == 0 and solver.solve(formula) is None


def test_unsat_is_refused_where_impossible():
    with pytest.raises(ValueError, match="always satisfiable"):
        random_unsatisfiable(rng(), Level(3, 5, 7))


def test_unique_solution_instances_have_exactly_one():
    settings = GenerationSettings(unique_solution=True)
    for index in range(5):
        instance = generate_instance(rng("unique", index), Level(3, 6, 30), settings)
        assert instance.num_solutions == 1
        assert solver.count_solutions(instance.formula, 5) == 1
        assert instance.formula.satisfies(instance.planted or "")


def test_unique_solution_gives_up_where_impossible():
    with pytest.raises(GenerationError, match="unique solution"):
        generate_instance(rng(), Level(3, 5, 3), GenerationSettings(unique_solution=True))


def test_decide_instances_are_balanced_and_labelled_right():
    settings = GenerationSettings(generator="random", task="decide")
    instances = [generate_instance(rng("decide", i), Level(3, 8, 34), settings) for i in range(40)]
    labels = [i.satisfiable for i in instances]
    assert 10 < sum(labels) < 30
    for instance in instances:
        assert solver.is_satisfiable(instance.formula) == instance.satisfiable
        assert (instance.num_solutions > 0) == instance.satisfiable


def test_settings_refuse_inconsistent_requests():
    with pytest.raises(ValueError, match="give the answer away"):
        GenerationSettings(generator="planted", task="decide")
    with pytest.raises(ValueError, match="applies to task='solve' only"):
        GenerationSettings(generator="random", task="decide", unique_solution=True)
    with pytest.raises(ValueError):
        GenerationSettings(solution_cap=1)


def test_metadata_reports_capped_counts_and_difficulty():
    instance = generate_instance(rng("meta"), Level(3, 5, 5), GenerationSettings(solution_cap=4))
    meta = instance.metadata()
    assert meta["num_solutions"] == 4 and meta["num_solutions_capped"] is True
    assert meta["difficulty"] == pytest.approx(Level(3, 5, 5).difficulty)
    assert meta["level"] == "n3-k5-l5" and meta["satisfiable"] is True


@pytest.mark.parametrize("num_vars", [10, 12, 13, 14])
def test_solver_counts_agree_with_enumeration(num_vars):
    # Around BRUTE_FORCE_MAX_VARS one side is counted by enumeration, the other by the solver.
    level = Level(3, num_vars, round(3.5 * num_vars))
    formula, _ = random_satisfiable(rng("count", num_vars), level)
    exact = solver._count_by_enumeration(formula)
    blocking = 0
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        for _ in sat.enum_models():
            blocking += 1
    assert exact == blocking
    assert solver.count_solutions(formula, 10**6) == exact
    assert solver.count_solutions(formula, 3) == min(exact, 3)


@pytest.mark.parametrize(
    "level",
    [Level(3, 5, 20), Level(3, 4, 26), Level(2, 3, 9), Level(3, 30, 40), Level(12, 40, 10)],
    ids=lambda level: level.name,
)
def test_one_instance_is_the_batch_of_one_to_the_bit(level):
    """An env's reset (planted_instance) draws exactly what planted_batch(..., 1) draws."""
    for seed in range(60):
        one, batch = np.random.default_rng(seed), np.random.default_rng(seed)
        assert planted_instance(one, level) == planted_batch(batch, level, 1)[0]
        assert one.bit_generator.state == batch.bit_generator.state
