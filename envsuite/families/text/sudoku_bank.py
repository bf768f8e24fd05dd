"""The shipped Sudoku bank: puzzles the seeded generator made, and the grid's symmetries.

Generating a graded 9x9 puzzle takes 3 ms (easy) to about 100 ms (medium, hard) in
Python, which would dominate an episode; so ``datasets/text/sudoku/v1/`` ships, per size
and grade, puzzles made by :func:`~.sudoku_generator.generate` from fixed seeds (entry
``i`` of ``<size>-<grade>.txt`` from :func:`entry_generator`, so anyone can remake and
check it: ``python -m envsuite.families.text.sudoku_bank --check``). At reset an entry of
the split is drawn and shown under a random symmetry of the grid (digits relabelled, rows
permuted within bands and bands permuted, the same for columns and stacks, and a
transposition where boxes are square): uniqueness and the technique tier survive every
symmetry, and one entry gives up to ``2 * 9! * 6**8`` (about 1.2e12) distinct grids.

File format: one entry a line, ``<puzzle> <solution>``, cells row by row, ``.`` for an
empty cell.
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path

import numpy as np

from envsuite.data_paths import datasets_root
from envsuite.families.text.sudoku_generator import GRADES, generate
from envsuite.families.text.sudoku_rules import geometry
from envsuite.seeding import make_generator

#: The bank's folder, relative to ``datasets/``.
BANK_DIR = "text/sudoku/v1"
#: Entries per (size, grade) file.
BANK_SIZES: dict[int, int] = {4: 1000, 6: 1000, 9: 3000}

Entry = tuple[tuple[int, ...], tuple[int, ...]]


def bank_file(size: int, difficulty: str) -> Path:
    """The bank file of ``size`` and ``difficulty``."""
    return datasets_root() / BANK_DIR / f"{size}-{difficulty}.txt"


def entry_generator(size: int, difficulty: str, index: int) -> np.random.Generator:
    """The generator entry ``index`` of a bank file was drawn from."""
    return make_generator(index, "sudoku-bank", size, difficulty)


def encode(grid: tuple[int, ...]) -> str:
    """Cells row by row, ``.`` for empty."""
    return "".join(str(d) if d else "." for d in grid)


def decode(text: str) -> tuple[int, ...]:
    """The grid of a row-by-row string (``.`` for empty)."""
    return tuple(0 if ch == "." else int(ch) for ch in text)


@cache
def load_bank(path: Path) -> tuple[tuple[str, str], ...]:
    """The entries of a bank file as ``(puzzle, solution)`` strings (read once)."""
    entries = []
    for line in path.read_text(encoding="ascii").splitlines():
        puzzle, solution = line.split()
        entries.append((puzzle, solution))
    return tuple(entries)


def random_symmetry(size: int, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A random symmetry of the grid: ``(cell map, digit map)``.

    The new grid's cell ``i`` holds ``digits[old[cell_map[i]]]`` (``digits[0] == 0``).
    """
    geo = geometry(size)
    br, bc = geo.box_rows, geo.box_cols

    def lines(width: int) -> list[int]:
        """Groups of ``width`` lines permuted, and the lines within each group."""
        order = []
        for group in rng.permutation(size // width).tolist():
            order += [group * width + k for k in rng.permutation(width).tolist()]
        return order

    rows = lines(br)  # a band is box_rows rows high
    cols = lines(bc)
    cell_map = [rows[r] * size + cols[c] for r in range(size) for c in range(size)]
    if br == bc and rng.integers(2):
        cell_map = [cell_map[c * size + r] for r in range(size) for c in range(size)]
    digits = [0, *(rng.permutation(size) + 1).tolist()]
    return cell_map, digits


def apply_symmetry(grid: tuple[int, ...], symmetry: tuple[list[int], list[int]]) -> tuple[int, ...]:
    """``grid`` under ``symmetry`` (see :func:`random_symmetry`)."""
    cell_map, digits = symmetry
    return tuple(digits[grid[i]] for i in cell_map)


def build(size: int, difficulty: str, count: int, start: int = 0) -> list[str]:
    """Lines ``start .. start + count - 1`` of a bank file, made by the generator."""
    geo = geometry(size)
    want = GRADES[size][difficulty]
    out = []
    for index in range(start, start + count):
        puzzle, solution = generate(geo, entry_generator(size, difficulty, index), want)
        out.append(f"{encode(puzzle)} {encode(solution)}")
    return out


def main(argv: list[str] | None = None) -> None:
    """Build bank files, or check that the shipped ones start as the generator makes them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, choices=sorted(GRADES))
    parser.add_argument("--difficulty")
    parser.add_argument("--check", action="store_true", help="regenerate 5 entries of each")
    args = parser.parse_args(argv)
    for size, grades in GRADES.items():
        for difficulty in grades:
            if args.size not in (None, size) or args.difficulty not in (None, difficulty):
                continue
            path = bank_file(size, difficulty)
            if args.check:
                shipped = load_bank(path)[:5]
                assert [" ".join(e) for e in shipped] == build(size, difficulty, 5), path
                print(f"{path.name}: first entries remade identically")
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            lines = build(size, difficulty, BANK_SIZES[size])
            path.write_text("\n".join(lines) + "\n", encoding="ascii")
            print(f"{path}: {len(lines)} entries")


if __name__ == "__main__":
    main()
