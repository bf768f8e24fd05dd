"""A sound Minesweeper solver: what the visible numbers prove, and whether a board needs a guess.

:class:`LogicSolver` sees only what a player sees (revealed numbers, the mines it has
proven, the mine total) and proves cells safe or mined, by these rules in turn, each tried
only when the ones before found nothing:

1. **Single numbers**: a number whose remaining mines are 0 makes its hidden neighbours
   safe; one whose remaining mines equal its hidden neighbours makes them all mines.
2. **Mine total**: no mines left means every hidden cell is safe; as many mines left as
   hidden cells means every one is a mine.
3. **Subsets**: when one number's hidden neighbours A lie within another's, B, the cells of
   B outside A hold the difference of their remaining mines (safe when it is 0, all mines
   when it equals their count).
4. **Exact enumeration** of each frontier component (hidden cells joined through the
   numbers that touch them) of at most :data:`ENUM_LIMIT` cells: every assignment of mines
   that satisfies all its numbers is listed by mine count (backtracking, at most
   :data:`NODE_BUDGET` nodes). When every component was enumerated, the counts are joined
   through the mine total (the cells no number touches take the rest): a component's count
   is kept only if some whole layout uses it. A cell mined in no kept layout is safe, in
   all of them a mine; the untouched cells too, when every whole layout leaves them none
   or fills them all.

Every rule is sound (it never proves a wrong fact), so a board that :func:`solves_without_guessing`
from its start cell can be cleared by logic alone; the rules are not complete (a component
above the limit is skipped), so some boards that a perfect reasoner clears are rejected,
which only makes the generator more careful. Everything is deterministic: components and
cells are taken in index order.
"""

from __future__ import annotations

from envsuite.families.text.minesweeper_rules import (
    MinesweeperBoard,
    MinesweeperGame,
    neighbour_masks,
)

#: Largest frontier component enumerated exactly (cells).
ENUM_LIMIT = 24
#: Most backtracking nodes spent on one component before giving it up.
NODE_BUDGET = 50_000


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, ascending."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


class LogicSolver:
    """What a player's view proves: cells certainly safe and certainly mined.

    Feed it what the player sees with :meth:`observe` (a revealed cell and its number) and
    :meth:`mark_mines` (mines it proved); :meth:`deduce` returns new facts.
    """

    def __init__(self, rows: int, cols: int, total_mines: int) -> None:
        self.masks = neighbour_masks(rows, cols)
        self.everything = (1 << (rows * cols)) - 1
        self.total_mines = total_mines
        self.revealed = 0
        self.mines = 0
        self.numbers: dict[int, int] = {}
        self._frontier: set[int] = set()

    def observe(self, cell: int, number: int) -> None:
        """``cell`` is revealed and shows ``number``."""
        self.revealed |= 1 << cell
        self.numbers[cell] = number
        if number:
            self._frontier.add(cell)

    def mark_mines(self, mask: int) -> None:
        """The cells of ``mask`` are proven mines."""
        self.mines |= mask

    @property
    def hidden(self) -> int:
        """Cells neither revealed nor proven mines, as a mask."""
        return self.everything & ~self.revealed & ~self.mines

    def deduce(self) -> tuple[int, int]:
        """(safe, mines): masks of hidden cells proven safe and proven mined (maybe 0, 0)."""
        hidden, mines, masks, numbers = self.hidden, self.mines, self.masks, self.numbers
        safe = found = 0
        constraints: list[tuple[int, int]] = []
        for cell in sorted(self._frontier):
            around = masks[cell]
            unknown = around & hidden
            if not unknown:
                self._frontier.discard(cell)
                continue
            need = numbers[cell] - (around & mines).bit_count()
            if need == 0:
                safe |= unknown
            elif need == unknown.bit_count():
                found |= unknown
            else:
                constraints.append((unknown, need))
        if safe or found:
            return safe, found
        left = self.total_mines - mines.bit_count()
        if left == 0:
            return hidden, 0
        if left == hidden.bit_count():
            return 0, hidden
        constraints = sorted(set(constraints))
        safe, found = _subset_rule(constraints)
        if safe or found:
            return safe, found
        return _enumerate_components(constraints, hidden, left)


def _subset_rule(constraints: list[tuple[int, int]]) -> tuple[int, int]:
    safe = found = 0
    for small, small_need in constraints:
        for large, large_need in constraints:
            if small == large or small & ~large:
                continue
            rest = large & ~small
            rest_need = large_need - small_need
            if rest_need == 0:
                safe |= rest
            elif rest_need == rest.bit_count():
                found |= rest
    return safe, found


