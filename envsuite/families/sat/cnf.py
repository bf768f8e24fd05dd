"""CNF formulas: variables, clauses as DIMACS literals, evaluation and canonical order.

A literal is a non-zero int as in DIMACS: ``v`` is variable ``v`` (1-based) and ``-v`` its
negation. Variables are named ``A``, ``B``, ... as in SATURN when there are at most 26 of
them, and ``x1`` ... ``xn`` otherwise (one scheme per formula, so names never mix).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import cast

#: Largest number of variables named by letters; more variables are named x1..xn.
LETTER_NAMES = len(string.ascii_uppercase)

Clause = tuple[int, ...]


@cache
def variable_names(num_vars: int) -> tuple[str, ...]:
    """Names of ``num_vars`` variables: ``A``..``Z`` up to 26, else ``x1``..``xn``."""
    if num_vars < 1:
        raise ValueError(f"num_vars must be at least 1, got {num_vars}")
    if num_vars <= LETTER_NAMES:
        return tuple(string.ascii_uppercase[:num_vars])
    return tuple(f"x{i}" for i in range(1, num_vars + 1))


def literal_text(literal: int, names: Sequence[str]) -> str:
    """SATURN's spelling of a literal: the name, with ``!`` in front when negated."""
    return ("!" if literal < 0 else "") + names[abs(literal) - 1]


def clause_text(clause: Clause, names: Sequence[str]) -> str:
    """SATURN's spelling of a clause: its literals concatenated (``A!BC``)."""
    return "".join(literal_text(literal, names) for literal in clause)


@cache
def _literal_texts(num_vars: int) -> dict[int, str]:
    names = variable_names(num_vars)
    return {
        sign * v: literal_text(sign * v, names) for v in range(1, num_vars + 1) for sign in (1, -1)
    }


@lru_cache(maxsize=1 << 16)
def clause_string(clause: Clause, num_vars: int) -> str:
    """:func:`clause_text` for a formula over ``num_vars`` variables, cached.

    Formulas at one level share few distinct clauses, and a dataset build spells each of
    them many times.
    """
    texts = _literal_texts(num_vars)
    return "".join([texts[literal] for literal in clause])


#: Spellings :func:`clause_strings` keeps per variable count before it empties its cache.
CLAUSE_TEXTS_MAX = 1 << 16


@cache
def _clause_texts(num_vars: int) -> dict[Clause, str]:
    """The spellings met so far of clauses over ``num_vars`` variables (filled as spelled)."""
    return {}


def clause_strings(clauses: Sequence[Clause], num_vars: int) -> list[str]:
    """:func:`clause_string` of each clause, one dict lookup per clause.

    A reset spells a formula's few dozen clauses; an ``lru_cache`` call per clause (which
    builds and hashes an argument tuple) costs more than the rest of the spelling.
    """
    texts = _clause_texts(num_vars)
    if len(texts) > CLAUSE_TEXTS_MAX:
        texts.clear()
    found = list(map(texts.get, clauses))  # map: the usual all-known case runs in C
    if all(found):  # spellings are never empty
        return cast("list[str]", found)
    return [
        text or texts.setdefault(clause, clause_string(clause, num_vars))
        for clause, text in zip(clauses, found, strict=True)
    ]


def canonical_clause(literals: Sequence[int]) -> Clause:
    """A clause with its literals in variable order (SATURN writes them so)."""
    return tuple(sorted((int(x) for x in literals), key=abs))


def canonical_clauses(clauses: Sequence[Clause], num_vars: int) -> tuple[Clause, ...]:
    """Clauses in SATURN's order: sorted by their text (ASCII, so ``!`` before letters).

    With more than 26 variables the text order would put ``x10`` before ``x2``; those
    formulas are sorted by (variable, negated-first) pairs instead, the same order for
    letter names.
    """
    if num_vars <= LETTER_NAMES:
        return tuple(sorted(clauses, key=lambda clause: clause_string(clause, num_vars)))
    return tuple(sorted(clauses, key=lambda clause: [(abs(x), x > 0) for x in clause]))


