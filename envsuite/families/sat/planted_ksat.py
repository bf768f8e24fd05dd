"""Planted k-SAT, as SATURN builds it: a hidden assignment and clauses it satisfies.

SATURN (``src/Build_SAT_Datasets``) draws a random full assignment, then clauses of n
distinct variables (written in variable order) whose signs are random except that the
all-false pattern under the assignment is excluded, and combines ``l`` distinct such clauses
(sorted by their text) into one instance. Every instance is therefore satisfiable, and the
planted assignment is one answer among possibly many. This module draws from the same
distribution, vectorised over a batch, from a :class:`numpy.random.Generator`.
"""

from __future__ import annotations

import functools

import numpy as np

from envsuite.families.sat.clause_sampling import (
    IntArray,
    draw_variable_sets,
    first_distinct,
    first_distinct_rows,
)
from envsuite.families.sat.cnf import LETTER_NAMES, Formula, canonical_clauses
from envsuite.families.sat.levels import Level, max_distinct_clauses

PlantedInstance = tuple[Formula, str]


def check_planted_level(level: Level) -> None:
    """Raise ValueError if ``level`` asks for more distinct clauses than one assignment allows."""
    most = max_distinct_clauses(level.clause_width, level.num_vars, satisfied_by_one=True)
    if level.num_clauses > most:
        raise ValueError(
            f"{level.name}: an assignment of {level.num_vars} variables satisfies only {most} "
            f"distinct clauses of width {level.clause_width}, fewer than the "
            f"{level.num_clauses} asked for"
        )


def _planted_literals(
    rng: np.random.Generator, solutions: IntArray, count: int, level: Level
) -> IntArray:
    """``count`` candidate clauses per solution row, each satisfied by its row.

    Returns:
        ``(rows, count, clause_width)`` DIMACS literals, in variable order.
    """
    rows, width = solutions.shape[0], level.clause_width
    variables = draw_variable_sets(rng, (rows, count), width, level.num_vars)
    # Bit i of the pattern says whether literal i agrees with the assignment; pattern 0
    # (every literal false) is the one SATURN leaves out.
    pattern = rng.integers(1, 2**width, size=(rows, count), dtype=np.int64)
    agrees = (pattern[..., None] >> np.arange(width, dtype=np.int64)) & 1
    values = np.take_along_axis(solutions[:, None, :], variables, axis=2)
    positive = agrees == values
    literals: IntArray = np.where(positive, variables + 1, -(variables + 1))
    return literals


def planted_batch(rng: np.random.Generator, level: Level, count: int) -> list[PlantedInstance]:
    """Draw ``count`` planted instances at ``level``, each verified against its assignment.

    Args:
        rng: The generator every draw comes from.
        level: Clause width, variables and clauses.
        count: Number of instances.

    Returns:
        ``(formula, planted)`` pairs: the formula in SATURN's canonical clause order and the
        planted assignment as a 0/1 string (variable 1 first).

    Raises:
        ValueError: the level asks for more distinct clauses than exist.
    """
    check_planted_level(level)
    solutions = rng.integers(0, 2, size=(count, level.num_vars), dtype=np.int64)
    extra = level.num_clauses // 2 + 8
    literals = _planted_literals(rng, solutions, level.num_clauses + extra, level)
    _verify(literals, solutions)
    kept_rows = first_distinct_rows(literals, level.num_vars, level.num_clauses)
    for row, kept in enumerate(kept_rows):
        while len(kept) < level.num_clauses:
            more = _planted_literals(rng, solutions[row : row + 1], 2 * level.num_clauses, level)
            _verify(more, solutions[row : row + 1])
            kept = first_distinct(
                np.concatenate([kept, more[0]]), level.num_vars, level.num_clauses
            )
        kept_rows[row] = kept
    ordered = canonical_order(np.stack(kept_rows), level.num_vars).tolist()
    codes = (solutions + ord("0")).astype(np.uint8)
    return [
        (
            Formula(level.num_vars, tuple(map(tuple, clauses))),
            codes[row].tobytes().decode("ascii"),
        )
        for row, clauses in enumerate(ordered)
    ]


