"""SAT instances one at a time (SAT-v0's reset) against SATURN's own pipeline.

``saturn_reference`` is a plain-Python reimplementation of SATURN's dataset scripts
(``src/Build_SAT_Datasets``): ``single_clause.py`` builds the pool of distinct (solution,
clause) pairs, ``combine.py`` groups it by solution and samples ``l`` clauses per instance,
``train_prompt.py`` writes the prompt and the reward's ``calc_sat_value`` checks the planted
solution. A local ``random.Random`` replaces the global generator SATURN uses (same speed,
no global state). envsuite's side: ``SAT-v0`` resets at the same level (each drawing,
verifying, counting the solutions of and rendering one instance), and the batch path
(:func:`~envsuite.families.sat.dataset_builder.distinct_planted` and ``render_prompt``).
"""

from __future__ import annotations

import json
import random
from math import comb
from typing import Any

import envsuite
from envsuite.families.sat.dataset_builder import distinct_planted
from envsuite.families.sat.formats import SATURN_SOLVE_HEADER, render_prompt
from envsuite.families.sat.levels import Level

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


def calc_sat_value(clause: str, solution: str) -> int:
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
        if not calc_sat_value(clause, solution):
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
    """The batch generator of envsuite: distinct planted instances (verified as drawn), prompts."""
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


def make_sat() -> Any:
    """SAT-v0 at :data:`LEVEL` in SATURN's prompt format."""
    return envsuite.make(
        "envsuite/SAT-v0",
        clause_width=LEVEL.clause_width,
        num_vars=LEVEL.num_vars,
        num_clauses=LEVEL.num_clauses,
    )


def reset_loop(env: Any, count: int) -> list[str]:
    """``count`` resets (seeds 0..count-1): one instance each, drawn, counted, rendered."""
    return [env.reset(seed=seed)[0] for seed in range(count)]
