"""What a policy selection found, and its JSON form."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from envsuite.evaluation.metrics.top_k import TopKMetrics
from envsuite.evaluation.policy_selection.candidates import Candidate
from envsuite.evaluation.policy_selection.config import SelectionConfig


@dataclass(frozen=True)
class CandidateResult:
    """One candidate's true value and estimates.

    Attributes:
        candidate: The candidate.
        true_value: J(π), the mean return over the true-value episodes.
        true_stderr: Standard error of ``true_value``.
        estimates: Estimator name -> estimate (NaN where undefined).
        effective_sample_size: Kish's ESS of the trajectory weights (None without logs).
    """

    candidate: Candidate
    true_value: float
    true_stderr: float
    estimates: dict[str, float]
    effective_sample_size: float | None


@dataclass(frozen=True)
class SelectionResult:
    """What :func:`run_selection` found.

    Attributes:
        config: The request.
        behavior_value: J(π_b) (NaN when there is no behaviour agent).
        behavior_stderr: Its standard error.
        candidates: Per-candidate results, in the order given.
        tables: Estimator name -> the top-k rows, k = 1, ..., K.
        safety_threshold: The resolved safety threshold.
        logged_used: Logged episodes the off-policy estimates used (those without an infra
            error; 0 without off-policy estimators).
    """

    config: SelectionConfig
    behavior_value: float
    behavior_stderr: float
    candidates: list[CandidateResult]
    tables: dict[str, list[TopKMetrics]]
    safety_threshold: float
    logged_used: int = 0

    def to_json(self) -> dict[str, Any]:
        """All numbers as JSON-ready data; NaN and ±inf as the strings "nan", "inf", "-inf"."""
        return {
            "config": self.config.to_json(),
            "behavior": {
                "true_value": number(self.behavior_value),
                "true_stderr": number(self.behavior_stderr),
            },
            "safety_threshold": number(self.safety_threshold),
            "logged_episodes_used": self.logged_used,
            "candidates": [
                {
                    **result.candidate.to_json(),
                    "true_value": number(result.true_value),
                    "true_stderr": number(result.true_stderr),
                    "estimates": {k: number(v) for k, v in result.estimates.items()},
                    "effective_sample_size": number(result.effective_sample_size),
                }
                for result in self.candidates
            ],
            "tables": {
                name: [{k: number(v) for k, v in asdict(row).items()} for row in rows]
                for name, rows in self.tables.items()
            },
        }


def number(value: float | None) -> float | str | None:
    """``value`` for JSON: finite floats as they are, NaN / ±inf as "nan" / "inf" / "-inf"."""
    if value is None or isinstance(value, int):
        return value
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(value)
