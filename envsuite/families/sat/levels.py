"""Difficulty levels: (clause_width, num_vars, num_clauses), SATURN's estimate D, and ladders.

SATURN writes a level as ``(n, k, l)``: n literals per clause, k variables, l clauses.
envsuite calls these ``clause_width``, ``num_vars`` and ``num_clauses`` (SATURN's n and k
are not pass@k's n and k). A level's canonical name keeps SATURN's letters, ``n3-k5-l20``.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_CANONICAL = re.compile(r"^n(?P<n>[1-9][0-9]*)-k(?P<k>[1-9][0-9]*)-l(?P<l>[1-9][0-9]*)$")


def saturn_difficulty(clause_width: int, num_vars: int, num_clauses: int) -> float:
    """SATURN's difficulty estimate D(n, k, l) = log2(k) + 2·log2(l) − n + k/n."""
    return math.log2(num_vars) + 2 * math.log2(num_clauses) - clause_width + num_vars / clause_width


def max_distinct_clauses(clause_width: int, num_vars: int, *, satisfied_by_one: bool) -> int:
    """How many distinct clauses of width n over k variables exist.

    Args:
        clause_width: Literals per clause (distinct variables).
        num_vars: Variables.
        satisfied_by_one: Count only the clauses one fixed assignment satisfies (the planted
            generator's pool): C(k, n)·(2^n − 1) instead of C(k, n)·2^n.
    """
    signs = 2**clause_width - (1 if satisfied_by_one else 0)
    return math.comb(num_vars, clause_width) * signs


@dataclass(frozen=True, order=True)
class Level:
    """One difficulty level.

    Attributes:
        clause_width: Literals per clause (SATURN's n).
        num_vars: Number of variables (SATURN's k).
        num_clauses: Number of clauses (SATURN's l).
    """

    clause_width: int
    num_vars: int
    num_clauses: int

    def __post_init__(self) -> None:
        for field in ("clause_width", "num_vars", "num_clauses"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{field} must be an int >= 1, got {value!r}")
        if self.clause_width > self.num_vars:
            raise ValueError(
                f"clause_width ({self.clause_width}) cannot exceed num_vars ({self.num_vars}): "
                "a clause holds distinct variables"
            )

    @property
    def name(self) -> str:
        """The canonical name, ``n3-k5-l20``."""
        return f"n{self.clause_width}-k{self.num_vars}-l{self.num_clauses}"

    @property
    def difficulty(self) -> float:
        """SATURN's D(n, k, l)."""
        return saturn_difficulty(self.clause_width, self.num_vars, self.num_clauses)

    def as_kwargs(self) -> dict[str, int]:
        """The env keyword arguments that select this level."""
        return {
            "clause_width": self.clause_width,
            "num_vars": self.num_vars,
            "num_clauses": self.num_clauses,
        }


#: SATURN's four training stages (Saturn-2.6k ``train/``), easiest first.
SATURN_TRAIN_LEVELS = (Level(3, 5, 5), Level(3, 5, 6), Level(3, 5, 13), Level(3, 5, 15))
#: SATURN's ten harder test levels (Saturn-2.6k ``test/``), in its file order.
SATURN_TEST_LEVELS = (
    Level(3, 5, 20),
    Level(3, 5, 25),
    Level(3, 6, 20),
    Level(3, 7, 20),
    Level(3, 7, 40),
    Level(4, 7, 20),
    Level(4, 7, 40),
    Level(4, 8, 40),
    Level(5, 8, 40),
    Level(6, 7, 40),
)

#: Named levels besides the canonical ``nN-kK-lL`` names.
NAMED_LEVELS: dict[str, Level] = {
    **{f"saturn-stage-{i}": level for i, level in enumerate(SATURN_TRAIN_LEVELS, start=1)},
    **{f"saturn-test-{i}": level for i, level in enumerate(SATURN_TEST_LEVELS, start=1)},
}

#: Named ladders (easiest first, D strictly increasing).
LADDERS: dict[str, tuple[Level, ...]] = {
    # Every Saturn-2.6k level, by D.
    "saturn": tuple(
        sorted(SATURN_TRAIN_LEVELS + SATURN_TEST_LEVELS, key=lambda level: level.difficulty)
    ),
    # The sat-curriculum ladder: SATURN's range, then beyond it (more variables at a
    # clause/variable ratio near 4.26, where random 3-SAT is hardest).
    "default": (
        Level(3, 4, 4),
        Level(3, 5, 5),
        Level(3, 5, 13),
        Level(3, 5, 20),
        Level(3, 6, 20),
        Level(3, 7, 20),
        Level(4, 8, 40),
        Level(3, 7, 40),
        Level(3, 10, 43),
        Level(3, 12, 51),
        Level(3, 16, 68),
    ),
}


def parse_level(value: str | Level | Mapping[str, Any] | Sequence[int]) -> Level:
    """A level from a name, a mapping of the three sizes, a 3-sequence or a Level.

    Names are the canonical ``n3-k5-l20`` or one of :data:`NAMED_LEVELS`.

    Raises:
        ValueError: an unknown name or malformed sizes.
    """
    if isinstance(value, Level):
        return value
    if isinstance(value, str):
        if value in NAMED_LEVELS:
            return NAMED_LEVELS[value]
        match = _CANONICAL.match(value)
        if match is None:
            known = ", ".join(NAMED_LEVELS)
            raise ValueError(
                f"unknown level {value!r}: use a name like 'n3-k5-l20' (clause width, "
                f"variables, clauses) or one of {known}"
            )
        return Level(int(match["n"]), int(match["k"]), int(match["l"]))
    if isinstance(value, Mapping):
        unknown = set(value) - {"clause_width", "num_vars", "num_clauses", "name"}
        if unknown:
            raise ValueError(f"unknown level fields {sorted(unknown)}")
        try:
            return Level(value["clause_width"], value["num_vars"], value["num_clauses"])
        except KeyError as exc:
            raise ValueError(f"a level mapping needs {exc.args[0]!r}") from exc
    if isinstance(value, Sequence) and len(value) == 3:
        return Level(*(int(x) for x in value))
    raise ValueError(f"cannot read a level from {value!r}")


def parse_ladder(value: str | Sequence[Any]) -> tuple[Level, ...]:
    """A ladder from a name in :data:`LADDERS` or a sequence of levels (see :func:`parse_level`).

    Raises:
        ValueError: an unknown name, an empty ladder, or levels whose D does not strictly
            increase (a curriculum must move to harder levels).
    """
    if isinstance(value, str):
        if value not in LADDERS:
            raise ValueError(f"unknown ladder {value!r}; known: {', '.join(LADDERS)}")
        return LADDERS[value]
    levels = tuple(parse_level(item) for item in value)
    if not levels:
        raise ValueError("a ladder needs at least one level")
    for easier, harder in itertools.pairwise(levels):
        if not harder.difficulty > easier.difficulty:
            raise ValueError(
                f"ladder levels must get harder: {harder.name} (D={harder.difficulty:.2f}) "
                f"follows {easier.name} (D={easier.difficulty:.2f})"
            )
    return levels
