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

Group ``sat-reset-n3-k5-l20``: ``COUNT`` resets of SAT-v0 at the same level, one instance
at a time (each drawn, verified, its solutions counted, its prompt rendered), against
``saturn_reference``. The loops are :mod:`envsuite.bench.sat`'s, which ``envsuite bench
--rows sat-reset`` times too.

``pytest tests/benchmarks/test_sat_speed.py --benchmark-enable`` prints the group's table;
instances per second is COUNT / mean time, and the ratio of the rows is envsuite's speed-up.
The repo's pytest config passes ``--benchmark-disable``, so in CI each benchmark runs once
as a plain test of its output. Nothing here asserts a time.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

if os.environ.get("ENVSUITE_REQUIRE_ALL_EXTRAS") != "1":
    pytest.importorskip("pysat")  # the sat extra; CI installs it and wants failures, not skips

from envsuite.bench.sat import (
    COUNT,
    LEVEL,
    SEED,
    envsuite_pipeline,
    make_sat,
    reset_loop,
    saturn_reference,
)
from envsuite.families.sat.problem_parsing import parse_saturn_clauses


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


@pytest.fixture(scope="module")
def sat_env() -> Any:
    return make_sat()


@pytest.mark.benchmark(group="sat-reset-n3-k5-l20")
def test_reset_one_instance_at_a_time(benchmark: Any, sat_env: Any) -> None:
    prompts = benchmark(reset_loop, sat_env, COUNT)
    assert len(set(prompts)) > 0.95 * COUNT  # distinct seeds, (almost always) distinct instances
    for prompt in prompts[:50]:
        problem = json.loads(prompt.rsplit("\n", 2)[-2])
        formula = parse_saturn_clauses(problem["clause"], problem["k"])
        assert (formula.num_vars, formula.num_clauses) == (LEVEL.num_vars, LEVEL.num_clauses)


@pytest.mark.benchmark(group="sat-reset-n3-k5-l20")
def test_reset_saturn_reference(benchmark: Any) -> None:
    _check(benchmark(saturn_reference, SEED, COUNT))
