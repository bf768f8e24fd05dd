"""Sudoku solvers: a bitmask counting solver and a logical solver that grades by technique.

- :func:`count_solutions` searches (most-constrained cell first, bitmask candidates) and
  stops at ``limit`` solutions; ``limit=2`` tells unique puzzles from the rest.
- :func:`logical_solve` fills the grid by the techniques of one tier only and says which
  tier it needed (:data:`TIERS`): sound deductions, so a puzzle it fills has exactly one
  solution.
"""

from __future__ import annotations

from collections.abc import Sequence

from envsuite.families.text.sudoku_rules import Geometry

#: Technique tiers of :func:`logical_solve`, weakest first.
TIERS: dict[int, str] = {
    1: "singles (naked and hidden singles)",
    2: "+ naked pairs, pointing and claiming (locked candidates)",
    3: "more than tier 2: search or harder techniques (X-wings, chains)",
}


def _masks(geo: Geometry, grid: Sequence[int]) -> tuple[list[int], list[int], list[int]]:
    n = geo.size
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    for cell, d in enumerate(grid):
        if d:
            r, c, b = geo.units_of[cell]
            bit = 1 << (d - 1)
            rows[r] |= bit
            cols[c - n] |= bit
            boxes[b - 2 * n] |= bit
    return rows, cols, boxes


def count_solutions(
    geo: Geometry,
    grid: Sequence[int],
    limit: int = 2,
    *,
    forbid: tuple[int, int] | None = None,
    first: list[int] | None = None,
) -> int:
    """How many solutions ``grid`` has, counting no further than ``limit``.

    Args:
        geo: The grid's geometry.
        grid: Flat cells, 0 for empty.
        limit: Stop once this many solutions are found.
        forbid: ``(cell, digit)``: count only solutions whose empty ``cell`` is not
            ``digit`` (removing a clue keeps a puzzle unique iff no such solution exists).
        first: When given, receives the first solution found (cleared and filled).
    """
    n = geo.size
    full = geo.full_mask
    rows, cols, boxes = _masks(geo, grid)
    for cell, d in enumerate(grid):  # a given that repeats in a unit: no solution
        if d and any(grid[p] == d for p in geo.peers[cell]):
            return 0
    where = [(i, geo.units_of[i][0], geo.units_of[i][1] - n, geo.units_of[i][2] - 2 * n)
             for i in range(geo.cells) if not grid[i]]  # fmt: skip
    forbid_cell, forbid_bit = (-1, 0) if forbid is None else (forbid[0], 1 << (forbid[1] - 1))
    values = list(grid)
    found = 0

    def search(todo: list[tuple[int, int, int, int]]) -> None:
        nonlocal found
        if not todo:
            found += 1
            if found == 1 and first is not None:
                first[:] = values
            return
        best_i, best_mask, best_count = 0, 0, 99
        for k, (cell, r, c, b) in enumerate(todo):
            mask = full & ~(rows[r] | cols[c] | boxes[b])
            if cell == forbid_cell:
                mask &= ~forbid_bit
            count = mask.bit_count()
            if count < best_count:
                best_i, best_mask, best_count = k, mask, count
                if count <= 1:
                    break
        if best_count == 0:
            return
        cell, r, c, b = todo[best_i]
        rest = todo[:best_i] + todo[best_i + 1 :]
        mask = best_mask
        while mask:
            bit = mask & -mask
            mask ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            values[cell] = bit.bit_length()
            search(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            if found >= limit:
                return
        values[cell] = 0

    search(where)
    return found


def solve(geo: Geometry, grid: Sequence[int]) -> tuple[int, ...] | None:
    """A solution of ``grid`` (the only one if it is unique), or None."""
    out: list[int] = []
    return tuple(out) if count_solutions(geo, grid, 1, first=out) else None


def logical_solve(geo: Geometry, grid: Sequence[int], max_tier: int = 2) -> tuple[bool, int]:
    """Fill ``grid`` by the techniques of tiers up to ``max_tier`` (1 or 2).

    Returns:
        ``(solved, tier)``: whether the grid was filled, and the highest tier a step of
        the fill needed (1 when singles sufficed).
    """
    n = geo.size
    full = geo.full_mask
    peers, units, units_of = geo.peers, geo.units, geo.units_of
    values = list(grid)
    cand = [0] * geo.cells
    rows, cols, boxes = _masks(geo, grid)
    for cell, d in enumerate(values):
        if d:
            cand[cell] = 1 << (d - 1)
        else:
            r, c, b = units_of[cell]
            cand[cell] = full & ~(rows[r] | cols[c - n] | boxes[b - 2 * n])
    empty = sum(1 for d in values if not d)
    tier = 1

    def assign(cell: int, bit: int) -> bool:
        nonlocal empty
        values[cell] = bit.bit_length()
        cand[cell] = bit
        empty -= 1
        for p in peers[cell]:
            if cand[p] & bit:
                if not values[p] and cand[p] == bit:
                    return False
                cand[p] &= ~bit
        return True

    while empty:
        progress = False
        # naked singles
        for cell in range(geo.cells):
            if not values[cell]:
                m = cand[cell]
                if not m:
                    return False, tier
                if not m & (m - 1):
                    if not assign(cell, m):
                        return False, tier
                    progress = True
        # hidden singles
        for unit in units:
            once = twice = placed = 0
            for cell in unit:
                m = cand[cell]
                if values[cell]:
                    placed |= m
                else:
                    twice |= once & m
                    once |= m
            hidden = once & ~twice & ~placed
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                for cell in unit:
                    if not values[cell] and cand[cell] & bit:
                        if not assign(cell, bit):
                            return False, tier
                        progress = True
                        break
        if progress:
            continue
        if max_tier < 2 or not _tier_two(geo, values, cand):
            return False, tier
        tier = 2
    return True, tier


def _tier_two(geo: Geometry, values: list[int], cand: list[int]) -> bool:
    """One round of naked pairs, pointing and claiming; whether anything was eliminated."""
    n = geo.size
    units, units_of = geo.units, geo.units_of
    changed = False
    # naked pairs
    for unit in units:
        pairs: dict[int, int] = {}
        for cell in unit:
            m = cand[cell]
            if not values[cell] and m.bit_count() == 2:
                if m in pairs:
                    a, b = pairs[m], cell
                    for other in unit:
                        if other not in (a, b) and not values[other] and cand[other] & m:
                            cand[other] &= ~m
                            changed = True
                else:
                    pairs[m] = cell
    # locked candidates: a digit confined to one line inside a box (pointing), or to one
    # box inside a line (claiming), is eliminated from the rest of that line or box
    for u, unit in enumerate(units):
        for d in range(n):
            bit = 1 << d
            spots = [cell for cell in unit if not values[cell] and cand[cell] & bit]
            if len(spots) < 2:
                continue
            if u >= 2 * n:  # a box: same row, or same column
                shared = [k for k in (0, 1) if len({units_of[s][k] for s in spots}) == 1]
            else:  # a line: same box
                shared = [2] if len({units_of[s][2] for s in spots}) == 1 else []
            for k in shared:
                for other in units[units_of[spots[0]][k]]:
                    if other not in spots and not values[other] and cand[other] & bit:
                        cand[other] &= ~bit
                        changed = True
    return changed


def grade(geo: Geometry, grid: Sequence[int]) -> int:
    """The technique tier (1, 2 or 3) a unique puzzle needs (see :data:`TIERS`)."""
    solved, tier = logical_solve(geo, grid, 2)
    return tier if solved else 3
