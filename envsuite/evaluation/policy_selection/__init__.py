"""Policy selection: cheap value estimates of candidate policies, scored by SharpeRatio@k.

Given candidate agents, each estimator (a small on-policy episode budget, or off-policy
estimates from a behaviour agent's logged episodes) ranks them; a full evaluation gives
their true values; the top-k tables (:mod:`envsuite.evaluation.metrics.top_k`) say how
good and how risky the portfolio each estimator picks is. ``envsuite select`` runs it.

Modules: :mod:`.policy` (the stochastic-policy protocol), :mod:`.estimators` (IS, PDIS,
SNIS, SNPDIS, DR), :mod:`.q_model` (the DR model), :mod:`.replay` (logged data),
:mod:`.candidates` (candidate strings) and :mod:`.selection` (the workflow).
"""

from envsuite.evaluation.policy_selection.candidates import (
    Candidate,
    CandidateError,
    load_candidates_file,
    parse_candidate,
)
from envsuite.evaluation.policy_selection.config import ESTIMATORS, SelectionConfig, SelectionError
from envsuite.evaluation.policy_selection.estimators import (
    cumulative_weights,
    doubly_robust,
    effective_sample_size,
    per_decision_is,
    self_normalized_is,
    self_normalized_pdis,
    trajectory_is,
)
from envsuite.evaluation.policy_selection.logged_replay import (
    LoggedData,
    LoggedReplayError,
    replay_logged,
)
from envsuite.evaluation.policy_selection.policy import (
    LoggingPolicy,
    PolicyProbabilityError,
    StochasticPolicy,
)
from envsuite.evaluation.policy_selection.results import SelectionResult
from envsuite.evaluation.policy_selection.selection import run_selection

__all__ = [
    "ESTIMATORS",
    "Candidate",
    "CandidateError",
    "LoggedData",
    "LoggedReplayError",
    "LoggingPolicy",
    "PolicyProbabilityError",
    "SelectionConfig",
    "SelectionError",
    "SelectionResult",
    "StochasticPolicy",
    "cumulative_weights",
    "doubly_robust",
    "effective_sample_size",
    "load_candidates_file",
    "parse_candidate",
    "per_decision_is",
    "replay_logged",
    "run_selection",
    "self_normalized_is",
    "self_normalized_pdis",
    "trajectory_is",
]
