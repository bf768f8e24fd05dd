"""The games figure of one env configuration: win rates by agent and role, and ratings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.game_outcomes import DIMENSION_TITLES
from envsuite.evaluation.report.formatting import percent
from envsuite.evaluation.report.games import RatingRow, WinRateRow
from envsuite.evaluation.report.labels import config_text, wrap_words
from envsuite.evaluation.report.plots import DPI, SMALL, TITLE_CHARS_PER_INCH, colour, save

#: Win-rate rows shown in the figure, the first dimension the rows have.
SHOWN_DIMENSIONS = ("agent_role", "agent", "team")


def _errors(intervals: Sequence[Interval]) -> list[list[float]]:
    return [
        [max(0.0, i.estimate - i.low) for i in intervals],
        [max(0.0, i.high - i.estimate) for i in intervals],
    ]


def _win_rate_panel(axes: Axes, rows: Sequence[WinRateRow]) -> None:
    dimension = next(d for d in SHOWN_DIMENSIONS if any(r.rate.dimension == d for r in rows))
    shown = [row for row in rows if row.rate.dimension == dimension]
    runs = list(dict.fromkeys(row.run for row in shown))
    labels = [
        row.rate.group if len(runs) == 1 else f"{row.rate.group}\n({row.run})" for row in shown
    ]
    positions = list(range(len(shown)))[::-1]  # first row on top
    axes.barh(
        positions,
        [row.rate.win_rate.estimate for row in shown],
        xerr=_errors([row.rate.win_rate for row in shown]),
        capsize=3,
        color=[colour(runs.index(row.run), len(runs)) for row in shown],
    )
    axes.set_yticks(positions, labels, fontsize=SMALL)
    axes.set_ylim(-0.6, len(shown) - 0.4)
    axes.set_xlim(0.0, 1.0)
    axes.axvline(0.5, color="grey", linestyle=":", linewidth=1)
    axes.set_xlabel("win rate (draws are not wins)")
    confidence = shown[0].rate.win_rate.confidence
    axes.set_title(
        f"by {DIMENSION_TITLES[dimension]}, {percent(confidence)} Wilson intervals", fontsize=9
    )


def _rating_panel(axes: Axes, rows: Sequence[RatingRow]) -> None:
    positions = list(range(len(rows)))[::-1]  # best on top
    intervals = [row.rating.bradley_terry for row in rows]
    axes.errorbar(
        [i.estimate for i in intervals],
        positions,
        xerr=_errors(intervals),
        fmt="o",
        capsize=3,
        color="black",
        label="Bradley–Terry",
    )
    axes.plot(
        [row.rating.elo for row in rows],
        positions,
        "x",
        color=colour(1),
        label="sequential Elo",
    )
    axes.set_yticks(positions, [row.rating.agent for row in rows], fontsize=SMALL)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.axvline(1000.0, color="grey", linestyle=":", linewidth=1)
    axes.set_xlabel("rating (Elo scale, mean 1000)")
    axes.set_title(
        f"ratings, {percent(intervals[0].confidence)} interval resampling episodes", fontsize=9
    )
    axes.legend(fontsize=SMALL)


def games_figure(win_rates: Sequence[WinRateRow], ratings: Sequence[RatingRow]) -> Figure:
    """The games figure of one env configuration, laid out (see :func:`plot_games`)."""
    shown = [r for r in win_rates if r.rate.dimension in SHOWN_DIMENSIONS]
    panels = int(bool(shown)) + int(bool(ratings))
    width = 5.5 * panels
    height = 1.2 + 0.35 * max(len(shown), len(ratings), 2)
    figure = Figure(figsize=(width, height), dpi=DPI)
    axes = list(figure.subplots(1, panels, squeeze=False)[0])
    if shown:
        _win_rate_panel(axes.pop(0), shown)
    if ratings:
        _rating_panel(axes.pop(0), ratings)
    task = (win_rates or ratings)[0].task
    figure.suptitle(wrap_words(config_text(task), int(width * TITLE_CHARS_PER_INCH)), fontsize=10)
    FigureCanvasAgg(figure)
    figure.tight_layout()
    return figure


def plot_games(win_rates: Sequence[WinRateRow], ratings: Sequence[RatingRow], path: Path) -> bool:
    """Win rates by agent in each role (or by agent, or team) and the agents' ratings.

    Args:
        win_rates: The win-rate rows of one env configuration.
        ratings: Its rating rows.
        path: Where the PNG goes.

    Returns:
        Whether a figure was written (False without rows to show).
    """
    if not any(r.rate.dimension in SHOWN_DIMENSIONS for r in win_rates) and not ratings:
        return False
    save(games_figure(win_rates, ratings), path)
    return True
