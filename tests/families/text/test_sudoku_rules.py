"""Sudoku engine, solvers, generator and bank: uniqueness, grades, symmetries, determinism."""

from __future__ import annotations

import numpy as np
import pytest

from envsuite.families.text.sudoku_bank import (
    BANK_SIZES,
    apply_symmetry,
    bank_file,
    build,
    decode,
    load_bank,
    random_symmetry,
)
from envsuite.families.text.sudoku_generator import GRADES, Grade, generate
from envsuite.families.text.sudoku_rules import SudokuBoard, geometry, is_valid_solution
from envsuite.families.text.sudoku_solver import count_solutions, grade, logical_solve, solve

# A classic puzzle (singles suffice) and its solution.
EASY = decode("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
EASY_SOLUTION = decode(
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
GEO9 = geometry(9)


def test_geometry_units_and_peers():
    for size in (4, 6, 9):
        geo = geometry(size)
        assert len(geo.units) == 3 * size
        assert all(len(unit) == size for unit in geo.units)
        assert all(len(p) == 3 * size - geo.box_rows - geo.box_cols - 1 for p in geo.peers)
    assert geometry(9).box_of(80) == 8 and geometry(6).box_of(35) == 5
    with pytest.raises(ValueError, match="size must be one of"):
        geometry(5)


def test_counting_solver_finds_the_unique_solution_and_stops_at_two():
    assert count_solutions(GEO9, EASY, 2) == 1
    assert solve(GEO9, EASY) == EASY_SOLUTION
    assert count_solutions(geometry(4), (0,) * 16, 2) == 2
    assert count_solutions(geometry(4), (0,) * 16, 1000) == 288  # every 4x4 grid
    two = list(EASY)
    two[0] = two[1] = two[4] = 0
    assert count_solutions(GEO9, two, 2) <= 2
    broken = list(EASY)
    broken[2] = 5  # a second 5 in row 1
    assert count_solutions(GEO9, broken, 2) == 0
    assert count_solutions(GEO9, EASY, 2, forbid=(2, 4)) == 0  # r1c3 must be 4


def test_logical_solver_grades_by_technique():
    assert logical_solve(GEO9, EASY, 1) == (True, 1)
    assert grade(GEO9, EASY) == 1
    # the generator's medium and hard puzzles need tier 2 and more than tier 2
    rng = np.random.default_rng(5)
    medium, _ = generate(GEO9, rng, GRADES[9]["medium"])
    assert logical_solve(GEO9, medium, 1)[0] is False
    assert logical_solve(GEO9, medium, 2) == (True, 2)
    hard, _ = generate(GEO9, rng, GRADES[9]["hard"])
    assert logical_solve(GEO9, hard, 2)[0] is False
    assert count_solutions(GEO9, hard, 2) == 1


@pytest.mark.parametrize("size", [4, 6, 9])
def test_generated_puzzles_are_unique_graded_and_deterministic(size):
    geo = geometry(size)
    for difficulty, want in GRADES[size].items():
        if size == 9 and difficulty != "easy":
            continue  # slow; the bank test covers them
        for seed in range(3):
            puzzle, solution = generate(geo, np.random.default_rng(seed), want)
            again = generate(geo, np.random.default_rng(seed), want)
            assert (puzzle, solution) == again
            assert is_valid_solution(geo, solution)
            assert all(p in (0, s) for p, s in zip(puzzle, solution, strict=True))
            assert count_solutions(geo, puzzle, 2) == 1
            assert want.min_givens <= sum(1 for d in puzzle if d) <= want.max_givens
            assert grade(geo, puzzle) == want.tier


def test_generation_is_bounded_and_raises():
    impossible = Grade(1, 0, 1)  # no 4x4 puzzle with one given is unique
    with pytest.raises(RuntimeError, match="in 3 tries"):
        generate(geometry(4), np.random.default_rng(0), impossible, max_tries=3)


@pytest.mark.parametrize(
    ("size", "difficulty"), [(s, d) for s in GRADES for d in GRADES[s]], ids=str
)
def test_bank_entries_are_unique_graded_and_remade_by_the_generator(size, difficulty):
    entries = load_bank(bank_file(size, difficulty))
    assert len(entries) == BANK_SIZES[size]
    geo, want = geometry(size), GRADES[size][difficulty]
    for puzzle_text, solution_text in entries[::97]:
        puzzle, solution = decode(puzzle_text), decode(solution_text)
        assert count_solutions(geo, puzzle, 2) == 1 and solve(geo, puzzle) == solution
        assert want.min_givens <= sum(1 for d in puzzle if d) <= want.max_givens
        assert grade(geo, puzzle) == want.tier
    assert [" ".join(e) for e in entries[:2]] == build(size, difficulty, 2)


@pytest.mark.parametrize("size", [4, 6, 9])
def test_symmetries_keep_uniqueness_and_grade(size):
    geo = geometry(size)
    rng = np.random.default_rng(1)
    puzzle_text, solution_text = load_bank(bank_file(size, "medium"))[0]
    puzzle, solution = decode(puzzle_text), decode(solution_text)
    seen = set()
    for _ in range(10):
        symmetry = random_symmetry(size, rng)
        new_puzzle = apply_symmetry(puzzle, symmetry)
        new_solution = apply_symmetry(solution, symmetry)
        assert is_valid_solution(geo, new_solution)
        assert solve(geo, new_puzzle) == new_solution and count_solutions(geo, new_puzzle) == 1
        assert grade(geo, new_puzzle) == grade(geo, puzzle)
        seen.add(new_puzzle)
    assert len(seen) > 5


def test_board_places_erases_and_refuses_nothing_itself():
    board = SudokuBoard(9, EASY)
    assert board.empty == 51 and board.conflict(2, 5) == 0  # r1c1 holds 5
    assert board.conflict(2, 4) == -1
    board.place(2, 4)
    assert board.empty == 50 and board.candidates(5) & (1 << 3) == 0  # r1c6: a 4 in the row
    board.place(2, 0)
    assert board.empty == 51 and board.candidates(2) & (1 << 3)
    legal = board.legal_placements()
    assert (2, 4) in legal and (2, 5) not in legal and all(not EASY[c] for c, _ in legal)
    with pytest.raises(ValueError, match="repeats"):
        SudokuBoard(9, decode("55" + "." * 79))


def test_bank_manifest_matches_its_files():
    import hashlib

    folder = bank_file(9, "easy").parent
    listed = dict(
        reversed(line.split("  ", 1)) for line in (folder / "MANIFEST").read_text().splitlines()
    )
    present = sorted(p.name for p in folder.iterdir() if p.name != "MANIFEST")
    assert sorted(listed) == present
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
