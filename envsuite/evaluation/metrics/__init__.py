"""Metrics over episode records: pass@k, rliable aggregates, top-k, regret, win rates, ratings.

Each metric is a pure function over arrays, documented with its formula and its source;
thin adapters compute it from :class:`~envsuite.records.EpisodeRecord` lists only, never
from anything a run claims about itself. Intervals are seeded percentile bootstraps.

The names below are imported from their submodules on first use (PEP 562), so a command
that needs one metric (``envsuite eval`` its summary) does not import the others (ratings,
game outcomes, sublinearity tests, ...).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Eager, not on first use: importing the submodule ``pass_at_k`` would otherwise bind the
# package's name ``pass_at_k`` to the module, shadowing the function of that name.
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

if TYPE_CHECKING:
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
    from envsuite.evaluation.metrics.bootstrap import (
        Interval,
        bootstrap_interval,
        percentile_interval,
    )
    from envsuite.evaluation.metrics.env_summary import EnvSummary, summarize_by_env
    from envsuite.evaluation.metrics.exploration import (
        exploration_from_records,
        min_frac,
        opt_frac,
        optimal_pulls_from_records,
        suffix_failure,
        suffix_failure_frequency,
    )
    from envsuite.evaluation.metrics.game_outcomes import (
        DIMENSIONS,
        SeatResult,
        WinRate,
        seat_results,
        win_rates,
    )
    from envsuite.evaluation.metrics.game_ratings import (
        AgentRating,
        agent_ratings,
        bootstrap_episode_ratings,
        elo_ratings,
        episode_matches,
        episode_ratings,
        game_matches,
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
    from envsuite.evaluation.metrics.seat_returns import GroupReturn, group_returns
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
    from envsuite.evaluation.metrics.wilson import wilson_interval

#: Public name -> the submodule defining it, imported on first use (see above).
_SUBMODULE_OF: dict[str, str] = {
    "AGGREGATES": "aggregates",
    "AgentRating": "game_ratings",
    "DIMENSIONS": "game_outcomes",
    "ELO_SCALE": "ratings",
    "EnvSummary": "env_summary",
    "GroupReturn": "seat_returns",
    "Interval": "bootstrap",
    "LINEAR_EXPONENT": "sublinearity",
    "MannKendall": "sublinearity",
    "RegretSummary": "regret",
    "SeatResult": "game_outcomes",
    "SublinearityVerdict": "sublinearity",
    "TopKMetrics": "top_k",
    "WinRate": "game_outcomes",
    "agent_ratings": "game_ratings",
    "aggregate_intervals": "aggregates",
    "aggregate_iqm": "aggregates",
    "aggregate_mean": "aggregates",
    "aggregate_median": "aggregates",
    "bandit_pseudo_regret": "regret",
    "bootstrap_episode_ratings": "game_ratings",
    "bootstrap_interval": "bootstrap",
    "bootstrap_rating_samples": "ratings",
    "bootstrap_ratings": "ratings",
    "bradley_terry_ratings": "ratings",
    "bradley_terry_strengths": "ratings",
    "cumulative_regret": "regret",
    "dynamic_regret": "regret",
    "elo_ratings": "game_ratings",
    "episode_matches": "game_ratings",
    "episode_ratings": "game_ratings",
    "exploration_from_records": "exploration",
    "external_regret": "regret",
    "final_metric": "regret",
    "game_matches": "game_ratings",
    "group_returns": "seat_returns",
    "loglog_slope": "sublinearity",
    "mann_kendall": "sublinearity",
    "matrix_game_external_regret": "regret",
    "min_frac": "exploration",
    "normal_cdf": "sublinearity",
    "opt_frac": "exploration",
    "optimal_pulls_from_records": "exploration",
    "optimality_gap": "aggregates",
    "percentile_interval": "bootstrap",
    "problem_key": "record_groups",
    "rank_by_estimate": "top_k",
    "rank_intervals": "rating_ranks",
    "regret_at_k": "top_k",
    "regret_curves": "regret",
    "regret_curves_by_seed": "regret",
    "regret_summary": "regret",
    "score_matrix": "aggregates",
    "seat_results": "game_outcomes",
    "stratified_bootstrap_interval": "aggregates",
    "sublinearity_verdict": "sublinearity",
    "success_rate": "aggregates",
    "suffix_failure": "exploration",
    "suffix_failure_frequency": "exploration",
    "summarize_by_env": "env_summary",
    "task_key": "record_groups",
    "task_label": "record_groups",
    "tie_groups": "rating_ranks",
    "to_elo": "ratings",
    "top_k_metrics": "top_k",
    "top_k_table": "top_k",
    "trim_mean": "aggregates",
    "verdict_rule": "sublinearity",
    "wilson_interval": "wilson",
    "win_rates": "game_outcomes",
}


def __getattr__(name: str) -> Any:
    module = _SUBMODULE_OF.get(name)  # the names above, bound on first use
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "AGGREGATES",
    "DIMENSIONS",
    "ELO_SCALE",
    "LINEAR_EXPONENT",
    "AgentRating",
    "EnvSummary",
    "GroupReturn",
    "Interval",
    "MannKendall",
    "PassAtKResult",
    "ProblemAttempts",
    "RegretSummary",
    "SeatResult",
    "SublinearityVerdict",
    "TopKMetrics",
    "WinRate",
    "agent_ratings",
    "aggregate_intervals",
    "aggregate_iqm",
    "aggregate_mean",
    "aggregate_median",
    "bandit_pseudo_regret",
    "bootstrap_episode_ratings",
    "bootstrap_interval",
    "bootstrap_rating_samples",
    "bootstrap_ratings",
    "bradley_terry_ratings",
    "bradley_terry_strengths",
    "count_attempts",
    "cumulative_regret",
    "dynamic_regret",
    "elo_ratings",
    "episode_matches",
    "episode_ratings",
    "exploration_from_records",
    "external_regret",
    "final_metric",
    "game_matches",
    "group_returns",
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
    "seat_results",
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
    "wilson_interval",
    "win_rates",
]
