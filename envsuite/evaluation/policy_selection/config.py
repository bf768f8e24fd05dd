"""The request of a policy selection, its estimators and its errors."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from envsuite.errors import EnvsuiteError
from envsuite.evaluation.policy_selection.candidates import Candidate, check_unique
from envsuite.evaluation.policy_selection.q_model import DEFAULT_RIDGE
from envsuite.jsonable import canonical_json
from envsuite.registry import registry

#: Every estimator, in the order tables show them.
ESTIMATORS: tuple[str, ...] = ("budget", "is", "pdis", "snis", "snpdis", "dr")
#: The estimators that need logged episodes of a behaviour agent.
OFF_POLICY: frozenset[str] = frozenset(ESTIMATORS[1:])


class SelectionError(EnvsuiteError, ValueError):
    """A policy-selection request that cannot run, with the reason."""


@dataclass(frozen=True)
class SelectionConfig:
    """Everything a selection run depends on (written to ``OUT/config.json``).

    Attributes:
        env_id: A registered single-agent env id.
        env_kwargs: Keyword arguments for the env.
        candidates: The candidate policies (at least 2).
        behavior: The behaviour agent whose logged episodes feed the off-policy estimators.
        estimators: Names from :data:`ESTIMATORS`.
        logged_episodes: Episodes of the behaviour agent to log.
        budget_episodes: On-policy episodes per candidate for ``budget``.
        true_episodes: Episodes per candidate (and the behaviour) for the true value.
        seed: Root seed of every derived seed.
        gamma: Discount of the value (1: undiscounted return).
        ridge: Ridge penalty of the DR model.
        max_k: Largest k of the tables (default: every candidate).
        safety_threshold: Absolute safety threshold (default: 0, SCOPE-RL's).
        relative_safety_criteria: Safety threshold as a fraction of J(π_b).
    """

    env_id: str
    env_kwargs: dict[str, Any]
    candidates: list[Candidate]
    behavior: Candidate | None
    estimators: list[str] = field(default_factory=lambda: list(ESTIMATORS))
    logged_episodes: int = 500
    budget_episodes: int = 10
    true_episodes: int = 1000
    seed: int = 0
    gamma: float = 1.0
    ridge: float = DEFAULT_RIDGE
    max_k: int | None = None
    safety_threshold: float | None = None
    relative_safety_criteria: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON-ready data."""
        data = asdict(self)
        data["candidates"] = [c.to_json() for c in self.candidates]
        data["behavior"] = None if self.behavior is None else self.behavior.to_json()
        return json.loads(canonical_json(data))

    def validate(self) -> None:
        """Check everything that can be checked without building agents.

        Raises:
            SelectionError: unknown estimators, too few candidates or episodes, a missing
                behaviour agent, bad k, γ or thresholds, or a multi-agent env.
            CandidateError: two candidates with one name.
        """
        unknown = [name for name in self.estimators if name not in ESTIMATORS]
        if unknown or not self.estimators:
            raise SelectionError(
                f"unknown estimator(s) {', '.join(unknown) or '(none given)'}; "
                f"choose from {', '.join(ESTIMATORS)}"
            )
        if len(self.candidates) < 2:
            raise SelectionError("policy selection needs at least 2 candidates")
        check_unique(self.candidates)
        if OFF_POLICY & set(self.estimators) and self.behavior is None:
            raise SelectionError("the off-policy estimators need a behaviour agent (--behavior)")
        for what, count, least in (
            ("logged_episodes", self.logged_episodes, 2),
            ("budget_episodes", self.budget_episodes, 1),
            ("true_episodes", self.true_episodes, 1),
        ):
            if count < least:
                raise SelectionError(f"{what} must be at least {least}, got {count}")
        if self.max_k is not None and not 1 <= self.max_k <= len(self.candidates):
            raise SelectionError(f"max_k must be between 1 and {len(self.candidates)}")
        if not 0.0 <= self.gamma <= 1.0:
            raise SelectionError(f"gamma must lie in [0, 1], got {self.gamma}")
        if self.safety_threshold is not None and self.relative_safety_criteria is not None:
            raise SelectionError("give a safety threshold or a relative one, not both")
        if registry[self.env_id].multi_agent:
            raise SelectionError(f"{self.env_id} is multi-agent; selection takes single-agent envs")
