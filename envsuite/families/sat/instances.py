"""SAT instances with their metadata, and the one entry point that generates them.

An :class:`Instance` is a formula plus what is known about it: the level, satisfiability,
the number of solutions (counted up to a cap), SATURN's difficulty D, the planted assignment
when there is one, and where it came from. :func:`generate_instance` draws one from a
level with the generator, task and uniqueness asked for.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from envsuite.families.sat import solver
from envsuite.families.sat.cnf import Formula
from envsuite.families.sat.levels import Level, saturn_difficulty
from envsuite.families.sat.planted_ksat import check_planted_level, planted_instance_unchecked
from envsuite.families.sat.random_ksat import (
    GenerationError,
    check_random_level,
    check_unsat_possible,
    random_satisfiable,
    random_unsatisfiable,
)

GeneratorName = Literal["planted", "random"]
Task = Literal["solve", "decide"]
GENERATORS: tuple[GeneratorName, ...] = ("planted", "random")
TASKS: tuple[Task, ...] = ("solve", "decide")

#: Draws tried for an instance with exactly one solution before giving up.
MAX_UNIQUE_TRIES = 2000


@dataclass(frozen=True)
class Instance:
    """A formula and what is known about it.

    Attributes:
        formula: The CNF formula.
        clause_width: Literals per clause (SATURN's ``n_sat``).
        satisfiable: Whether some assignment satisfies it.
        num_solutions: Satisfying assignments, counted up to ``solution_cap`` (None when
            ``solution_cap`` is 0: not counted).
        solution_cap: The cap on the count (``num_solutions == solution_cap`` means "at least").
        planted: The planted assignment (0/1 string), or None.
        generator: How it was made: ``planted``, ``random``, ``random-unsat``,
            ``random-unsat-repaired`` (see :mod:`~envsuite.families.sat.random_ksat`) or
            ``dataset``.
        source: Where it came from (``file.jsonl#id`` for dataset instances, else "").
    """

    formula: Formula
    clause_width: int
    satisfiable: bool
    num_solutions: int | None
    solution_cap: int
    planted: str | None = None
    generator: str = "planted"
    source: str = ""

    @classmethod
    def trusted(
        cls,
        formula: Formula,
        clause_width: int,
        satisfiable: bool,
        num_solutions: int | None,
        solution_cap: int,
        planted: str | None,
        generator: str,
    ) -> Instance:
        """The instance with these fields, made without the frozen dataclass's ``__init__``.

        That ``__init__`` sets each field with its own ``object.__setattr__`` call, which
        costs a reset more than the rest of building the instance; this fills the
        instance's ``__dict__`` in one update (the same fields, in the same order).
        """
        instance = object.__new__(cls)
        instance.__dict__.update(
            formula=formula,
            clause_width=clause_width,
            satisfiable=satisfiable,
            num_solutions=num_solutions,
            solution_cap=solution_cap,
            planted=planted,
            generator=generator,
            source="",
        )
        return instance

    @property
    def level(self) -> Level:
        """The instance's (clause_width, num_vars, num_clauses)."""
        return Level(self.clause_width, self.formula.num_vars, self.formula.num_clauses)

    @property
    def difficulty(self) -> float:
        """SATURN's D(n, k, l)."""
        return saturn_difficulty(self.clause_width, self.formula.num_vars, self.formula.num_clauses)

    def metadata(self) -> dict[str, Any]:
        """The info entries every SAT env reports about its instance."""
        num_vars, num_clauses = self.formula.num_vars, self.formula.num_clauses
        name, difficulty = _level_facts(self.clause_width, num_vars, num_clauses)
        return {
            "clause_width": self.clause_width,
            "num_vars": num_vars,
            "num_clauses": num_clauses,
            "level": name,
            "difficulty": difficulty,
            "satisfiable": self.satisfiable,
            "num_solutions": self.num_solutions,
            "num_solutions_capped": (
                None if self.num_solutions is None else self.num_solutions >= self.solution_cap
            ),
            "generator": self.generator,
            "source": self.source,
        }


@functools.lru_cache(maxsize=256)
def _level_facts(clause_width: int, num_vars: int, num_clauses: int) -> tuple[str, float]:
    """A level's name and SATURN's difficulty (cached: every reset reports them)."""
    level = Level(clause_width, num_vars, num_clauses)
    return level.name, level.difficulty


@dataclass(frozen=True)
class GenerationSettings:
    """How instances are drawn at a level.

    Attributes:
        generator: ``planted`` (SATURN's) or ``random`` (uniform, filtered by the solver).
        task: ``solve`` (satisfiable instances; the answer is an assignment) or ``decide``
            (satisfiable or not with probability 1/2 each, uniform random formulas for both
            so that no statistic of the formula gives the label away).
        unique_solution: Keep only instances with exactly one solution (``solve`` only).
        solution_cap: Solutions are counted up to this many; 0 skips the count (it takes
            a solver run per instance, which is slow for large formulas near the threshold).
    """

    generator: GeneratorName = "planted"
    task: Task = "solve"
    unique_solution: bool = False
    solution_cap: int = 100

    def __post_init__(self) -> None:
        if self.generator not in GENERATORS:
            raise ValueError(f"generator must be one of {GENERATORS}, got {self.generator!r}")
        if self.task not in TASKS:
            raise ValueError(f"task must be one of {TASKS}, got {self.task!r}")
        if self.task == "decide" and self.generator != "random":
            raise ValueError(
                "task='decide' draws uniform random formulas for both answers (planted ones "
                "would give the answer away); use generator='random' or leave it unset"
            )
        if self.task == "decide" and self.unique_solution:
            raise ValueError("unique_solution applies to task='solve' only")
        if isinstance(self.solution_cap, bool) or not isinstance(self.solution_cap, int):
            raise ValueError(f"solution_cap must be an int, got {self.solution_cap!r}")
        if self.solution_cap < 0 or self.solution_cap == 1:
            raise ValueError(
                f"solution_cap must be 0 (do not count) or at least 2, got {self.solution_cap}"
            )

    def check_level(self, level: Level) -> None:
        """Raise ValueError when no instance of this kind exists at ``level``."""
        if self.generator == "planted":
            check_planted_level(level)
        else:
            check_random_level(level)
        if self.task == "decide":
            check_unsat_possible(level)


def generate_instance(
    rng: np.random.Generator, level: Level, settings: GenerationSettings
) -> Instance:
    """Draw one instance at ``level`` from ``rng``.

    Raises:
        ValueError: no instance of this kind exists at ``level``.
        GenerationError: the kind is possible but too rare at this level to be found within
            the generator's budget (e.g. a unique solution with very few clauses).
    """
    settings.check_level(level)
    cap = settings.solution_cap
    if settings.task == "decide":
        if rng.random() < 0.5:
            formula, _ = random_satisfiable(rng, level)
            return Instance(
                formula, level.clause_width, True, _count(formula, cap), cap, None, "random"
            )
        formula, method = random_unsatisfiable(rng, level)
        generator = "random-unsat" if method == "uniform" else "random-unsat-repaired"
        return Instance(formula, level.clause_width, False, 0, cap, None, generator)
    tries = MAX_UNIQUE_TRIES if settings.unique_solution else 1
    count: int | None
    for _ in range(tries):
        if settings.generator == "planted":
            formula, planted = planted_instance_unchecked(rng, level)  # checked above
        else:
            formula, planted = random_satisfiable(rng, level)
        if settings.unique_solution:
            # Two solutions are enough to reject; a unique one is counted exactly.
            if solver.count_solutions(formula, 2) != 1:
                continue
            count = 1
        else:
            count = _count(formula, cap)
        kept = planted if settings.generator == "planted" else None
        return Instance.trusted(
            formula, level.clause_width, True, count, cap, kept, settings.generator
        )
    raise GenerationError(
        f"{level.name}: none of {tries} {settings.generator} instances had a unique solution; "
        "add clauses (a unique solution needs the formula to pin every variable down)"
    )


def _count(formula: Formula, cap: int) -> int | None:
    """Solutions up to ``cap``, or None when ``cap`` is 0 (counting switched off)."""
    return solver.count_solutions(formula, cap) if cap else None
