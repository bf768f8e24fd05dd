"""Formatting numbers, intervals and ranks the same way in markdown and HTML."""

from __future__ import annotations

import math

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.leaderboard.standings import Standing, Standings

#: Column titles of the metrics (pass@k keeps its own name).
METRIC_TITLES = {
    "success_rate": "success rate",
    "mean_return": "mean return",
    "mean_score": "mean score",
    "iqm_score": "IQM score",
    "optimality_gap": "optimality gap",
    "regret": "final regret",
}


def metric_title(name: str) -> str:
    """The column title of a metric, with the direction of lower-is-better metrics."""
    title = METRIC_TITLES.get(name, name)
    return f"{title} (lower is better)" if name in ("regret", "optimality_gap") else title


def number(value: float) -> str:
    """A value with as many decimals as its size warrants (3 below 10, 2 below 100, ...)."""
    if math.isnan(value):
        return "n/a"
    size = abs(value)
    digits = 3 if size < 10 else 2 if size < 100 else 1
    return f"{value:.{digits}f}"


def interval(value: Interval | None) -> str:
    """``estimate [low, high]``."""
    if value is None:
        return "-"
    return f"{number(value.estimate)} [{number(value.low)}, {number(value.high)}]"


def rank(position: int, tied: bool) -> str:
    """``1``, or ``=2`` for an entry statistically tied with another."""
    return f"={position}" if tied else str(position)


def rank_range(bounds: tuple[int, int] | None) -> str:
    """``1–3`` (or ``2`` when the interval is one rank)."""
    if bounds is None:
        return "-"
    best, worst = bounds
    return str(best) if best == worst else f"{best}–{worst}"


def metric_header(standings: Standings) -> list[str]:
    """Titles of the metric columns of a standings table (between model and date)."""
    settings = standings.board.settings.ranking
    head = [f"{metric_title(settings.metric)} (95% CI)", "rank interval"]
    head += [metric_title(c) for c in _other_columns(standings)] + ["k", "pass@k"]
    if settings.ratings:
        head += ["Bradley–Terry rating (95% CI)", "rating ranks"]
    return head


def metric_cells(standings: Standings, row: Standing) -> list[str]:
    """The metric cells of one row, matching :func:`metric_header`."""
    settings = standings.board.settings.ranking
    results = row.report.results
    k = standings.board.protocol.attempts
    cells = [interval(row.score), rank_range(row.rank_interval)]
    cells += [interval(results[c]) for c in _other_columns(standings)]
    cells += [str(row.report.meta.attempts_k), interval(results[f"pass@{k}"])]
    if settings.ratings:
        cells += [interval(row.rating), rank_range(row.rating_ranks)]
    return cells


def _other_columns(standings: Standings) -> list[str]:
    skip = (standings.board.settings.ranking.metric, f"pass@{standings.board.protocol.attempts}")
    return [c for c in standings.columns if c not in skip]


def method_note(standings: Standings) -> str:
    """How the intervals and ranks of a standings table were computed."""
    ranking = standings.board.settings.ranking
    note = (
        f"Intervals: {ranking.confidence:.0%} bootstrap ({ranking.reps} replicates, seed "
        f"{ranking.seed}): stratified over seeds within tasks for rates, returns and regret, "
        "over problems for pass@k. Rank interval: the best and worst rank an entry takes "
        "across paired replicates (every entry resampled on the same problems); entries whose "
        "rank intervals overlap share a rank (=N), as statistically tied."
    )
    if ranking.ratings:
        note += (
            " Bradley–Terry ratings: fitted on one match per problem and pair of entries (the "
            f"better {metric_title(ranking.metric)} wins), {ranking.rating_reps} bootstrap "
            "replicates over matches."
        )
    return note + " Every number is recomputed from the records."
