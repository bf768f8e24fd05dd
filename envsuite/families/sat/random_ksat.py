"""Uniform random k-SAT, filtered by a real solver: satisfiable or unsatisfiable on request.

A uniform random formula at a level has ``num_clauses`` distinct clauses, each over
``clause_width`` distinct variables with independent random signs. Unlike planted formulas
it carries no hidden answer, so satisfiability is decided by python-sat's solver; near the
clause/variable ratio where random k-SAT turns from mostly satisfiable to mostly not
(about 4.26 for 3-SAT) such formulas are the classic hard instances.
"""

from __future__ import annotations

import numpy as np

from envsuite.families.sat import solver
from envsuite.families.sat.clause_sampling import draw_variable_sets, first_distinct
from envsuite.families.sat.cnf import Formula, canonical_clauses
from envsuite.families.sat.levels import Level, max_distinct_clauses

#: Uniform draws tried before giving up on (or, for UNSAT, repairing towards) a label.
MAX_TRIES = 200
#: Clause replacements the UNSAT repair makes before it starts over.
MAX_REPAIRS_PER_CLAUSE = 20


class GenerationError(RuntimeError):
    """No instance of the requested kind was found within the generator's budget."""


def check_random_level(level: Level) -> None:
    """Raise ValueError if ``level`` asks for more distinct clauses than exist."""
    most = max_distinct_clauses(level.clause_width, level.num_vars, satisfied_by_one=False)
    if level.num_clauses > most:
        raise ValueError(
            f"{level.name}: only {most} distinct clauses of width {level.clause_width} exist "
            f"over {level.num_vars} variables, fewer than the {level.num_clauses} asked for"
        )


def check_unsat_possible(level: Level) -> None:
    """Raise ValueError if no formula at ``level`` can be unsatisfiable.

    Each clause of width n rules out 2^(k−n) of the 2^k assignments, so fewer than 2^n
    clauses always leave one standing.
    """
    if level.num_clauses < 2**level.clause_width:
        raise ValueError(
            f"{level.name}: fewer than 2^{level.clause_width} = {2**level.clause_width} clauses "
            "of that width are always satisfiable; an unsatisfiable instance needs more"
        )


def random_formula(rng: np.random.Generator, level: Level) -> Formula:
    """A uniform random formula: distinct clauses, distinct variables, random signs."""
    check_random_level(level)
    width, count = level.clause_width, level.num_clauses
    kept = np.zeros((0, width), dtype=np.int64)
    while len(kept) < count:
        block = count + count // 2 + 8
        variables = draw_variable_sets(rng, (block,), width, level.num_vars)
        negated = rng.integers(0, 2, size=(block, width), dtype=np.int64).astype(bool)
        literals = np.where(negated, -(variables + 1), variables + 1)
        kept = first_distinct(np.concatenate([kept, literals]), level.num_vars, count)
    clauses = canonical_clauses([tuple(c) for c in kept.tolist()], level.num_vars)
    return Formula(level.num_vars, clauses)


def random_satisfiable(
    rng: np.random.Generator, level: Level, max_tries: int = MAX_TRIES
) -> tuple[Formula, str]:
    """A uniform random formula that the solver satisfies, and the model it found.

    Raises:
        GenerationError: ``max_tries`` draws were all unsatisfiable (the level has too many
            clauses for its variables; lower ``num_clauses`` or the clause ratio).
    """
    for _ in range(max_tries):
        formula = random_formula(rng, level)
        model = solver.solve(formula)
        if model is not None:
            return formula, model
    raise GenerationError(
        f"{level.name}: {max_tries} uniform random formulas were all unsatisfiable; "
        f"lower the clause/variable ratio (now {level.num_clauses / level.num_vars:.2f})"
    )


def random_unsatisfiable(
    rng: np.random.Generator, level: Level, max_tries: int = MAX_TRIES
) -> tuple[Formula, str]:
    """An unsatisfiable formula at ``level``, and how it was made (``uniform`` or ``repaired``).

    Uniform random formulas are drawn until the solver refutes one. Where those are rare
    (``max_tries`` draws, all satisfiable), random formulas are repaired instead: while the
    solver finds a model, a random clause is replaced by a random new clause that the model
    falsifies. Repaired formulas are unsatisfiable but not uniform, hence the method is
    returned (the envs put it in the instance metadata).

    Raises:
        ValueError: no formula at ``level`` can be unsatisfiable.
        GenerationError: the repair did not converge (should not happen for feasible levels).
    """
    check_unsat_possible(level)
    check_random_level(level)
    for _ in range(max_tries):
        formula = random_formula(rng, level)
        if not solver.is_satisfiable(formula):
            return formula, "uniform"
    for _ in range(MAX_TRIES):
        repaired = _repair_to_unsat(rng, random_formula(rng, level), level)
        if repaired is not None:
            return repaired, "repaired"
    raise GenerationError(f"{level.name}: could not build an unsatisfiable formula")


def _repair_to_unsat(rng: np.random.Generator, formula: Formula, level: Level) -> Formula | None:
    clauses = list(formula.clauses)
    present = set(clauses)
    for _ in range(MAX_REPAIRS_PER_CLAUSE * level.num_clauses):
        model = solver.solve(Formula(level.num_vars, tuple(clauses)))
        if model is None:
            return Formula(level.num_vars, canonical_clauses(clauses, level.num_vars))
        variables = draw_variable_sets(rng, (1,), level.clause_width, level.num_vars)[0]
        # Each literal is false under the model: positive where the model says 0.
        new = tuple(int(v + 1) if model[v] == "0" else -int(v + 1) for v in variables)
        if new in present:
            continue
        index = int(rng.integers(len(clauses)))
        present.discard(clauses[index])
        clauses[index] = new
        present.add(new)
    return None
