"""A scripted SAT agent whose skill depends on the problem's difficulty D.

It solves with a real SAT solver, but only with probability ``skill(D)`` (from its own
seeded generator): nearly always up to ``threshold`` and almost never beyond. A curriculum
driven by it should climb to the first level past ``threshold`` and stay there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envsuite.families.sat.problem_parsing import parse_prompt
from envsuite.families.sat.solver import solve
from envsuite.seeding import make_generator

#: The agent masters levels up to this D.
THRESHOLD = 11.0


def skill(difficulty: float, threshold: float = THRESHOLD) -> float:
    """Chance of solving one attempt at difficulty D."""
    return 0.95 if difficulty <= threshold else 0.02


class SkillAgent:
    """Solves a problem with probability ``skill(info["difficulty"])``, else gives up."""

    def __init__(self, threshold: float = THRESHOLD) -> None:
        self.threshold = threshold
        self.rng = make_generator(0, "skill-agent")

    def reset(self, seed: int | None = None) -> None:
        self.rng = make_generator(0 if seed is None else seed, "skill-agent")

    def act(self, observation: Any, info: Mapping[str, Any]) -> str:
        if self.rng.random() >= skill(float(info["difficulty"]), self.threshold):
            return "I cannot solve this one."
        model = solve(parse_prompt(str(observation)))
        return f"\\boxed{{{model}}}"