def canonical_order(literals: IntArray, num_vars: int) -> IntArray:
    """Each row's clauses in :func:`~envsuite.families.sat.cnf.canonical_clauses` order.

    SATURN sorts clause *texts*. Two clause texts first differ at the first differing
    literal, and there ``!X`` sorts before every unnegated name (``!`` precedes letters),
    negated literals by variable, then unnegated ones by variable. So with each literal
    coded as (unnegated, variable) and a clause as the number whose digits are its codes,
    sorting the numbers sorts the texts, in numpy. With more than 26 variables the order
    is (variable, negated first) per literal, coded the same way.

    Args:
        literals: ``(rows, clauses, width)`` DIMACS literals, each clause in variable order.
        num_vars: Number of variables.
    """
    width = literals.shape[2]
    base = 2 * num_vars
    if width * np.log2(base) >= 62:
        return np.stack(
            [np.array(canonical_clauses(list(map(tuple, r.tolist())), num_vars)) for r in literals]
        )
    variable, unnegated = np.abs(literals) - 1, (literals > 0).astype(np.int64)
    if num_vars <= LETTER_NAMES:
        codes = unnegated * num_vars + variable
    else:
        codes = variable * 2 + unnegated
    powers = base ** np.arange(width - 1, -1, -1, dtype=np.int64)
    order = np.argsort((codes * powers).sum(axis=2), axis=1, kind="stable")
    ordered: IntArray = np.take_along_axis(literals, order[:, :, None], axis=1)
    return ordered


def planted_instance(rng: np.random.Generator, level: Level) -> PlantedInstance:
    """One planted instance: ``planted_batch(rng, level, 1)[0]``, at a fraction of its cost.

    An env's reset draws one instance at a time, where the batch's numpy bookkeeping
    (deduplication, ordering) costs more than the draw. This makes the same draws from
    ``rng`` in the same order and does the bookkeeping on the few clauses in Python, so
    the instance (and the generator's state after it) is the batch's to the bit.
    """
    check_planted_level(level)
    wanted, num_vars = level.num_clauses, level.num_vars
    solutions = rng.integers(0, 2, size=(1, num_vars), dtype=np.int64)
    literals = _planted_literals(rng, solutions, wanted + wanted // 2 + 8, level)
    _verify(literals, solutions)
    kept = _first_distinct_clauses(literals[0].tolist(), wanted)
    while len(kept) < wanted:
        more = _planted_literals(rng, solutions, 2 * wanted, level)
        _verify(more, solutions)
        kept = _first_distinct_clauses(kept + more[0].tolist(), wanted)
    clauses = [tuple(clause) for clause in kept]
    if level.clause_width * np.log2(2 * num_vars) >= 62:
        ordered = canonical_clauses(clauses, num_vars)
    else:  # by the literal codes canonical_order sorts by, compared as tuples
        code = _literal_codes(num_vars).__getitem__
        ordered = tuple(sorted(clauses, key=lambda clause: tuple(map(code, clause))))
    planted = "".join("1" if bit else "0" for bit in solutions[0].tolist())
    return Formula(num_vars, ordered), planted


@functools.lru_cache(maxsize=64)
def _literal_codes(num_vars: int) -> dict[int, int]:
    """Each DIMACS literal's code in :func:`canonical_order` (its digit in the clause code)."""
    if num_vars <= LETTER_NAMES:  # unnegated after negated, then by variable
        return {
            sign * v: (sign > 0) * num_vars + v - 1
            for v in range(1, num_vars + 1)
            for sign in (-1, 1)
        }
    return {sign * v: 2 * (v - 1) + (sign > 0) for v in range(1, num_vars + 1) for sign in (-1, 1)}


def _first_distinct_clauses(clauses: list[list[int]], wanted: int) -> list[list[int]]:
    """The first ``wanted`` distinct clauses in draw order (as ``first_distinct`` keeps)."""
    seen: dict[tuple[int, ...], list[int]] = {}
    for clause in clauses:
        seen.setdefault(tuple(clause), clause)
        if len(seen) == wanted:
            break
    return list(seen.values())


def _verify(literals: IntArray, solutions: IntArray) -> None:
    """Check every drawn clause holds under its planted assignment (a generator bug if not)."""
    values = np.take_along_axis(solutions[:, None, :], np.abs(literals) - 1, axis=2)
    holds = ((literals > 0) == (values == 1)).any(axis=2)
    if not holds.all():
        raise AssertionError("planted generator drew a clause its assignment falsifies")
