"""Sudoku puzzles from a seed: a random solution grid, then clues removed while unique.

A clue is removed only while the puzzle keeps exactly one solution: for the ``easy`` and
``medium`` grades the logical solver of that grade must still fill the grid (its
deductions are sound, so a grid it fills has one solution), for ``hard`` the counting
solver must find no solution with another digit in the emptied cell (so it stops at two).
Then the grade is checked: an ``easy`` puzzle falls to singles, a ``medium`` one needs
pairs or locked candidates, a ``hard`` one defeats both (a solver needs search). Tries are
bounded; running out raises.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envsuite.families.text.sudoku_rules import Geometry
from envsuite.families.text.sudoku_solver import count_solutions, grade, logical_solve


@dataclass(frozen=True)
class Grade:
    """What a difficulty asks of a puzzle: its technique tier and its number of givens."""

    tier: int
    min_givens: int
    max_givens: int


#: The grades of each size: technique tier and givens range (inclusive).
GRADES: dict[int, dict[str, Grade]] = {
    4: {"easy": Grade(1, 8, 10), "medium": Grade(1, 6, 7), "hard": Grade(1, 4, 5)},
    6: {"easy": Grade(1, 16, 20), "medium": Grade(1, 12, 15), "hard": Grade(1, 8, 11)},
    9: {"easy": Grade(1, 36, 45), "medium": Grade(2, 22, 32), "hard": Grade(3, 17, 30)},
}
#: Solution grids tried per puzzle before generation gives up.
MAX_TRIES = 200


def random_solution(geo: Geometry, rng: np.random.Generator) -> tuple[int, ...]:
    """A random full grid: depth-first search, most-constrained cell first, digits shuffled."""
    n, full = geo.size, geo.full_mask
    values = [0] * geo.cells
    used = [0] * (3 * n)
    units_of = geo.units_of
    order = rng.permutation(n).tolist()  # the digit order tried at every cell

    def search(todo: list[int]) -> bool:
        if not todo:
            return True
        best_k, best_mask, best_count = 0, 0, 99
        for k, cell in enumerate(todo):
            r, c, b = units_of[cell]
            mask = full & ~(used[r] | used[c] | used[b])
            count = mask.bit_count()
            if count < best_count:
                best_k, best_mask, best_count = k, mask, count
                if count <= 1:
                    break
        cell = todo[best_k]
        r, c, b = units_of[cell]
        rest = todo[:best_k] + todo[best_k + 1 :]
        shift = int(rng.integers(n))
        for j in range(n):
            d = order[(j + shift) % n]
            bit = 1 << d
            if best_mask & bit:
                used[r] |= bit
                used[c] |= bit
                used[b] |= bit
                values[cell] = d + 1
                if search(rest):
                    return True
                used[r] ^= bit
                used[c] ^= bit
                used[b] ^= bit
        values[cell] = 0
        return False

    search(list(range(geo.cells)))
    return tuple(values)


def remove_clues(
    geo: Geometry, solution: tuple[int, ...], rng: np.random.Generator, tier: int, target: int
) -> tuple[int, ...]:
    """Remove clues of ``solution`` in a random order while the puzzle stays unique.

    For tiers 1 and 2 the tier's logic must still fill the grid. Stops when ``target``
    givens are left or no clue can go.
    """
    puzzle = list(solution)
    givens = geo.cells
    for cell in rng.permutation(geo.cells).tolist():
        if givens <= target:
            break
        digit = puzzle[cell]
        puzzle[cell] = 0
        if tier <= 2:
            keep = logical_solve(geo, puzzle, tier)[0]
        else:
            keep = count_solutions(geo, puzzle, 1, forbid=(cell, digit)) == 0
        if keep:
            givens -= 1
        else:
            puzzle[cell] = digit
    return tuple(puzzle)


def carve(
    geo: Geometry, solution: tuple[int, ...], rng: np.random.Generator, want: Grade
) -> tuple[int, ...] | None:
    """A puzzle of grade ``want`` carved from ``solution``, or None if this one fails."""
    target = int(rng.integers(want.min_givens, want.max_givens + 1))
    puzzle = remove_clues(geo, solution, rng, want.tier, target)
    givens = sum(1 for d in puzzle if d)
    if not want.min_givens <= givens <= want.max_givens:
        return None
    if want.tier > 1 and grade(geo, puzzle) != want.tier:
        return None
    return puzzle


def generate(
    geo: Geometry, rng: np.random.Generator, want: Grade, max_tries: int = MAX_TRIES
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A ``(puzzle, solution)`` of grade ``want``, drawn from ``rng``.

    Raises:
        RuntimeError: no try of ``max_tries`` made a puzzle of the grade.
    """
    for _ in range(max_tries):
        solution = random_solution(geo, rng)
        puzzle = carve(geo, solution, rng, want)
        if puzzle is not None:
            return puzzle, solution
    raise RuntimeError(
        f"no {geo.size}x{geo.size} puzzle of tier {want.tier} with {want.min_givens}-"
        f"{want.max_givens} givens in {max_tries} tries"
    )
