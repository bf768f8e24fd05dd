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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from envsuite.families.sat.clause_sampling import (
    ARGSORT_MAX_VARS,
    IntArray,
    draw_variable_sets,
    first_distinct,
    first_distinct_rows,
)
from envsuite.families.sat.cnf import (
    LETTER_NAMES,
    Clause,
    Formula,
    canonical_clauses,
    clause_string,
)
from envsuite.families.sat.levels import Level, max_distinct_clauses
from envsuite.families.sat.pcg_words import Run, finish, is_pcg64, lemire_rejects, word_layout

PlantedInstance = tuple[Formula, str]


def check_planted_level(level: Level) -> None:
    """Raise ValueError if ``level`` asks for more distinct clauses than one assignment allows."""
    problem = _planted_level_problem(level.clause_width, level.num_vars, level.num_clauses)
    if problem:
        raise ValueError(problem)


@functools.lru_cache(maxsize=256)
def _planted_level_problem(clause_width: int, num_vars: int, num_clauses: int) -> str:
    """Why the level has no planted instances ("" if it has; cached: resets ask every time).

    Keyed by the sizes, not the :class:`Level`: a dataclass's hash is a Python call.
    """
    level = Level(clause_width, num_vars, num_clauses)
    most = max_distinct_clauses(level.clause_width, level.num_vars, satisfied_by_one=True)
    if level.num_clauses > most:
        return (
            f"{level.name}: an assignment of {level.num_vars} variables satisfies only {most} "
            f"distinct clauses of width {level.clause_width}, fewer than the "
            f"{level.num_clauses} asked for"
        )
    return ""


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

    An env's reset draws one instance at a time, where numpy's fixed cost per call
    outweighs the work on a few dozen clauses. This makes the same draws from ``rng`` in
    the same order (the generator's state after it is the batch's too) and does the rest
    in Python: up to :data:`TABLE_MAX_VARS` variables each candidate clause is one int
    (its variables, their planted values and its sign pattern), deduplicated with a dict
    and turned into its clause by a cached table; beyond, on the candidates' literals.
    On a PCG64 generator (every env's) the first draws come from one ``random_raw`` call
    (:func:`_draw_by_words`) instead of three numpy draws.
    """
    check_planted_level(level)
    return planted_instance_unchecked(rng, level)


def planted_instance_unchecked(rng: np.random.Generator, level: Level) -> PlantedInstance:
    """:func:`planted_instance` at a level already checked with :func:`check_planted_level`."""
    if level.num_vars <= TABLE_MAX_VARS:
        return _planted_by_table(rng, level)
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


#: Up to this many variables :func:`planted_instance` codes candidate clauses as ints
#: (variable sets as int64 bit masks; :data:`ARGSORT_MAX_VARS` bounds it too).
TABLE_MAX_VARS = min(ARGSORT_MAX_VARS, 62)
#: A level's table of clauses is emptied when it grows past this many entries.
TABLE_MAX_ENTRIES = 1 << 16

#: A table entry: the clause's sort key in canonical order, and the clause.
_Entry = tuple[Any, Clause]
#: A level's table: sort key by :func:`_candidate_keys` code, and clause by sort key.
_ClauseTable = tuple[dict[int, Any], dict[Any, Clause]]


def _planted_by_table(rng: np.random.Generator, level: Level) -> PlantedInstance:
    """:func:`planted_instance` for levels of at most :data:`TABLE_MAX_VARS` variables."""
    wanted, num_vars, width = level.num_clauses, level.num_vars, level.clause_width
    drawn = _draw_by_words(rng, level) if is_pcg64(rng) else None
    if drawn is None:
        bits = rng.integers(0, 2, size=(1, num_vars), dtype=np.int64)[0].tolist()
        planted = "".join(["1" if bit else "0" for bit in bits])
        assignment = int(planted[::-1], 2)  # bit v: variable v + 1
        codes = _candidate_keys(rng, assignment, wanted + wanted // 2 + 8, level)
    else:
        planted, assignment, codes = drawn
    # dict.fromkeys keeps the first of equal keys in draw order: first_distinct's rule.
    kept = list(dict.fromkeys(codes))
    while len(kept) < wanted:
        more = _candidate_keys(rng, assignment, 2 * wanted, level)
        kept = list(dict.fromkeys(kept + more))
    del kept[wanted:]
    sort_keys, clauses = _clause_table(num_vars, width)
    if len(sort_keys) > TABLE_MAX_ENTRIES:
        sort_keys.clear()
        clauses.clear()
    found = list(map(sort_keys.get, kept))  # map: the usual all-known case runs in C
    if None in found:
        found = [
            _add_entry(sort_keys, clauses, code, num_vars, width) if key is None else key
            for code, key in zip(kept, found, strict=True)
        ]
    # Distinct clauses have distinct sort keys, ints up to TABLE_MAX_VARS variables at
    # widths below 62 bits of code (list.sort compares them in C without a tuple each).
    found.sort()
    return Formula.trusted(num_vars, tuple(map(clauses.__getitem__, found))), planted


def _candidate_keys(
    rng: np.random.Generator, assignment: int, count: int, level: Level
) -> list[int]:
    """:func:`_planted_literals`' draws for one row, each clause coded as one int.

    The code of a clause over the variable set ``mask`` (bit v: variable v + 1) with sign
    pattern ``pattern`` is ``mask | (assignment & mask) << num_vars | pattern << 2·num_vars``:
    with the assignment fixed, distinct clauses have distinct codes.
    """
    width, num_vars = level.clause_width, level.num_vars
    keys = rng.random((1, count, num_vars))  # draw_variable_sets' draws and selection
    chosen = keys.argpartition(width - 1, axis=-1)[0, :, :width]
    masks = np.bitwise_or.reduce(1 << chosen, axis=-1)
    patterns = rng.integers(1, 2**width, size=(1, count), dtype=np.int64)[0]
    if 2 * num_vars + width <= 62:  # the codes fit an int64
        codes: list[int] = (
            masks | (masks & assignment) << num_vars | patterns << 2 * num_vars
        ).tolist()
        return codes
    shift = 2 * num_vars
    return [
        mask | (assignment & mask) << num_vars | pattern << shift
        for mask, pattern in zip(masks.tolist(), patterns.tolist(), strict=True)
    ]


@functools.lru_cache(maxsize=256)
def _word_runs(width: int, num_vars: int, num_clauses: int) -> tuple[Run, ...] | None:
    """The draws of :func:`_draw_by_words` at a level (None: the level takes numpy's path).

    The assignment's bits (32-bit draws), the candidates' variable keys (``random``, one
    word each) and their sign patterns (32-bit draws; none for width 1, where numpy's
    ``integers(1, 2)`` draws nothing).
    """
    count = num_clauses + num_clauses // 2 + 8
    if 2 * num_vars + width > 62 or num_vars > ARGSORT_MAX_VARS:  # codes past int64
        return None
    if width > 1 and lemire_rejects((1 << width) - 1) is None:
        return None
    patterns = count if width > 1 else 0
    return (("half", num_vars), ("word", count * num_vars), ("half", patterns))


def _draw_by_words(rng: np.random.Generator, level: Level) -> tuple[str, int, list[int]] | None:
    """The planted assignment, its int and the first candidates' codes, from raw words.

    Makes the draws of the numpy lines of :func:`_planted_by_table` and
    :func:`_candidate_keys` (``integers`` for the bits, ``random`` and ``argpartition`` for
    the variable sets, ``integers`` for the patterns) from one ``random_raw`` call, as
    :mod:`~envsuite.families.sat.pcg_words` lays them out, and leaves the generator where
    they would have. Returns None, with the generator untouched, when the level takes
    numpy's path, or in the rare draws where numpy retries or breaks a tie (a Lemire
    rejection, two keys equal at the cut): numpy then makes them itself.
    """
    width, num_vars = level.clause_width, level.num_vars
    runs = _word_runs(width, num_vars, level.num_clauses)
    if runs is None:
        return None
    count = level.num_clauses + level.num_clauses // 2 + 8
    bit_generator = rng.bit_generator
    start = bit_generator.state
    layout = word_layout(start["has_uint32"], runs)
    words = bit_generator.random_raw(layout.total)
    halves = words.view(np.uint32)
    drawn: list[int] = halves[layout.halves].tolist()
    if layout.from_buffer:
        drawn.insert(0, start["uinteger"])
    # integers(0, 2): Lemire's method on span 2 is the half's top bit (it never rejects).
    planted = "".join(["1" if half >> 31 else "0" for half in drawn[:num_vars]])
    assignment = int(planted[::-1], 2)
    pattern_halves = drawn[num_vars:]
    span = (1 << width) - 1
    # _word_runs took the level only where the list exists (width 1 draws no pattern).
    rejects = (lemire_rejects(span) if width > 1 else None) or frozenset()
    # The variable sets: the `width` smallest keys of each candidate (random()'s doubles
    # order as the words' top 53 bits).
    keys = words[layout.words[0]].reshape(count, num_vars) >> 11
    ordered = keys.copy()
    ordered.sort(axis=1)
    chosen = keys <= ordered[:, width - 1 : width]
    if np.count_nonzero(chosen) != count * width or not rejects.isdisjoint(pattern_halves):
        bit_generator.state = start
        return None
    masks = chosen @ _mask_weights(num_vars, assignment)
    shift = 2 * num_vars
    if width == 1:
        codes: list[int] = [mask | 1 << shift for mask in masks.tolist()]
    else:  # integers(1, 2**width): 1 + (half * span >> 32), shifted into place
        bounds, fields = _pattern_fields(span, shift)
        # The pattern halves (the bits' come first; with a buffered half, one fewer).
        positions = layout.halves[num_vars - layout.from_buffer :]
        lemire = bounds.searchsorted(halves[positions], side="right")
        codes = (masks + fields[lemire]).tolist()  # the fields are the codes' top bits
    finish(bit_generator, layout, halves, start)
    return planted, assignment, codes


@functools.lru_cache(maxsize=64)
def _pattern_fields(span: int, shift: int) -> tuple[NDArray[np.uint32], IntArray]:
    """Lemire's value ``k = half * span >> 32`` as a count of bounds, and each k's code field.

    ``k`` is the number of bounds ``ceil(j * 2**32 / span)`` (j = 1 .. span − 1) at or below
    the half (``searchsorted(..., side="right")``); its field is ``(1 + k) << shift``.
    """
    bounds = np.array([-(-(j << 32) // span) for j in range(1, span)], dtype=np.uint32)
    fields = np.array([(k + 1) << shift for k in range(span)], dtype=np.int64)
    return bounds, fields


@functools.lru_cache(maxsize=1024)
def _mask_weights(num_vars: int, assignment: int) -> IntArray:
    """Per variable v: ``1 << v``, plus ``1 << (num_vars + v)`` when the assignment sets v.

    A candidate's chosen variables (a 0/1 row) times these is the first two fields of its
    :func:`_candidate_keys` code: ``mask | (assignment & mask) << num_vars``.
    """
    weights = [(1 << v) | ((assignment >> v & 1) << (num_vars + v)) for v in range(num_vars)]
    return np.array(weights, dtype=np.int64)


def _table_entry(key: int, num_vars: int, width: int) -> _Entry:
    """The clause a :func:`_candidate_keys` code stands for, checked, with its sort key.

    Literal i (variables in increasing order) agrees with the assignment when bit i of the
    pattern is set, as in :func:`_planted_literals`.

    Raises:
        AssertionError: the clause is false under the assignment (a generator bug).
    """
    mask, values, pattern = key & ((1 << num_vars) - 1), key >> num_vars, key >> 2 * num_vars
    variables = [v for v in range(num_vars) if mask >> v & 1]
    clause = tuple(
        v + 1 if (pattern >> i & 1) == (values >> v & 1) else -(v + 1)
        for i, v in enumerate(variables)
    )
    if not any((literal > 0) == bool(values >> (abs(literal) - 1) & 1) for literal in clause):
        raise AssertionError("planted generator drew a clause its assignment falsifies")
    if width * np.log2(2 * num_vars) >= 62:  # canonical_clauses' keys
        if num_vars <= LETTER_NAMES:
            return clause_string(clause, num_vars), clause
        return tuple((abs(x), x > 0) for x in clause), clause
    code, base = _literal_codes(num_vars), 2 * num_vars  # canonical_order's clause code
    number = 0
    for literal in clause:
        number = number * base + code[literal]
    return number, clause


def _add_entry(
    sort_keys: dict[int, Any], clauses: dict[Any, Clause], code: int, num_vars: int, width: int
) -> Any:
    """Enter code ``code``'s clause (see :func:`_table_entry`) in a table; its sort key."""
    sort_key, clause = _table_entry(code, num_vars, width)
    sort_keys[code] = sort_key
    clauses[sort_key] = clause
    return sort_key


@functools.lru_cache(maxsize=64)
def _clause_table(num_vars: int, width: int) -> _ClauseTable:
    """The clauses met so far at a level (filled as drawn).

    Two dicts: each :func:`_candidate_keys` code's sort key (see :func:`_table_entry`), and
    each sort key's clause. A reset sorts the keys (ints at most levels, which
    ``list.sort`` compares in C) and looks their clauses up.
    """
    return {}, {}


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
