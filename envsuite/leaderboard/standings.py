"""A board version's standings: its verified entries, ranked, with every interval.

This is what both renderers (markdown and HTML) show. Nothing here is read from a
submission's claims: each entry is verified, its metrics recomputed from its records, and
the ranks come from the paired bootstrap of :mod:`envsuite.leaderboard.ranking`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from envsuite.evaluation.metrics import aggregate_mean
from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.record_groups import TaskKey
from envsuite.leaderboard.board import BoardVersion, load_board_version
from envsuite.leaderboard.layout import list_submissions
from envsuite.leaderboard.metric_values import MetricDef, metric_def, problem_matrix
from envsuite.leaderboard.panel import PanelRatings, panel_ratings
from envsuite.leaderboard.panel_metrics import (
    RATING,
    env_label,
    panel_games,
    rating_replicates,
)
from envsuite.leaderboard.ranking import (
    paired_replicates,
    pairwise_matches,
    rank_bounds,
    ratings_with_ranks,
    tied_ranks,
)
from envsuite.leaderboard.verify import ReplayMode, VerificationReport, verify_submission


@dataclass(frozen=True)
class Standing:
    """One entry's row.

    Attributes:
        entry: The submission folder name (``YYYYMMDD_slug``), unique on the board.
        report: Its verification report (metadata, records, recomputed metrics).
        rank: Displayed rank; tied entries share one.
        tied: Whether the entry is statistically tied with another.
        rank_interval: (best, worst) rank across the paired bootstrap replicates.
        rating: Bradley–Terry rating with its interval (multi-agent boards), else None.
        rating_ranks: (best, worst) rank by rating across its bootstrap, else None.
        per_task: Task label -> mean of the ranking metric over the task's seeds.
    """

    entry: str
    report: VerificationReport
    rank: int
    tied: bool
    rank_interval: tuple[int, int]
    rating: Interval | None = None
    rating_ranks: tuple[int, int] | None = None
    per_task: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> Interval:
        """The ranking metric with its interval."""
        return self.report.results[self.report.board.settings.ranking.metric]


@dataclass(frozen=True)
class Standings:
    """A board version ranked.

    Attributes:
        board: The board version.
        metric: The ranking metric's definition.
        columns: Metric columns shown per entry (ranking metric first).
        rows: Entries, best first.
        tasks: Labels of the board's tasks (env configurations), in matrix order.
        panel: A panel board's reference opponents and their fixed ratings (else None).
    """

    board: BoardVersion
    metric: MetricDef
    columns: list[str]
    rows: list[Standing]
    tasks: list[str]
    panel: PanelRatings | None = None


def task_short_label(key: TaskKey) -> str:
    """``Name-vN k=v ...`` for a task key (env id without the namespace, its kwargs)."""
    _, env_id, kwargs = key
    config = json.loads(kwargs)
    text = " ".join(f"{k}={v}" for k, v in sorted(config.items()))
    return f"{env_id.removeprefix('envsuite/')} {text}".strip()


def rank_reports(board: BoardVersion, reports: list[VerificationReport]) -> Standings:
    """Rank verified entries of one board version.

    Raises:
        ValueError: the entries did not run the same problems (cannot happen for verified
            entries of one board).
    """
    if board.panel:
        return rank_panel_reports(board, reports)
    settings = board.settings.ranking
    metric = metric_def(settings.metric)
    columns = list(reports[0].results) if reports else [settings.metric]
    if not reports:
        return Standings(board, metric, columns, [], [])
    names = [report.path.name for report in reports]
    matrices = [problem_matrix(report.records, settings.metric) for report in reports]
    order = {pin.key: index for index, pin in enumerate(board.settings.envs)}
    keys = sorted(matrices[0][1], key=lambda key: order.get((key[1], key[2]), len(order)))
    tasks = [task_short_label(key) for key in keys]  # in protocol order, for display
    replicates = paired_replicates(
        [matrix for matrix, _ in matrices], metric.statistic, reps=settings.reps, seed=settings.seed
    )
    bounds = rank_bounds(names, replicates, metric.higher_is_better, settings.confidence)
    estimates = {
        name: report.results[settings.metric].estimate
        for name, report in zip(names, reports, strict=True)
    }
    ranks = tied_ranks(estimates, bounds, metric.higher_is_better)
    ratings: dict[str, Interval] = {}
    rating_ranks: dict[str, tuple[int, int]] = {}
    if settings.ratings and len(reports) > 1:
        values = {name: matrix for name, (matrix, _) in zip(names, matrices, strict=True)}
        matches = pairwise_matches(values, metric.higher_is_better)
        ratings, rating_ranks = ratings_with_ranks(
            matches, reps=settings.rating_reps, confidence=settings.confidence, seed=settings.seed
        )
    rows = [
        Standing(
            entry=name,
            report=report,
            rank=ranks[name][0],
            tied=ranks[name][1],
            rank_interval=bounds[name],
            rating=ratings.get(name),
            rating_ranks=rating_ranks.get(name),
            per_task={
                task_short_label(key): float(value)
                for key, value in zip(matrix_keys, matrix.mean(axis=0), strict=True)
            },
        )
        for name, report, (matrix, matrix_keys) in zip(names, reports, matrices, strict=True)
    ]
    sign = 1.0 if metric.higher_is_better else -1.0
    rows.sort(key=lambda row: (row.rank, -sign * row.score.estimate, row.entry))
    return Standings(board, metric, columns, rows, tasks)


def rank_panel_reports(board: BoardVersion, reports: list[VerificationReport]) -> Standings:
    """Rank the verified entries of a panel board by their rating against the panel.

    Ranks come from the paired bootstrap of the ratings
    (:func:`~envsuite.leaderboard.panel_metrics.rating_replicates`: every entry resampled
    on the same seeds), with tied ranks as on every board; each entry's rating is its own
    (the panel fixed), so adding an entry moves no other rating.
    """
    settings = board.settings.ranking
    metric = MetricDef(RATING, True, aggregate_mean)
    opponents = board.protocol.opponents
    panel = panel_ratings(
        board.panel_records,
        board.protocol,
        reps=settings.rating_reps,
        confidence=settings.confidence,
        seed=settings.seed,
    )
    columns = list(reports[0].results) if reports else [RATING]
    tasks = [env_label(entry.id, entry.kwargs) for entry in board.protocol.envs]
    if not reports:
        return Standings(board, metric, columns, [], tasks, panel)
    names = [report.path.name for report in reports]
    games = [panel_games(board.protocol, report.records, board.panel_records) for report in reports]
    strengths = [panel.strengths[o] for o in opponents]
    replicates = rating_replicates(games, strengths, reps=settings.reps, seed=settings.seed)
    bounds = rank_bounds(names, replicates, True, settings.confidence)
    estimates = {name: r.results[RATING].estimate for name, r in zip(names, reports, strict=True)}
    ranks = tied_ranks(estimates, bounds, True)
    rows = [
        Standing(
            entry=name,
            report=report,
            rank=ranks[name][0],
            tied=ranks[name][1],
            rank_interval=bounds[name],
            per_task={
                label: float(value)
                for label, value in zip(tasks, game.points.mean(axis=(0, 2)), strict=True)
            },
        )
        for name, report, game in zip(names, reports, games, strict=True)
    ]
    rows.sort(key=lambda row: (row.rank, -row.score.estimate, row.entry))
    return Standings(board, metric, columns, rows, tasks, panel)


def board_standings(
    path: Path,
    *,
    replay: ReplayMode = "none",
    on_entry: Callable[[Path], None] | None = None,
) -> Standings:
    """Verify every submission of a board version and rank them.

    Raises:
        SubmissionRejected: a submission fails verification (render shows verified entries
            only, so one bad submission stops it, naming the check that failed).
    """
    board = load_board_version(path)
    reports = []
    for folder in list_submissions(path):
        reports.append(verify_submission(folder, replay=replay))
        if on_entry is not None:
            on_entry(folder)
    return rank_reports(board, reports)
