"""Metrics over episode records: pass@k, rliable aggregates, top-k selection, regret, ratings.

Each metric is a pure function over arrays, documented with its formula and its source;
thin adapters compute it from :class:`~envsuite.records.EpisodeRecord` lists only, never
from anything a run claims about itself. Intervals are seeded percentile bootstraps.
"""

from envsuite.evaluation.metrics.aggregates import (
    AGGREGATES,
    aggregate_intervals,
    aggregate_iqm,
    aggregate_mean,
    aggregate_median,
    optimality_gap,
    score_matrix,
    stratified_bootstrap_interval,
    success_rate,
    trim_mean,
)
from envsuite.evaluation.metrics.bootstrap import Interval, bootstrap_interval, percentile_interval
from envsuite.evaluation.metrics.env_summary import EnvSummary, summarize_by_env
from envsuite.evaluation.metrics.exploration import (
    exploration_from_records,
    min_frac,
    opt_frac,
    optimal_pulls_from_records,
    suffix_failure,
    suffix_failure_frequency,
)
from envsuite.evaluation.metrics.pass_at_k import (
    PassAtKResult,
    ProblemAttempts,
    count_attempts,
    mean_pass_at_k,
    pass_at_k,
    pass_at_k_from_records,
    pass_at_k_interval,
    pass_hat_k,
)
from envsuite.evaluation.metrics.rating_ranks import rank_intervals, tie_groups
from envsuite.evaluation.metrics.ratings import (
    ELO_SCALE,
    bootstrap_rating_samples,
    bootstrap_ratings,
    bradley_terry_ratings,
    bradley_terry_strengths,
    to_elo,
)
from envsuite.evaluation.metrics.record_groups import problem_key, task_key, task_label
from envsuite.evaluation.metrics.regret import (
    RegretSummary,
    bandit_pseudo_regret,
    cumulative_regret,
    dynamic_regret,
    external_regret,
    final_metric,
    matrix_game_external_regret,
    regret_curves,
    regret_curves_by_seed,
    regret_summary,
)
from envsuite.evaluation.metrics.sublinearity import (
    LINEAR_EXPONENT,
    MannKendall,
    SublinearityVerdict,
    loglog_slope,
    mann_kendall,
    normal_cdf,
    sublinearity_verdict,
    verdict_rule,
)
from envsuite.evaluation.metrics.top_k import (
    TopKMetrics,
    rank_by_estimate,
    regret_at_k,
    top_k_metrics,
    top_k_table,
)

__all__ = [
    "AGGREGATES",
    "ELO_SCALE",
    "LINEAR_EXPONENT",
    "EnvSummary",
    "Interval",
    "MannKendall",
    "PassAtKResult",
    "ProblemAttempts",
    "RegretSummary",
    "SublinearityVerdict",
    "TopKMetrics",
    "aggregate_intervals",
    "aggregate_iqm",
    "aggregate_mean",
    "aggregate_median",
    "bandit_pseudo_regret",
    "bootstrap_interval",
    "bootstrap_rating_samples",
    "bootstrap_ratings",
    "bradley_terry_ratings",
    "bradley_terry_strengths",
    "count_attempts",
    "cumulative_regret",
    "dynamic_regret",
    "exploration_from_records",
    "external_regret",
    "final_metric",
    "loglog_slope",
    "mann_kendall",
    "matrix_game_external_regret",
    "mean_pass_at_k",
    "min_frac",
    "normal_cdf",
    "opt_frac",
    "optimal_pulls_from_records",
    "optimality_gap",
    "pass_at_k",
    "pass_at_k_from_records",
    "pass_at_k_interval",
    "pass_hat_k",
    "percentile_interval",
    "problem_key",
    "rank_by_estimate",
    "rank_intervals",
    "regret_at_k",
    "regret_curves",
    "regret_curves_by_seed",
    "regret_summary",
    "score_matrix",
    "stratified_bootstrap_interval",
    "sublinearity_verdict",
    "success_rate",
    "suffix_failure",
    "suffix_failure_frequency",
    "summarize_by_env",
    "task_key",
    "task_label",
    "tie_groups",
    "to_elo",
    "top_k_metrics",
    "top_k_table",
    "trim_mean",
    "verdict_rule",
]
