"""The SAT envs' action space: any text, sampled as a uniformly random well-formed answer.

Like every envsuite text space it contains every string up to its length limit (an LLM may
answer anything). Its :meth:`AnswerText.sample` draws a uniformly random assignment (or
verdict) written the way the env expects, so ``action_space.sample()`` (and with it
envsuite's random agent) is the uniform-guess baseline, whose success rate falls with
difficulty as (solutions / 2^num_vars).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from envsuite.spaces import UnicodeText

AnswerKind = Literal["boxed_assignment", "decision", "assign_command"]


class AnswerText(UnicodeText):
    r"""A text space whose samples are random answers of one kind.

    Args:
        max_length: Longest string contained.
        num_vars: Variables in a sampled assignment.
        kind: ``boxed_assignment`` (``\boxed{0110}``), ``decision`` (``\boxed{SAT}`` or
            ``\boxed{UNSAT}``) or ``assign_command`` (``assign 0110``).
        seed: Seed for the space's own generator (used only by :meth:`sample`).
    """

    def __init__(
        self,
        max_length: int,
        *,
        num_vars: int,
        kind: AnswerKind,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        super().__init__(max_length, seed=seed)
        self.num_vars = num_vars
        self.kind = kind

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A uniformly random answer (with a mask or probabilities: a random string, as Text)."""
        if mask is not None or probability is not None:
            return str(super().sample(mask, probability))
        rng = self.np_random
        if self.kind == "decision":
            return "\\boxed{SAT}" if rng.random() < 0.5 else "\\boxed{UNSAT}"
        codes = rng.integers(0, 2, size=self.num_vars, dtype=np.uint8) + ord("0")
        bits = codes.tobytes().decode("ascii")
        return f"assign {bits}" if self.kind == "assign_command" else f"\\boxed{{{bits}}}"
