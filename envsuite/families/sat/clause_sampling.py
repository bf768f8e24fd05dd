"""Vectorised drawing of clauses: distinct variables per clause, distinct clauses per formula.

Both generators (planted and uniform random) draw candidate clauses in numpy blocks from a
:class:`numpy.random.Generator` and keep, per formula, the first ``num_clauses`` distinct
ones in draw order, which makes the kept set a uniform random subset of the clauses the
draw can produce.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]

#: Up to this many variables, variable sets are drawn by ranking random keys (no rejection).
ARGSORT_MAX_VARS = 64


def draw_variable_sets(
    rng: np.random.Generator, shape: tuple[int, ...], clause_width: int, num_vars: int
) -> IntArray:
    """Draw ``clause_width`` distinct 0-based variables per clause, in increasing order.

    Returns:
        An int64 array of ``shape + (clause_width,)``; each row is a uniform random
        ``clause_width``-subset of ``range(num_vars)``, sorted.
    """
    if num_vars <= ARGSORT_MAX_VARS:
        keys = rng.random((*shape, num_vars))
        chosen = np.argpartition(keys, clause_width - 1, axis=-1)[..., :clause_width]
        return np.sort(chosen, axis=-1).astype(np.int64)
    # Many variables: draw with replacement and redraw the rare rows with a repeat.
    chosen = np.sort(rng.integers(0, num_vars, size=(*shape, clause_width)), axis=-1)
    while True:
        repeated = (np.diff(chosen, axis=-1) == 0).any(axis=-1)
        count = int(repeated.sum())
        if count == 0:
            return chosen.astype(np.int64)
        chosen[repeated] = np.sort(rng.integers(0, num_vars, size=(count, clause_width)), axis=-1)


def clause_keys(literals: IntArray, num_vars: int) -> NDArray[np.int64] | None:
    """One int64 per clause that identifies it, or None when the code would overflow.

    A literal ``±v`` is coded as ``2(v − 1) + negated`` and a clause (literals in variable
    order) as the base-2·num_vars number of its codes.
    """
    base = 2 * num_vars
    width = literals.shape[-1]
    if width * np.log2(base) >= 62:
        return None
    codes = 2 * (np.abs(literals) - 1) + (literals < 0)
    powers = base ** np.arange(width, dtype=np.int64)
    keys: NDArray[np.int64] = (codes * powers).sum(axis=-1)
    return keys


def first_distinct(literals: IntArray, num_vars: int, wanted: int) -> IntArray:
    """The first ``wanted`` distinct clauses of a block, in draw order (fewer if it has fewer).

    Args:
        literals: ``(candidates, width)`` clauses, literals in variable order.
        num_vars: Number of variables (sizes the clause code).
        wanted: How many distinct clauses to keep.
    """
    keys = clause_keys(literals, num_vars)
    if keys is None:
        seen: dict[bytes, int] = {}
        for index, row in enumerate(literals):
            seen.setdefault(row.tobytes(), index)
            if len(seen) == wanted:
                break
        order = np.fromiter(seen.values(), dtype=np.int64)
    else:
        _, first = np.unique(keys, return_index=True)
        order = np.sort(first)[:wanted]
    return literals[order]


def first_distinct_rows(literals: IntArray, num_vars: int, wanted: int) -> list[IntArray]:
    """:func:`first_distinct` for every row of a ``(rows, candidates, width)`` block at once.

    Rows with fewer than ``wanted`` distinct clauses come back short (callers top them up).
    """
    keys = clause_keys(literals, num_vars)
    if keys is None:
        return [first_distinct(row, num_vars, wanted) for row in literals]
    # A clause is kept when it is the first of its key in its row (a stable sort puts the
    # first occurrence first) and among the row's first ``wanted`` such clauses.
    order = np.argsort(keys, axis=1, kind="stable")
    ordered = np.take_along_axis(keys, order, axis=1)
    first_in_order = np.ones_like(ordered, dtype=bool)
    first_in_order[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    first = np.empty_like(first_in_order)
    np.put_along_axis(first, order, first_in_order, axis=1)
    keep = first & (np.cumsum(first, axis=1) <= wanted)
    if bool((keep.sum(axis=1) == wanted).all()):
        kept: IntArray = literals[keep].reshape(len(literals), wanted, literals.shape[-1])
        return list(kept)
    return [row[mask] for row, mask in zip(literals, keep, strict=True)]
