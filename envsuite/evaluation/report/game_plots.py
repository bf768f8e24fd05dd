"""The agents figure of one env configuration: win rates (or mean returns) and ratings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from envsuite.evaluation.metrics.bootstrap import Interval
from envsuite.evaluation.metrics.game_outcomes import DIMENSION_TITLES
from envsuite.evaluation.report.formatting import percent
from envsuite.evaluation.report.games import RatingRow, ReturnRow, WinRateRow
from envsuite.evaluation.report.labels import config_text, short_agent_names, wrap_words
from envsuite.evaluation.report.plots import (
    CHAR_INCHES,
    DPI,
    SMALL,
    TITLE_CHARS_PER_INCH,
    colour,
    save,
)

#: Width of a panel's plotting area, in inches (its tick labels come on top).
PANEL_INCHES = 3.6

#: Rows shown in the figure: those of the first of these dimensions the rows have.
SHOWN_DIMENSIONS = ("agent_role", "agent", "team")


def _shown(
    rows: Sequence[WinRateRow] | Sequence[ReturnRow],
) -> tuple[str, list[tuple[str, str, Interval]]]:
    """The first shown dimension the rows have, and (run, group, interval) of its rows."""
    found = [
        (row.run, row.rate.dimension, row.rate.group, row.rate.win_rate)
        if isinstance(row, WinRateRow)
        else (row.run, row.mean.dimension, row.mean.group, row.mean.mean_return)
        for row in rows
    ]
    for dimension in SHOWN_DIMENSIONS:
        chosen = [(run, group, value) for run, d, group, value in found if d == dimension]
        if chosen:
            return dimension, chosen
    return "", []


def _errors(intervals: Sequence[Interval]) -> list[list[float]]:
    return [
        [max(0.0, i.estimate - i.low) for i in intervals],
        [max(0.0, i.high - i.estimate) for i in intervals],
    ]


def _group_panel(axes: Axes, rows: Sequence[WinRateRow] | Sequence[ReturnRow]) -> None:
    win_rates = isinstance(rows[0], WinRateRow)
    dimension, shown = _shown(rows)
    runs = list(dict.fromkeys(run for run, _, _ in shown))
    names = short_agent_names([group for _, group, _ in shown])
    labels = [
        names[group] if len(runs) == 1 else f"{names[group]}\n({run})" for run, group, _ in shown
    ]
    positions = list(range(len(shown)))[::-1]  # first row on top
    axes.barh(
        positions,
        [value.estimate for _, _, value in shown],
        xerr=_errors([value for _, _, value in shown]),
        capsize=3,
        color=[colour(runs.index(run), len(runs)) for run, _, _ in shown],
    )
    axes.set_yticks(positions, labels, fontsize=SMALL)
    axes.set_ylim(-0.6, len(shown) - 0.4)
    confidence = percent(shown[0][2].confidence)
    if win_rates:
        axes.set_xlim(0.0, 1.0)
        axes.axvline(0.5, color="grey", linestyle=":", linewidth=1)
        axes.set_xlabel("win rate (draws are not wins)")
        title = f"by {DIMENSION_TITLES[dimension]},\n{confidence} Wilson intervals"
    else:
        axes.axvline(0.0, color="black", linewidth=0.6)
        axes.set_xlabel("mean return per seat held")
        title = f"by {DIMENSION_TITLES[dimension]},\n{confidence} intervals resampling episodes"
    axes.set_title(title, fontsize=9)


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
    names = short_agent_names([row.rating.agent for row in rows])
    axes.set_yticks(positions, [names[row.rating.agent] for row in rows], fontsize=SMALL)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.axvline(1000.0, color="grey", linestyle=":", linewidth=1)
    axes.set_xlabel("rating (Elo scale, mean 1000)")
    axes.set_title(
        f"ratings,\n{percent(intervals[0].confidence)} intervals resampling episodes", fontsize=9
    )
    axes.legend(fontsize=SMALL)


def games_figure(
    groups: Sequence[WinRateRow] | Sequence[ReturnRow], ratings: Sequence[RatingRow]
) -> Figure:
    """The agents figure of one env configuration, laid out (see :func:`plot_games`)."""
    _, shown = _shown(groups)
    panels = int(bool(shown)) + int(bool(ratings))
    label_chars = [
        *(len(name) for name in short_agent_names([group for _, group, _ in shown]).values()),
        *(len(name) for name in short_agent_names([row.rating.agent for row in ratings]).values()),
    ]
    width = panels * (PANEL_INCHES + CHAR_INCHES * max(label_chars, default=10) + 0.4)
    height = 1.2 + 0.35 * max(len(shown), len(ratings), 3)
    figure = Figure(figsize=(width, height), dpi=DPI)
    axes = list(figure.subplots(1, panels, squeeze=False)[0])
    if shown:
        _group_panel(axes.pop(0), groups)
    if ratings:
        _rating_panel(axes.pop(0), ratings)
    task = (groups or ratings)[0].task
    figure.suptitle(wrap_words(config_text(task), int(width * TITLE_CHARS_PER_INCH)), fontsize=10)
    FigureCanvasAgg(figure)
    figure.tight_layout()
    return figure


def plot_games(
    win_rates: Sequence[WinRateRow],
    returns: Sequence[ReturnRow],
    ratings: Sequence[RatingRow],
    path: Path,
) -> bool:
    """Win rates by agent in each role (or by agent, or team) next to the agents' ratings.

    Games without winners show mean returns where win rates would be.

    Args:
        win_rates: The win-rate rows of one env configuration.
        returns: Its mean-return rows (shown when it has no win rates).
        ratings: Its rating rows.
        path: Where the PNG goes.

    Returns:
        Whether a figure was written (False without rows to show).
    """
    groups: Sequence[WinRateRow] | Sequence[ReturnRow] = win_rates or returns
    if not _shown(groups)[1] and not ratings:
        return False
    save(games_figure(groups, ratings), path)
    return True
