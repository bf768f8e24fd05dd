"""The ``report.md`` section on the agents of multi-agent runs: returns, win rates, ratings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.exploitability import DEFAULT_REPS as EXPLOITABILITY_REPS
from envsuite.evaluation.metrics.game_outcomes import DIMENSION_TITLES
from envsuite.evaluation.metrics.game_ratings import DEFAULT_ELO_K
from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.evaluation.report.formatting import (
    interval,
    markdown_table,
    number,
    percent,
    short_task,
)
from envsuite.evaluation.report.games import (
    ExploitabilityRow,
    MeasureRow,
    RatingRow,
    ReturnRow,
    WinRateRow,
)
from envsuite.evaluation.report.tables import ReportTables


def _rating(value: Interval) -> str:
    return f"{value.estimate:.1f} [{value.low:.1f}, {value.high:.1f}]"


def _intro(tables: ReportTables) -> list[str]:
    coverage = percent(tables.settings.confidence)
    return [
        "## Agents: returns, win rates and ratings",
        "",
        "Who sat in each seat comes from the episode's agent id (`player_0=oracle,...`, or "
        "one agent in every seat), so an agent's rows count every seat it played, and a "
        "seat's rows every agent that sat there (with `seat_rotation`, both). A trial is one "
        "seat of one episode. Mean return: per seat held, with a "
        f"{coverage} interval resampling episodes. Win rate (games whose players record a "
        "win, loss or draw) = wins / trials: **a draw is not a win** and is counted in its "
        f"own column; {coverage} Wilson score intervals, which treat trials as independent "
        "(not so where one agent holds several seats of an episode, as in self-play).",
        "",
    ]


def _returns(rows: Sequence[ReturnRow], several: bool) -> list[str]:
    if not rows:
        return []
    return [
        "Mean return:",
        "",
        *markdown_table(
            [
                *(["agent (run)"] if several else []),
                "by",
                "group",
                "episodes",
                "trials",
                "mean return",
            ],
            [
                [
                    *([row.run] if several else []),
                    DIMENSION_TITLES[row.mean.dimension],
                    row.mean.group,
                    row.mean.episodes,
                    row.mean.trials,
                    interval(row.mean.mean_return),
                ]
                for row in rows
            ],
        ),
    ]


def _win_rates(rows: Sequence[WinRateRow], several: bool) -> list[str]:
    if not rows:
        return []
    headers = ["by", "group", "trials", "wins", "draws", "losses", "win rate", "draw rate"]
    return [
        "Win rate:",
        "",
        *markdown_table(
            [*(["agent (run)"] if several else []), *headers],
            [
                [
                    *([row.run] if several else []),
                    DIMENSION_TITLES[row.rate.dimension],
                    row.rate.group,
                    row.rate.trials,
                    row.rate.wins,
                    row.rate.draws,
                    row.rate.losses,
                    interval(row.rate.win_rate),
                    interval(row.rate.draw_rate),
                ]
                for row in rows
            ],
        ),
    ]


def _measures(tables: ReportTables, rows: Sequence[MeasureRow], several: bool) -> list[str]:
    if not rows:
        return []
    return [
        "Per-player measures (the env's per-player metrics, e.g. belief-probe Brier and log "
        "scores, lower is better; probe accuracy; speaking reward; deception): mean per seat "
        f"that recorded one, with a {percent(tables.settings.confidence)} interval resampling "
        "episodes; each env's docs define its measures.",
        "",
        *markdown_table(
            [*(["agent (run)"] if several else []), "measure", "by", "group", "seats", "mean"],
            [
                [
                    *([row.run] if several else []),
                    row.measure.key,
                    DIMENSION_TITLES[row.measure.dimension],
                    row.measure.group,
                    row.measure.seats,
                    interval(row.measure.mean),
                ]
                for row in rows
            ],
        ),
    ]


def _exploitability(tables: ReportTables, rows: Sequence[ExploitabilityRow]) -> list[str]:
    if not rows:
        return []
    settings = tables.settings
    return [
        "Exploitability (chips per game a best response in the other seat wins over the "
        "game value, mean over the seats the agent held; 0 is an equilibrium): each "
        "agent's strategy is estimated from the "
        "actions it took at each information state it visited (replayed from the records), "
        "**assumed uniform at the states it never visited** (`unvisited reachable` counts "
        "those its own strategy reaches), and a best response is computed over the whole "
        "game tree. Estimate: bias-corrected, with a "
        f"{percent(settings.confidence)} basic bootstrap interval resampling episodes "
        f"({min(settings.reps, EXPLOITABILITY_REPS)} resamples, seed {settings.seed}); "
        "plug-in: the estimated "
        "strategy's own exploitability (biased upwards by sampling noise).",
        "",
        *markdown_table(
            [
                "agent (run)",
                "seats",
                "episodes",
                "decisions",
                "states visited",
                "unvisited reachable",
                "plug-in",
                "exploitability",
            ],
            [
                [
                    f"{row.estimate.agent} ({row.run})",
                    ", ".join(f"player_{seat}" for seat in row.estimate.seats),
                    row.estimate.episodes,
                    row.estimate.decisions,
                    row.estimate.visited,
                    row.estimate.unvisited_reachable,
                    f"{row.estimate.plug_in:.4f}",
                    f"{row.estimate.exploitability.estimate:.4f} "
                    f"[{row.estimate.exploitability.low:.4f}, "
                    f"{row.estimate.exploitability.high:.4f}]",
                ]
                for row in rows
            ],
        ),
    ]


def _ratings(tables: ReportTables, task: TaskKey, rows: Sequence[RatingRow]) -> list[str]:
    if not rows:
        return []
    settings = tables.settings
    runs = ", ".join(tables.games.rated_runs.get(task, []))
    return [
        f"Ratings of the agents from every episode of {runs}: each pair of seats held by "
        "different agents (and not on one team) is a match, a draw half a point. "
        "Bradley–Terry: maximum-likelihood fit on all matches on the Elo scale (mean 1000, "
        f"400 points = odds of 10), {percent(settings.confidence)} percentile interval "
        f"resampling episodes ({settings.reps} resamples, seed {settings.seed}). Elo: the "
        f"sequential update (K = {DEFAULT_ELO_K:g}, start 1000) over episodes in record "
        "order (task, seed, attempt); it depends on that order, Bradley–Terry does not.",
        "",
        *markdown_table(
            ["agent", "matches", "score", "Bradley–Terry rating", "Elo"],
            [
                [
                    row.rating.agent,
                    row.rating.matches,
                    number(row.rating.score),
                    _rating(row.rating.bradley_terry),
                    f"{row.rating.elo:.1f}",
                ]
                for row in rows
            ],
        ),
    ]


def games_section(tables: ReportTables, figures: Mapping[TaskKey, str]) -> list[str]:
    """The section's lines (none when no run has rows; see ``report.games``).

    Args:
        tables: The report's tables.
        figures: The games figure of each env configuration that has one, by file name.
    """
    games = tables.games
    if not games.returns and not games.win_rates:
        return []
    lines = _intro(tables)
    for task in tables.tasks:
        returns = [row for row in games.returns if row.task == task]
        rates = [row for row in games.win_rates if row.task == task]
        if not returns and not rates:
            continue
        several = len({row.run for row in returns} | {row.run for row in rates}) > 1
        lines += [f"### {short_task(task)}", ""]
        if task in figures:
            lines += [f"![agents on {short_task(task)}]({figures[task]})", ""]
        lines += _returns(returns, several)
        lines += _win_rates(rates, several)
        lines += _measures(tables, [row for row in games.measures if row.task == task], several)
        lines += _exploitability(tables, [row for row in games.exploitability if row.task == task])
        lines += _ratings(tables, task, [row for row in games.ratings if row.task == task])
    return lines
