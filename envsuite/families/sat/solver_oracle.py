"""The SAT envs' oracle: an agent that reads the formula from its observation and solves it.

It parses the problem text (SATURN, DIMACS or English, see ``problem_parsing.py``) as any
text agent must, runs python-sat's solver on it, and answers in the env's format: a boxed
assignment or verdict for ``SAT-v0``, an ``assign`` command for ``SATInteractive-v0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from envsuite.families.sat import solver
from envsuite.families.sat.problem_parsing import parse_prompt

AnswerStyle = Literal["boxed", "decision", "command"]


class SolverAgent:
    r"""Solves the problem in the first observation of each episode with a SAT solver.

    Args:
        style: ``boxed`` (``\boxed{bits}``), ``decision`` (``\boxed{SAT}`` /
            ``\boxed{UNSAT}``) or ``command`` (``assign bits``, repeated every turn).
    """

    def __init__(self, style: AnswerStyle = "boxed") -> None:
        self.style = style
        self.answer: str | None = None

    def reset(self, seed: int | None = None) -> None:
        """Forget the last problem (the agent is deterministic; ``seed`` is unused)."""
        self.answer = None

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        """Solve the problem on the first call of an episode, then give the answer."""
        if self.answer is None:
            self.answer = self._solve(str(observation))
        return self.answer

    def _solve(self, text: str) -> str:
        formula = parse_prompt(text)
        model = solver.solve(formula)
        if self.style == "decision":
            verdict = "SAT" if model is not None else "UNSAT"
            return f"The solver decides the formula.\n\\boxed{{{verdict}}}"
        if model is None:
            # An unsatisfiable problem has no right assignment; say so without a box.
            return "The formula is unsatisfiable."
        if self.style == "command":
            return f"assign {model}"
        return f"This assignment satisfies every clause.\n\\boxed{{{model}}}"


def sat_oracle(env: Any) -> SolverAgent:
    """The ``SAT-v0`` oracle: boxed assignments, or verdicts for ``task="decide"``."""
    return SolverAgent("decision" if env.unwrapped.task == "decide" else "boxed")


def interactive_oracle(env: Any) -> SolverAgent:
    """The ``SATInteractive-v0`` oracle: one ``assign`` command with a solution."""
    return SolverAgent("command")
