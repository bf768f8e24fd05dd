"""Formatting numbers, intervals and ranks the same way in markdown and HTML."""

from __future__ import annotations

import math

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.leaderboard.panel_metrics import duplicate_metrics, exploitability_metrics
from envsuite.leaderboard.standings import Standing, Standings

#: Column titles of the metrics (pass@k keeps its own name).
METRIC_TITLES = {
    "success_rate": "success rate",
    "mean_return": "mean return",
    "mean_score": "mean score",
    "iqm_score": "IQM score",
    "optimality_gap": "optimality gap",
    "regret": "final regret",
    "bradley_terry": "Bradley–Terry rating vs panel",
    "win_rate": "win rate",
    "draw_rate": "draw rate",
    "loss_rate": "loss rate",
}


def metric_title(name: str) -> str:
    """The column title of a metric, with the direction of lower-is-better metrics."""
    kind, _, env = name.partition(":")
    if kind == "exploitability" and env:
        return f"{env} exploitability (chips/game, lower is better)"
    if kind == "unvisited" and env:
        return f"{env} unvisited reachable states"
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
    if standings.board.panel:
        return head + [metric_title(c) for c in standings.columns if c != settings.metric]
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
    if standings.board.panel:
        return cells + [
            str(int(results[c].estimate)) if c.startswith("unvisited:") else interval(results[c])
            for c in standings.columns
            if c != settings.metric
        ]
    cells += [interval(results[c]) for c in _other_columns(standings)]
    cells += [str(row.report.meta.attempts_k), interval(results[f"pass@{k}"])]
    if settings.ratings:
        cells += [interval(row.rating), rank_range(row.rating_ranks)]
    return cells


def _other_columns(standings: Standings) -> list[str]:
    skip = (standings.board.settings.ranking.metric, f"pass@{standings.board.protocol.attempts}")
    return [c for c in standings.columns if c not in skip]


def panel_note(standings: Standings) -> str:
    """How a panel board's ratings, ranks and exploitability were computed."""
    ranking = standings.board.settings.ranking
    protocol = standings.board.protocol
    opponents = ", ".join(f"`{o}`" for o in protocol.opponents)
    many_seats = bool(duplicate_metrics(protocol))
    if many_seats:
        played = (
            f"Every entry played each seed in every seat, each panel opponent ({opponents}) "
            "filling the other seats. Each game is scored in duplicate: 1 when the entry's "
            "seat did better than the same opponent's own play of that seat in the same deal "
            "(its self-play game in the frozen round robin), 0 when worse, 1/2 when the same; "
            "duplicate:OPPONENT is the mean of that score against each field. "
        )
    else:
        played = (
            f"Every entry played each seed against each panel opponent ({opponents}) from "
            "both seats. "
        )
    note = (
        played + "Bradley–Terry rating: the entry's strength against the panel's fixed "
        "strengths (fitted on the panel's frozen round robin, first opponent at 1000, 400 "
        "points a factor 10 in odds; a draw is half a point), from its own games only, so a "
        f"new entry moves no other. Intervals: {ranking.confidence:.0%} bootstrap "
        f"({ranking.reps} replicates, seed {ranking.seed}) over seeds within envs, paired "
        "across entries; the rank interval is the best and worst rank across replicates and "
        "overlapping entries share a rank (=N)."
    )
    if many_seats and not exploitability_metrics(protocol):
        return note + " Every number is recomputed from the records."
    return note + (
        " Exploitability (poker): what a best "
        "response wins per game over the game value against the strategy estimated from "
        "the entry's own actions, bias-corrected, with its basic bootstrap interval "
        f"({ranking.exploitability_reps} replicates); states the estimate reaches but the "
        "entry never visited are played uniformly (the unvisited column). Every number is "
        "recomputed from the records."
    )


def panel_ratings_note(standings: Standings) -> str:
    """What the reference panel's ratings are ('' on boards without a panel)."""
    panel = standings.panel
    if panel is None:
        return ""
    ranking = standings.board.settings.ranking
    return (
        f"Fixed by the panel's frozen round robin ({len(standings.board.panel_records)} "
        "games, panel.jsonl beside the board file); intervals: "
        f"{ranking.rating_reps} bootstrap replicates over its scored games."
    )


def per_task_note(standings: Standings) -> str:
    """What the per-task table holds."""
    if standings.board.panel and duplicate_metrics(standings.board.protocol):
        return "Mean duplicate points per game against the panel (better 1, same 1/2), per env."
    if standings.board.panel:
        return "Mean points per game against the panel (win 1, draw 1/2, loss 0), per env."
    return f"Mean of {metric_title(standings.board.settings.ranking.metric)} over the task's seeds."


def method_note(standings: Standings) -> str:
    """How the intervals and ranks of a standings table were computed."""
    if standings.board.panel:
        return panel_note(standings)
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