def _components(constraints: list[tuple[int, int]]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Constraints grouped by shared cells: (cells mask, constraints), by lowest cell."""
    groups: list[tuple[int, list[tuple[int, int]]]] = []
    for constraint in constraints:
        mask, members = constraint[0], [constraint]
        kept = []
        for group in groups:
            if group[0] & mask:
                mask |= group[0]
                members.extend(group[1])
            else:
                kept.append(group)
        groups = [*kept, (mask, members)]
    return sorted(groups, key=lambda group: group[0] & -group[0])


def _enumerate_components(
    constraints: list[tuple[int, int]], hidden: int, left: int
) -> tuple[int, int]:
    """Exact enumeration of each component, joined through the mine total."""
    groups = _components(constraints)
    frontier = 0
    for mask, _ in groups:
        frontier |= mask
    interior = hidden & ~frontier  # hidden cells no number touches
    tables: list[tuple[list[int], dict[int, tuple[int, list[int]]]] | None] = []
    for mask, members in groups:
        cells = bits(mask)
        table = _enumerate(cells, members, left) if len(cells) <= ENUM_LIMIT else None
        tables.append(None if table is None else (cells, table))
    known = [table for table in tables if table is not None]
    if len(known) < len(tables):
        allowed: list[set[int]] = [set(table) for _, table in known]  # no joint reasoning
        interior_mines: set[int] = set()
    else:
        allowed, interior_mines = _feasible_counts(
            [set(table) for _, table in known], left, interior.bit_count()
        )
    safe = found = 0
    for (cells, table), counts in zip(known, allowed, strict=True):
        solutions = sum(table[k][0] for k in counts)
        for position, cell in enumerate(cells):
            times = sum(table[k][1][position] for k in counts)
            if times == 0:
                safe |= 1 << cell
            elif times == solutions:
                found |= 1 << cell
    if interior and interior_mines == {0}:
        safe |= interior
    elif interior and interior_mines == {interior.bit_count()}:
        found |= interior
    return safe, found


def _feasible_counts(
    counts: list[set[int]], left: int, interior: int
) -> tuple[list[set[int]], set[int]]:
    """Per component, the mine counts some whole layout uses; and the interior's counts.

    A whole layout takes one count per component and puts the rest of the ``left`` mines
    on the ``interior`` cells, so the components' sum lies in ``[left - interior, left]``.
    """
    prefix = [{0}]
    for options in counts:
        prefix.append({s + k for s in prefix[-1] for k in options if s + k <= left})
    suffix = [{0}]
    for options in reversed(counts):
        suffix.append({s + k for s in suffix[-1] for k in options if s + k <= left})
    suffix.reverse()
    low = left - interior
    allowed = []
    for i, options in enumerate(counts):
        others = {a + b for a in prefix[i] for b in suffix[i + 1] if a + b <= left}
        allowed.append({k for k in options if any(low <= k + o <= left for o in others)})
    interior_mines = {left - total for total in prefix[-1] if low <= total <= left}
    return allowed, interior_mines


class _TooBig(Exception):
    """A component needs more than NODE_BUDGET backtracking nodes."""


def _enumerate(
    cells: list[int], members: list[tuple[int, int]], left: int
) -> dict[int, tuple[int, list[int]]] | None:
    """Per mine count k: (layouts with k mines, times each cell is a mine in them).

    Every layout of ``cells`` meeting all the numbers of ``members`` with at most ``left``
    mines; None when the search passes :data:`NODE_BUDGET` nodes or finds no layout.
    """
    position = {cell: i for i, cell in enumerate(cells)}
    touching: list[list[int]] = [[] for _ in cells]
    need = []
    free = []
    for index, (mask, count) in enumerate(members):
        for cell in bits(mask):
            touching[position[cell]].append(index)
        need.append(count)
        free.append(mask.bit_count())
    total = len(cells)
    assignment = [0] * total
    table: dict[int, tuple[int, list[int]]] = {}
    nodes = 0

    def place(depth: int, placed: int) -> None:
        nonlocal nodes
        if depth == total:  # every number is met: pruning keeps need <= free
            solutions, mined = table.get(placed, (0, [0] * total))
            table[placed] = (solutions + 1, [m + a for m, a in zip(mined, assignment, strict=True)])
            return
        for value in (0, 1):
            nodes += 1
            if nodes > NODE_BUDGET:
                raise _TooBig
            if value and placed >= left:
                continue
            if any(
                need[index] - value < 0 or need[index] - value > free[index] - 1
                for index in touching[depth]
            ):
                continue
            for index in touching[depth]:
                need[index] -= value
                free[index] -= 1
            assignment[depth] = value
            place(depth + 1, placed + value)
            for index in touching[depth]:
                need[index] += value
                free[index] += 1
        assignment[depth] = 0

    try:
        place(0, 0)
    except _TooBig:
        return None
    return table or None


def sync(solver: LogicSolver, game: MinesweeperGame) -> None:
    """Show ``solver`` every cell of ``game`` revealed since it last looked."""
    numbers, seen = game.board.numbers, solver.revealed
    for cell, shown in enumerate(game.revealed):
        if shown and not seen >> cell & 1:
            solver.observe(cell, numbers[cell])


def solves_without_guessing(board: MinesweeperBoard) -> bool:
    """Whether the solver clears ``board`` from its start cell, proving every reveal safe.

    Each round deduces from the view, marks the proven mines and reveals every proven-safe
    cell; the oracle plays the same rounds (:mod:`.minesweeper_oracle`), so it clears every
    board this accepts.
    """
    game = MinesweeperGame(board)
    solver = LogicSolver(board.rows, board.cols, len(board.mines))
    numbers = board.numbers
    for cell in game.reveal(board.start):
        solver.observe(cell, numbers[cell])
    while not game.won:
        safe, mines = solver.deduce()
        if not safe and not mines:
            return False
        solver.mark_mines(mines)
        for cell in bits(safe):
            if not game.revealed[cell]:
                for opened in game.reveal(cell):
                    solver.observe(opened, numbers[opened])
    return True