@dataclass(frozen=True)
class Formula:
    """A CNF formula over ``num_vars`` variables.

    Attributes:
        num_vars: Number of variables (some may appear in no clause).
        clauses: The clauses, each a tuple of DIMACS literals.
    """

    num_vars: int
    clauses: tuple[Clause, ...]

    def __post_init__(self) -> None:
        if self.num_vars < 1:
            raise ValueError(f"a formula needs at least one variable, got {self.num_vars}")
        literals = [literal for clause in self.clauses for literal in clause]
        # One pass over the flat literals in the common case; the slow loop only names
        # the culprit.
        if all(self.clauses) and (
            not literals or (0 not in literals and max(map(abs, literals)) <= self.num_vars)
        ):
            return
        for index, clause in enumerate(self.clauses):
            if not clause:
                raise ValueError(f"clause {index + 1} is empty")
            for literal in clause:
                if literal == 0 or abs(literal) > self.num_vars:
                    raise ValueError(
                        f"clause {index + 1} has literal {literal}, outside ±1..±{self.num_vars}"
                    )

    @classmethod
    def trusted(cls, num_vars: int, clauses: tuple[Clause, ...]) -> Formula:
        """A formula from clauses already known to be well formed (no check made).

        For generators whose clauses are valid by construction, where the check would
        cost a reset more than the rest of building the formula.
        """
        formula = object.__new__(cls)
        object.__setattr__(formula, "num_vars", num_vars)
        object.__setattr__(formula, "clauses", clauses)
        return formula

    @property
    def num_clauses(self) -> int:
        """Number of clauses."""
        return len(self.clauses)

    @property
    def clause_width(self) -> int:
        """Literals in the widest clause (every clause has this many in generated formulas)."""
        return max((len(clause) for clause in self.clauses), default=0)

    @property
    def names(self) -> tuple[str, ...]:
        """The variables' names."""
        return variable_names(self.num_vars)

    def satisfies(self, bits: str) -> bool:
        """Whether a full 0/1 assignment (``"0110..."``) satisfies every clause."""
        return not self.violated(bits)

    def violated(self, bits: str) -> list[int]:
        """0-based indices of the clauses a full 0/1 assignment falsifies."""
        if len(bits) != self.num_vars or set(bits) - {"0", "1"}:
            raise ValueError(f"an assignment is {self.num_vars} characters of 0/1, got {bits!r}")
        return saturn_violated(self, bits)


def saturn_violated(formula: Formula, answer: str) -> list[int]:
    """Clauses a SATURN-style answer string does not satisfy, by SATURN's own rule.

    Position ``i`` of ``answer`` is variable ``i + 1``. A positive literal holds when its
    character is ``1``, a negated one when it is ``0``; any other character makes neither
    hold, and a variable past the end of the answer reads as ``0`` (as SATURN's
    ``calc_sat_value`` does). For a clean 0/1 string of the right length this is the
    ordinary truth value.
    """
    violated = []
    length = len(answer)
    for index, clause in enumerate(formula.clauses):
        for literal in clause:
            position = abs(literal) - 1
            value = answer[position] if position < length else "0"
            if value == ("1" if literal > 0 else "0"):
                break
        else:
            violated.append(index)
    return violated


def partial_status(formula: Formula, values: Sequence[int | None]) -> tuple[list[int], list[int]]:
    """Clauses a partial assignment falsifies and clauses it leaves open.

    Args:
        formula: The formula.
        values: One entry per variable: 1, 0, or None (not set).

    Returns:
        ``(violated, open)``: 0-based indices of clauses whose every literal is false, and of
        clauses with no true literal but some unset variable.
    """
    violated: list[int] = []
    undecided: list[int] = []
    for index, clause in enumerate(formula.clauses):
        unset = False
        for literal in clause:
            value = values[abs(literal) - 1]
            if value is None:
                unset = True
            elif value == (1 if literal > 0 else 0):
                break
        else:
            (undecided if unset else violated).append(index)
    return violated, undecided
