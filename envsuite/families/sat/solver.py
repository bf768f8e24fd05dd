"""A real SAT solver (python-sat) for checking, solving and counting, plus exact small counts.

python-sat is the ``sat`` extra; it is imported through :func:`import_optional`, so a
missing install names the extra. Solvers are created per call and deleted at once, so envs
hold no solver handles (they stay picklable).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from envsuite.families.sat.cnf import Formula
from envsuite.registry import import_optional

#: python-sat back ends: MiniSat 2.2 starts fastest, which wins on small formulas; CaDiCaL
#: is about ten times faster on hard ones (random 3-SAT near the threshold, 400+ variables).
SMALL_SOLVER = "minisat22"
LARGE_SOLVER = "cadical195"
#: Formulas with more variables than this go to :data:`LARGE_SOLVER`.
SMALL_FORMULA_VARS = 64
#: Up to this many variables, solutions are counted exactly by evaluating every assignment.
BRUTE_FORCE_MAX_VARS = 12


#: python-sat's solvers, imported when the family's envs load, so that a missing install is
#: reported (naming the ``sat`` extra) when an env is made, not at its first reset.
_SOLVERS: Any = import_optional("pysat.solvers", extra="sat", env_id="The SAT family")


def _solver(formula: Formula) -> Any:
    """A python-sat solver loaded with ``formula`` (use it as a context manager)."""
    solvers = _SOLVERS
    name = SMALL_SOLVER if formula.num_vars <= SMALL_FORMULA_VARS else LARGE_SOLVER
    if not hasattr(solvers.SolverNames, name):
        name = "cadical153"  # python-sat releases before CaDiCaL 1.9.5 was bundled
    return solvers.Solver(name=name, bootstrap_with=formula.clauses)


def solve(formula: Formula) -> str | None:
    """A satisfying assignment as a 0/1 string (variable 1 first), or None if unsatisfiable."""
    with _solver(formula) as solver:
        if not solver.solve():
            return None
        model = solver.get_model() or []
    values = {abs(x): x > 0 for x in model}
    # Variables in no clause are free; the solver may leave them out of the model.
    return "".join("1" if values.get(v, False) else "0" for v in range(1, formula.num_vars + 1))


def is_satisfiable(formula: Formula) -> bool:
    """Whether some assignment satisfies every clause."""
    with _solver(formula) as solver:
        return bool(solver.solve())


@cache
def _literal_masks(num_vars: int) -> dict[int, int]:
    """Each literal's truth table over all 2^num_vars assignments, as the bits of an int.

    Bit ``a`` of variable ``v``'s mask is bit ``v − 1`` of ``a``: assignment ``a`` sets it.
    """
    size = 1 << num_vars
    everything = (1 << size) - 1
    masks: dict[int, int] = {}
    for v in range(1, num_vars + 1):
        half = 1 << (v - 1)  # runs of `half` assignments alternate false, true
        period = (1 << (2 * half)) - 1
        true = everything // period * (period ^ ((1 << half) - 1))
        masks[v], masks[-v] = true, everything ^ true
    return masks


#: Clause truth tables :func:`_count_by_enumeration` keeps per variable count before it
#: empties its cache (each at most 2^BRUTE_FORCE_MAX_VARS bits).
CLAUSE_TRUTHS_MAX = 1 << 13


@cache
def _clause_truths(num_vars: int) -> dict[tuple[int, ...], int]:
    """Truth tables (as in :func:`_literal_masks`) of the clauses met so far, by clause."""
    return {}


def _clause_truth(clause: tuple[int, ...], num_vars: int) -> int:
    """A clause's truth table over all 2^num_vars assignments: its literals' masks or-ed."""
    masks = _literal_masks(num_vars)
    holds = 0
    for literal in clause:
        holds |= masks[literal]
    return holds


def _count_by_enumeration(formula: Formula) -> int:
    """Exact count over all 2^num_vars assignments, all at once as the bits of Python ints.

    Each clause's truth table is cached (a formula at a level reuses a few hundred distinct
    clauses), so a count is one dict lookup and one ``&`` per clause.
    """
    num_vars = formula.num_vars
    truths = _clause_truths(num_vars)
    if len(truths) > CLAUSE_TRUTHS_MAX:
        truths.clear()
    get = truths.get
    alive = (1 << (1 << num_vars)) - 1
    for clause in formula.clauses:
        # A clause's table is never 0 (some assignment satisfies any non-empty clause).
        alive &= get(clause) or truths.setdefault(clause, _clause_truth(clause, num_vars))
    return alive.bit_count()


def count_solutions(formula: Formula, cap: int) -> int:
    """The number of satisfying assignments, counted up to ``cap`` (min(count, cap)).

    Small formulas (at most :data:`BRUTE_FORCE_MAX_VARS` variables) are counted exactly by
    evaluating every assignment; larger ones by enumerating models with the solver, each
    found model blocked by a clause over all variables, until ``cap`` models are found.
    """
    if cap < 1:
        raise ValueError(f"cap must be at least 1, got {cap}")
    if formula.num_vars <= BRUTE_FORCE_MAX_VARS:
        return min(_count_by_enumeration(formula), cap)
    count = 0
    with _solver(formula) as solver:
        while count < cap and solver.solve():
            count += 1
            model = {abs(x): x for x in solver.get_model() or []}
            full = [model.get(v, -v) for v in range(1, formula.num_vars + 1)]
            solver.add_clause([-x for x in full])
    return count
