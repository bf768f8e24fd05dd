"""The fast paths of SAT-v0's reset make exactly what the general (numpy) paths make.

SAT-v0's instances are frozen by the published ``sat-curriculum`` leaderboard (submissions
are verified by replaying the env with their seeds), so every shortcut is checked here
against the code it stands in for, over many seeds and levels.
"""

from __future__ import annotations

import itertools
import json
import os
import pickle

import numpy as np
import pytest
from gymnasium.utils.seeding import np_random

import envsuite

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.families.sat import planted_ksat, solver
from envsuite.families.sat.cnf import Formula
from envsuite.families.sat.formats import render_prompt, saturn_problem_line
from envsuite.families.sat.instances import Instance
from envsuite.families.sat.levels import Level, max_distinct_clauses
from envsuite.families.sat.planted_ksat import planted_batch, planted_instance
from envsuite.families.sat.random_ksat import random_formula

LEVELS = [
    Level(3, 5, 20),  # SATURN's first level: the codes in numpy
    Level(3, 4, 28),  # every distinct clause but none: many top-up draws
    Level(1, 1, 1),
    Level(1, 3, 3),
    Level(2, 3, 9),
    Level(4, 8, 40),
    Level(6, 7, 40),
    Level(3, 30, 40),  # codes past int64: Python ints
    Level(12, 40, 10),  # canonical_clauses' keys
    Level(33, 40, 5),
    Level(5, 62, 30),  # the table's largest level
    Level(3, 63, 50),  # past the table: the literal path
    Level(3, 120, 300),  # past ARGSORT_MAX_VARS: rejection-drawn variable sets
]


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_planted_instance_is_the_batch_of_one_for_every_seed(level):
    seeds = range(12) if level.num_vars > 64 else range(150)
    for seed in seeds:
        one, batch = np.random.default_rng(seed), np.random.default_rng(seed)
        # Half the generators start with a 32-bit half kept from an earlier draw.
        one.integers(0, 2, size=seed % 3)
        batch.integers(0, 2, size=seed % 3)
        for _ in range(2):  # a fresh and a running generator
            assert planted_instance(one, level) == planted_batch(batch, level, 1)[0]
            assert one.bit_generator.state == batch.bit_generator.state


def test_planted_instance_is_unchanged_when_the_clause_table_is_emptied(monkeypatch):
    level = Level(3, 9, 30)
    monkeypatch.setattr(planted_ksat, "TABLE_MAX_ENTRIES", 10)
    for seed in range(40):
        one, batch = np.random.default_rng(seed), np.random.default_rng(seed)
        assert planted_instance(one, level) == planted_batch(batch, level, 1)[0]


def _count_naively(formula: Formula) -> int:
    return sum(
        formula.satisfies("".join(bits))
        for bits in itertools.product("01", repeat=formula.num_vars)
    )


@pytest.mark.parametrize("num_vars", [1, 2, 3, 5, 8, 12])
def test_bit_parallel_count_matches_evaluating_every_assignment(num_vars):
    rng = np.random.default_rng(num_vars)
    width = min(3, num_vars)
    most = max_distinct_clauses(width, num_vars, satisfied_by_one=False)
    for clauses in sorted({min(most, c) for c in (1, num_vars, 3 * num_vars, 6 * num_vars)}):
        formula = random_formula(rng, Level(width, num_vars, clauses))
        assert solver._count_by_enumeration(formula) == _count_naively(formula)
    mixed = Formula(num_vars, ((1,), (-num_vars, 1)) if num_vars > 1 else ((1,),))
    assert solver._count_by_enumeration(mixed) == _count_naively(mixed)


@pytest.mark.parametrize("num_vars", [5, 26, 27, 40])
def test_saturn_problem_line_is_json_dumps_to_the_byte(num_vars):
    formula, _ = planted_instance(np.random.default_rng(num_vars), Level(3, num_vars, 12))
    line = saturn_problem_line(formula, 3)
    problem = json.loads(line)
    assert line == json.dumps(problem)
    assert (problem["n_sat"], problem["k"]) == (3, num_vars)


def test_trusted_formula_equals_the_checked_one():
    clauses = ((1, -2, 3), (-1, 2, 4))
    assert Formula.trusted(4, clauses) == Formula(4, clauses)
    assert hash(Formula.trusted(4, clauses)) == hash(Formula(4, clauses))


def test_trusted_instance_equals_the_dataclass_one():
    formula = Formula(4, ((1, -2, 3), (-1, 2, 4)))
    fields = (formula, 3, True, 5, 100, "0110", "planted")
    trusted, made = Instance.trusted(*fields), Instance(*fields)
    assert trusted == made
    assert hash(trusted) == hash(made)
    assert repr(trusted) == repr(made)
    assert list(vars(trusted).items()) == list(vars(made).items())  # same fields, same order
    assert pickle.loads(pickle.dumps(trusted)) == made
    assert pickle.dumps(trusted) == pickle.dumps(made)
    # trusted() skips __init__: a __post_init__ or __slots__ added later would be skipped too.
    assert not hasattr(Instance, "__post_init__") and not hasattr(Instance, "__slots__")


@pytest.mark.parametrize(
    "level", [Level(3, 5, 20), Level(2, 3, 9), Level(4, 8, 40)], ids=lambda level: level.name
)
def test_seeded_reset_poses_gymnasiums_generator_drawing_the_batch_of_one(level):
    """SAT-v0's reset, checked against its parts: gymnasium's seeding, the batch generator,
    the solution count and the prompt; the env's generator ends exactly as the batch's."""
    env = envsuite.make("envsuite/SAT-v0", **level.as_kwargs())
    unwrapped = env.unwrapped
    for seed in range(120):
        expected, _ = np_random(seed)
        for reset_seed in (seed, seed, None):  # a seeded reset, again, then the generator runs on
            if reset_seed is not None:
                expected, _ = np_random(reset_seed)
            observation, info = env.reset(seed=reset_seed)
            formula, planted = planted_batch(expected, level, 1)[0]
            assert observation == render_prompt(formula, level.clause_width, "saturn", "solve")
            assert unwrapped.instance == Instance(
                formula, level.clause_width, True, min(_count_naively(formula), 100), 100, planted
            )
            assert info["num_solutions"] == min(_count_naively(formula), 100)
            assert info["level"] == level.name
            generator = unwrapped.np_random
            assert generator.bit_generator.state == expected.bit_generator.state
            assert unwrapped.np_random_seed == seed
            assert generator.bit_generator.seed_seq.entropy == seed
            assert generator.bit_generator.seed_seq.n_children_spawned == 0
