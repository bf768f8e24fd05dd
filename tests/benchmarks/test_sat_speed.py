"""SAT instances generated and verified per second: envsuite against SATURN's pipeline.

Each benchmark builds ``COUNT`` distinct planted instances at SATURN's first test level
(n=3 literals per clause, k=5 variables, l=20 clauses) with their SATURN prompts, and
verifies that every planted solution satisfies its formula:

- ``saturn_reference``: a plain-Python reimplementation of SATURN's own pipeline
  (``src/Build_SAT_Datasets``): ``single_clause.py`` builds the pool of distinct
  (solution, clause) pairs, ``combine.py`` groups it by solution and samples ``l`` clauses
  per instance, ``train_prompt.py`` writes the prompt, and the reward function's
  ``calc_sat_value`` checks the planted solution. A local ``random.Random`` replaces the
  global generator SATURN uses (same speed, no global state).
- ``envsuite``: :func:`envsuite.families.sat.dataset_builder.distinct_planted` (numpy,
  vectorised generation and verification) and ``render_prompt``.
- ``envsuite_with_counts``: the same plus an exact count of each instance's solutions.

``pytest tests/benchmarks/test_sat_speed.py --benchmark-enable`` prints the group's table;
instances per second is COUNT / mean time, and the ratio of the rows is envsuite's speed-up.
The repo's pytest config passes ``--benchmark-disable``, so in CI each benchmark runs once
as a plain test of its output. Nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from math import comb
from typing import Any

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.families.sat.dataset_builder import distinct_planted
from envsuite.families.sat.formats import SATURN_SOLVE_HEADER, render_prompt
from envsuite.families.sat.levels import Level
from envsuite.families.sat.problem_parsing import parse_saturn_clauses

LEVEL = Level(3, 5, 20)
COUNT = 1_000
SEED = 2025


def _saturn_pool(rng: random.Random, n_sat: int, k: int) -> list[tuple[str, str]]:
    """SATURN's single_clause.py: distinct (solution, clause) pairs, up to 10000."""
    variables = [chr(ord("A") + i) for i in range(k)]
    n_sample = min(10000, comb(k, n_sat) * (2**k) * ((2**n_sat) - 1))
    samples: dict[tuple[str, str], None] = {}
    while len(samples) < n_sample:
        comb_vars = sorted(rng.sample(variables, n_sat))
        sol_bits = [rng.choice([0, 1]) for _ in range(n_sat)]
        sol_dict = dict(zip(comb_vars, sol_bits, strict=True))
        pattern = rng.randrange(1, 2**n_sat)
        literals = []
        for i, var in enumerate(comb_vars):
            agrees = (pattern >> i) & 1
            positive = sol_bits[i] == 1 if agrees else sol_bits[i] == 0
            literals.append(var if positive else f"!{var}")
        full = "".join(
            str(sol_dict[v]) if v in sol_dict else rng.choice(["0", "1"]) for v in variables
        )
        samples.setdefault((full, "".join(literals)), None)
    return list(samples)


def _saturn_combine(
    rng: random.Random, pool: list[tuple[str, str]], length: int, n_sample: int
) -> list[tuple[str, str]]:
    """SATURN's combine.py: group by solution, sample ``length`` clauses per instance."""
    groups: dict[str, list[str]] = {}
    for solution, clause in pool:
        groups.setdefault(solution, []).append(clause)
    valid = [(s, c) for s, c in groups.items() if len(c) >= length]
    unique: dict[tuple[str, str], None] = {}
    attempts = 0
    while len(unique) < n_sample and attempts < n_sample * 10:
        attempts += 1
        solution, clauses = rng.choice(valid)
        unique.setdefault((solution, " & ".join(sorted(rng.sample(clauses, length)))), None)
    return rng.sample(list(unique), n_sample)


def _calc_sat_value(clause: str, solution: str) -> int:
    """SATURN's reward rule (calc_sat_value), verbatim in behaviour."""
    for subclause in clause.split(" & "):
        satisfied = False
        i = 0
        while i < len(subclause):
            negated = subclause[i] == "!"
            var = subclause[i + 1] if negated else subclause[i]
            i += 2 if negated else 1
            idx = ord(var) - ord("A")
            val = solution[idx] if idx < len(solution) else "0"
            if (negated and val == "0") or (not negated and val == "1"):
                satisfied = True
                break
        if not satisfied:
            return 0
    return 1


def saturn_reference(seed: int, count: int) -> list[dict[str, Any]]:
    """SATURN's pipeline end to end: pool, combine, prompt, verify."""
    rng = random.Random(seed)
    n, k, length = LEVEL.clause_width, LEVEL.num_vars, LEVEL.num_clauses
    rows = []
    for ident, (solution, clause) in enumerate(
        _saturn_combine(rng, _saturn_pool(rng, n, k), length, count)
    ):
        if not _calc_sat_value(clause, solution):
            raise AssertionError("SATURN's pipeline produced an unsatisfied planted solution")
        question = json.dumps({"n_sat": n, "k": k, "clause": clause})
        rows.append(
            {
                "id": ident,
                "solution": solution,
                "clause": clause,
                "prompt": SATURN_SOLVE_HEADER + question + "\n",
            }
        )
    return rows


def envsuite_pipeline(seed: int, count: int, *, count_solutions: bool) -> list[dict[str, Any]]:
    """envsuite's generator: distinct planted instances (verified as drawn) and prompts."""
    rows = []
    for ident, instance in enumerate(
        distinct_planted(seed, "benchmark", LEVEL, count, count_solutions=count_solutions)
    ):
        prompt = render_prompt(instance.formula, instance.clause_width, "saturn", "solve")
        rows.append(
            {
                "id": ident,
                "solution": instance.planted,
                "prompt": prompt,
                "num_solutions": instance.num_solutions,
            }
        )
    return rows


def _check(rows: list[dict[str, Any]]) -> None:
    """Outside the timing: COUNT distinct instances, every planted solution satisfies."""
    assert len(rows) == COUNT
    problems = set()
    for row in rows:
        problem = json.loads(row["prompt"].rsplit("\n", 2)[-2])
        assert (problem["n_sat"], problem["k"]) == (LEVEL.clause_width, LEVEL.num_vars)
        formula = parse_saturn_clauses(problem["clause"], problem["k"])
        assert formula.num_clauses == LEVEL.num_clauses
        assert formula.satisfies(row["solution"])
        problems.add((row["solution"], problem["clause"]))
    assert len(problems) == COUNT


CASES: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "saturn_reference": lambda: saturn_reference(SEED, COUNT),
    "envsuite": lambda: envsuite_pipeline(SEED, COUNT, count_solutions=False),
    "envsuite_with_counts": lambda: envsuite_pipeline(SEED, COUNT, count_solutions=True),
}


@pytest.mark.benchmark(group="sat-generate-verify-n3-k5-l20")
@pytest.mark.parametrize("name", list(CASES))
def test_generate_and_verify(benchmark: Any, name: str) -> None:
    rows = benchmark(CASES[name])
    _check(rows)
    if name == "envsuite_with_counts":
        assert all(1 <= row["num_solutions"] <= 32 for row in rows)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["instances_per_s"] = COUNT / stats.stats.mean
